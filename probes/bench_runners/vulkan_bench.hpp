#pragma once
#include <string>
#include <vector>

#include "core/isolate.hpp"

namespace gpudoctor::bench {

/// The body of one Vulkan bench job: the loader restricted to this one driver manifest, every
/// physical device gets the matmul sweep (vulkan/vulkan_matmul.hpp) and the copy rates
/// (bench/vulkan_bandwidth.hpp). Isolated child only.
JobReport vulkan_bench(const std::string& manifest, const std::vector<int>& sizes);

}  // namespace gpudoctor::bench
