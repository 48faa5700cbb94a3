#pragma once
// The operating systems gpudoctor tells apart. The platform of a snapshot decides which checks
// apply and in whose terms a fix is written (a Mac never gets apt or modprobe); the platform of
// a root decides which files and libraries the probes look for (library_names.hpp).
#include <string_view>

#include "model/snapshot.hpp"

namespace gpudoctor {

inline constexpr std::string_view kPlatformLinux = "linux";
inline constexpr std::string_view kPlatformMacos = "macos";
/// A check or fact that holds on every platform.
inline constexpr std::string_view kPlatformAny = "any";

/// The platform a snapshot describes: macOS when the macos backend found a Mac (live, recorded
/// under --sysroot, or in a report read with --from), Linux otherwise.
std::string_view snapshot_platform(const Snapshot& snap);

/// Whether `platforms` ("any", "linux", "linux, macos") names `platform`.
bool platform_listed(std::string_view platforms, std::string_view platform);

}  // namespace gpudoctor
