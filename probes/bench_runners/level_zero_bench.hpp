#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/isolate.hpp"

namespace gpudoctor::bench {

/// The body of one Level Zero bench job: the loader with only `driver` (ZE_ENABLE_ALT_DRIVERS;
/// none: the loader's own search), every root device gets the matmul sweep of the smoke kernel
/// (level_zero/level_zero_matmul.hpp: one work item per row, not a tuned kernel). No copy rates.
/// Isolated child only.
JobReport level_zero_bench(const std::optional<std::string>& driver, const std::vector<int>& sizes);

}  // namespace gpudoctor::bench
