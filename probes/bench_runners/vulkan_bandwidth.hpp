#pragma once
#include <cstddef>

#include "bench/bench_model.hpp"
#include "vulkan/vulkan_api.hpp"

namespace gpudoctor::bench {

/// Host→device, device→host and on-device copy rates on one physical device, each a
/// vkCmdCopyBuffer of `bytes` (or a quarter of the smallest memory heap, if less) submitted and
/// waited for: host side a host-visible staging buffer (host-cached where the device has such
/// memory), device side device-local buffers. `api` must have its instance-level entry points
/// for `instance`. Isolated child only.
Bandwidth vulkan_bandwidth(const vulkan::VulkanApi& api, VkInstance instance,
                           VkPhysicalDevice device, std::size_t bytes);

}  // namespace gpudoctor::bench
