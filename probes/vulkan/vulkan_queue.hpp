#pragma once
// A logical device with one compute queue and one command buffer, and buffers backed by memory
// of a chosen kind: what the matmul (vulkan_matmul.cpp) and the copy-rate measurement
// (bench/vulkan_bandwidth.cpp) both stand on. Isolated child only: it loads and runs vendor code.
//
//   VulkanQueue q(api, instance, physical);
//   if (q.problem()) …                       // skip (the device lacks something) or an error
//   VulkanBuffer b(q);
//   if (auto e = b.make(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, kHostMemory)) …
//   q.record([&](VkCommandBuffer c) { q.dev().cmd_…(c, …); });
//   q.submit_and_wait();
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "vulkan/vulkan_api.hpp"
#include "vulkan/vulkan_compute_api.hpp"

namespace gpudoctor::vulkan {

inline constexpr VkMemoryPropertyFlags kHostMemory =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

/// Why a device cannot be used: `skip` when it lacks something a correct driver may lack (no
/// compute queue), else a call that failed.
struct SetupProblem {
  bool skip = false;
  std::string why;
};

/// The memory type among `allowed` (a bit per type) that has every flag of `required`, one that
/// also has `preferred` where there is one; nullopt when none has `required`.
std::optional<std::uint32_t> pick_memory_type(const VkPhysicalDeviceMemoryProperties& mem,
                                              std::uint32_t allowed, VkMemoryPropertyFlags required,
                                              VkMemoryPropertyFlags preferred);

class VulkanQueue {
 public:
  /// Creates the device on the first queue family that runs compute, its command pool and one
  /// resettable command buffer, and a two-entry timestamp query pool where the queue has them.
  VulkanQueue(const VulkanApi& api, VkInstance instance, VkPhysicalDevice physical);
  ~VulkanQueue();
  VulkanQueue(const VulkanQueue&) = delete;
  VulkanQueue& operator=(const VulkanQueue&) = delete;

  const std::optional<SetupProblem>& problem() const { return problem_; }
  const VulkanApi& api() const { return api_; }
  VkPhysicalDevice physical() const { return physical_; }
  const VulkanComputeApi& dev() const { return dev_; }
  VkDevice device() const { return device_; }
  VkCommandBuffer commands() const { return commands_; }
  /// The timestamp query pool (entries 0 and 1), or null when the queue cannot time itself.
  VkQueryPool queries() const { return queries_; }
  /// Nanoseconds per timestamp tick, when queries() exists.
  std::optional<double> timestamp_ns() const { return timestamp_ns_; }
  const VkPhysicalDeviceMemoryProperties& memory() const { return memory_; }

  /// Re-records the command buffer with what `body` puts in it; the failed call's text if any.
  std::optional<std::string> record(const std::function<void(VkCommandBuffer)>& body) const;
  /// Runs the recorded command buffer and waits until the queue is idle.
  std::optional<std::string> submit_and_wait() const;

 private:
  void setup(VkInstance instance);
  bool pick_family();
  bool make_commands();

  const VulkanApi& api_;
  VkPhysicalDevice physical_;
  std::optional<SetupProblem> problem_;
  VulkanComputeApi dev_;
  VkPhysicalDeviceMemoryProperties memory_{};
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t family_ = 0;
  std::optional<double> timestamp_ns_;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  VkQueryPool queries_ = VK_NULL_HANDLE;
};

/// One buffer and the memory behind it (mapped when host-visible), freed with the object.
class VulkanBuffer {
 public:
  explicit VulkanBuffer(const VulkanQueue& q) : q_(q) {}
  ~VulkanBuffer();
  VulkanBuffer(const VulkanBuffer&) = delete;
  VulkanBuffer& operator=(const VulkanBuffer&) = delete;

  /// Creates `bytes` of buffer for `usage` in memory with `required` (and `preferred` where
  /// possible) and maps it when that memory is host-visible; the failed call's text otherwise.
  std::optional<std::string> make(VkDeviceSize bytes, VkBufferUsageFlags usage,
                                  VkMemoryPropertyFlags required,
                                  VkMemoryPropertyFlags preferred = 0);

  VkBuffer buffer() const { return buffer_; }
  void* mapped() const { return mapped_; }

 private:
  const VulkanQueue& q_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  void* mapped_ = nullptr;
};

}  // namespace gpudoctor::vulkan
