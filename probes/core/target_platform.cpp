#include "core/host_platform.hpp"
#include "macos/macos_probe.hpp"
#include "platform/platform.hpp"

namespace gpudoctor {

std::string_view target_platform(const Root& root) {
  if (root.is_host()) return host_platform();
  if (recorded_macos_tree(root) ||
      root.exists("/System/Library/CoreServices/SystemVersion.plist")) {
    return kPlatformMacos;
  }
  return kPlatformLinux;
}

}  // namespace gpudoctor
