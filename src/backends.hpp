#pragma once
#include <array>
#include <string_view>

namespace gpudoctor {

inline constexpr std::string_view kBackendHost = "host";
inline constexpr std::string_view kBackendPci = "pci";
inline constexpr std::string_view kBackendOpenCl = "opencl";
inline constexpr std::string_view kBackendVulkan = "vulkan";
inline constexpr std::string_view kBackendNvidia = "nvidia";
inline constexpr std::string_view kBackendCuda = "cuda";
inline constexpr std::string_view kBackendNvml = "nvml";
inline constexpr std::string_view kBackendPython = "python";
inline constexpr std::string_view kBackendMacos = "macos";
inline constexpr std::string_view kBackendRocm = "rocm";

/// Every backend `--backend` accepts, in the order they are shown.
inline constexpr std::array<std::string_view, 10> kAllBackends = {
    kBackendHost,   kBackendPci,  kBackendOpenCl, kBackendVulkan,
    kBackendNvidia, kBackendCuda, kBackendNvml,   kBackendPython,
    kBackendMacos,  kBackendRocm};

}  // namespace gpudoctor
