#pragma once
// Parsers for who a process is: /proc/<pid>/status (Uid, Gid, Groups), /etc/passwd and
// /etc/group. Each takes the file's text; none touches the system.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// The ids in /proc/<pid>/status: the effective uid and gid (second field of Uid:/Gid:) and the
/// supplementary groups (Groups:).
struct ProcessIds {
  std::optional<std::uint32_t> uid;
  std::optional<std::uint32_t> gid;
  std::vector<std::uint32_t> groups;
};
ProcessIds parse_proc_status_ids(std::string_view text);

/// One /etc/passwd line: name:password:uid:gid:…
struct PasswdEntry {
  std::string name;
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
};
std::vector<PasswdEntry> parse_passwd(std::string_view text);

/// One /etc/group line: name:password:gid:member,member
struct GroupEntry {
  std::string name;
  std::uint32_t gid = 0;
  std::vector<std::string> members;
};
std::vector<GroupEntry> parse_group_entries(std::string_view text);

}  // namespace gpudoctor
