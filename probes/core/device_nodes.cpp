#include "core/device_nodes.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/nvidia_kernel.hpp"

namespace gpudoctor {

std::map<std::uint32_t, std::string> group_names(const Root& root) {
  if (auto text = root.read("/etc/group")) return parse_group_file(*text);
  return {};
}

DeviceNode read_device_node(const ProbeContext& ctx,
                            const std::map<std::uint32_t, std::string>& groups,
                            const std::string& path) {
  DeviceNode node;
  node.path = path;
  const auto st = ctx.root.stat_of(path);
  if (st && (ctx.root.is_host() || S_ISCHR(st->st_mode))) {
    node.mode = mode_string(static_cast<std::uint32_t>(st->st_mode));
    node.uid = static_cast<std::uint32_t>(st->st_uid);
    node.gid = static_cast<std::uint32_t>(st->st_gid);
    auto g = groups.find(static_cast<std::uint32_t>(st->st_gid));
    if (g != groups.end()) node.group = g->second;
  }
  if (ctx.root.is_host()) {
    const std::string host = ctx.root.host_path(path);
    node.readable = ::faccessat(AT_FDCWD, host.c_str(), R_OK, AT_EACCESS) == 0;
    node.writable = ::faccessat(AT_FDCWD, host.c_str(), W_OK, AT_EACCESS) == 0;
  }
  return node;
}

}  // namespace gpudoctor
