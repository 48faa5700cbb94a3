#include "bench_runners/vulkan_bandwidth.hpp"

#include <algorithm>
#include <cstring>

#include "bench_runners/copy_timer.hpp"
#include "vulkan/vulkan_queue.hpp"

namespace gpudoctor::bench {

namespace {

constexpr VkBufferUsageFlags kTransfer =
    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

/// `bytes`, or a quarter of the smallest heap: room for the three buffers on any device.
VkDeviceSize copy_size(const VkPhysicalDeviceMemoryProperties& mem, std::size_t bytes) {
  VkDeviceSize size = bytes;
  for (std::uint32_t i = 0; i < mem.memoryHeapCount && i < VK_MAX_MEMORY_HEAPS; ++i) {
    if (mem.memoryHeaps[i].size > 0) size = std::min(size, mem.memoryHeaps[i].size / 4);
  }
  return size;
}

}  // namespace

Bandwidth vulkan_bandwidth(const vulkan::VulkanApi& api, VkInstance instance,
                           VkPhysicalDevice device, std::size_t bytes) {
  Bandwidth bw;
  vulkan::VulkanQueue q(api, instance, device);
  if (const auto& p = q.problem()) {
    bw.error = p->why;
    return bw;
  }
  const VkDeviceSize size = copy_size(q.memory(), bytes);
  bw.bytes = size;
  vulkan::VulkanBuffer host(q);
  vulkan::VulkanBuffer on_device[2] = {vulkan::VulkanBuffer(q), vulkan::VulkanBuffer(q)};
  auto error = host.make(size, kTransfer, vulkan::kHostMemory, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
  for (vulkan::VulkanBuffer& b : on_device) {
    if (!error) error = b.make(size, kTransfer, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  }
  if (error) {
    bw.error = *error;
    return bw;
  }
  std::memset(host.mapped(), 1, size);

  // The rate of one recorded copy from `from` to `to`; nullopt (and the error kept) on failure.
  auto rate = [&](VkBuffer from, VkBuffer to) -> std::optional<double> {
    const VkBufferCopy region{0, 0, size};
    if (auto e = q.record(
            [&](VkCommandBuffer c) { q.dev().cmd_copy_buffer(c, from, to, 1, &region); })) {
      bw.error = *e;
      return std::nullopt;
    }
    return copy_gbs(size, [&] {
      auto e = q.submit_and_wait();
      if (e && !bw.error) bw.error = *e;
      return !e;
    });
  };
  bw.host_to_device_gbs = rate(host.buffer(), on_device[0].buffer());
  bw.device_to_host_gbs = rate(on_device[0].buffer(), host.buffer());
  bw.device_to_device_gbs = rate(on_device[0].buffer(), on_device[1].buffer());
  return bw;
}

}  // namespace gpudoctor::bench
