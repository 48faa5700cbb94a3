#pragma once
// Which platform this build runs on, and which one a root holds: the probes look for that
// platform's files and libraries (platform/library_names.hpp).
#include <string_view>

#include "core/root.hpp"

namespace gpudoctor {

/// kPlatformMacos on a macOS build, kPlatformLinux elsewhere (host_platform_apple.cpp /
/// host_platform_other.cpp, chosen in cmake/platform.cmake).
std::string_view host_platform();

/// This machine's platform for the host root; for another root, macOS when it holds a Mac's
/// recorded tool outputs (/.gpudoctor/sw_vers.txt, …) or its SystemVersion.plist, else Linux.
std::string_view target_platform(const Root& root);

}  // namespace gpudoctor
