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

/// Every backend `--backend` accepts, in the order they are shown.
inline constexpr std::array<std::string_view, 8> kAllBackends = {
    kBackendHost,   kBackendPci,  kBackendOpenCl, kBackendVulkan,
    kBackendNvidia, kBackendCuda, kBackendNvml,   kBackendPython};

}  // namespace gpudoctor
