#include "platform/platform.hpp"

#include "text.hpp"

namespace gpudoctor {

std::string_view snapshot_platform(const Snapshot& snap) {
  // The macos probe leaves its section out on any other system and on a tree with no recorded
  // macOS outputs, so its presence is the evidence.
  return snap.macos ? kPlatformMacos : kPlatformLinux;
}

bool platform_listed(std::string_view platforms, std::string_view platform) {
  for (const auto& p : split_words(platforms, ", ")) {
    if (p == kPlatformAny || p == platform) return true;
  }
  return false;
}

}  // namespace gpudoctor
