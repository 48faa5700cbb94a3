#pragma once
// A device's expected fp32 peak from the properties its API reports: units × FP32 FLOPs per
// unit per clock × clock. Only where the FLOPs per clock are documented for that vendor and
// architecture; otherwise the reason it is unknown.
#include <string>
#include <variant>

#include "bench/bench_model.hpp"

namespace gpudoctor::bench {

/// The estimate, or why there is none. `name` is the device's name as its API gave it (AMD's
/// OpenCL names the architecture there: "gfx906").
std::variant<PeakEstimate, std::string> expected_peak(const DeviceTraits& traits,
                                                      const std::optional<std::string>& name);

/// Below this share of its expected peak at n ≥ kJudgedFromN a device is reported as running
/// far below what it should. gpudoctor's kernels are simple tiled kernels, not a vendor BLAS, so
/// a healthy GPU stays well under 100 %; a share this low means clocks stuck low, a throttled or
/// misconfigured device, or the work landing somewhere else.
inline constexpr double kFarBelowPercent = 2.0;
inline constexpr int kJudgedFromN = 1024;

}  // namespace gpudoctor::bench
