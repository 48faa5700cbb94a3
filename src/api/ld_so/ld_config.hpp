#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// One parsed /etc/ld.so.conf-style file: directories, and include patterns to expand.
struct LdConfig {
  std::vector<std::string> directories;
  std::vector<std::string> includes;  ///< glob patterns as written, e.g. "/etc/ld.so.conf.d/*.conf"
};

LdConfig parse_ld_so_conf(std::string_view text);

/// The multiarch triplet directories the Debian/Ubuntu loader searches by default, then the
/// trusted directories, for an architecture as uname reports it ("x86_64" → x86_64-linux-gnu).
std::vector<std::string> default_library_dirs(std::string_view machine);

}  // namespace gpudoctor
