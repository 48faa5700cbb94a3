#pragma once
// The fp32 rate a Vulkan device sustains on independent multiply-adds in registers
// (probes/vulkan/fma_peak.comp): the ceiling gpudoctor's matmul shader is measured against,
// on devices whose expected peak no table gives (a CPU driver such as lavapipe) as on GPUs.
// Isolated child only: it loads and runs vendor code.
#include <variant>
#include <string>

#include "vulkan/vulkan_api.hpp"

namespace gpudoctor::vulkan {

/// Enough invocations for any GPU (262144 of them, 64 a work group); the rounds per invocation
/// grow until one dispatch takes kPeakDispatchMs, then the best of kPeakRuns timed dispatches
/// counts. Short dispatches and many of them: on a CPU driver sharing its cores, the best of
/// many short runs is the one least disturbed, as for the matmul's small sizes.
inline constexpr std::uint32_t kPeakGroups = 4096;
inline constexpr std::uint32_t kPeakGroupSize = 64;
inline constexpr double kPeakDispatchMs = 5;
inline constexpr int kPeakRuns = 20;
/// FLOP per round per invocation: 8 vec4 FMA chains, 2 FLOP per lane each.
inline constexpr double kPeakFlopPerRound = 8 * 4 * 2;

/// GFLOPS, or why it could not be measured. `api` must have its instance-level entry points
/// for `instance`.
std::variant<double, std::string> vulkan_fma_peak(const VulkanApi& api, VkInstance instance,
                                                  VkPhysicalDevice device);

}  // namespace gpudoctor::vulkan
