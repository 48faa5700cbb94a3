#pragma once
// A compute pipeline over one descriptor set, and the descriptor set of one run: what the matmul
// (vulkan_matmul.cpp) and the FMA peak (vulkan_fma_peak.cpp) dispatch. Isolated child only.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vulkan/vulkan_queue.hpp"

namespace gpudoctor::vulkan {

/// What binding i of a shader is: a storage buffer, or a uniform texel buffer read as RGBA32F.
enum class Binding { storage_buffer, uniform_texel_buffer };

/// The buffer usage a binding of this kind needs.
VkBufferUsageFlags usage_for(Binding b);

class ComputePipeline {
 public:
  explicit ComputePipeline(const VulkanQueue& q) : q_(q) {}
  ~ComputePipeline();
  ComputePipeline(const ComputePipeline&) = delete;
  ComputePipeline& operator=(const ComputePipeline&) = delete;

  /// Shader module, set layout (binding i = bindings[i]), pipeline layout with `push_bytes` of
  /// push constants, pipeline; the failed call's text otherwise.
  std::optional<std::string> make(const std::vector<std::uint32_t>& spirv,
                                  std::vector<Binding> bindings, std::uint32_t push_bytes);

  const std::vector<Binding>& bindings() const { return bindings_; }
  VkDescriptorSetLayout set_layout() const { return set_layout_; }

  /// Records: bind the pipeline and `set`, push `push`, dispatch x × y groups.
  void dispatch(VkCommandBuffer c, VkDescriptorSet set, const void* push, std::uint32_t x,
                std::uint32_t y) const;

 private:
  const VulkanQueue& q_;
  std::vector<Binding> bindings_;
  std::uint32_t push_bytes_ = 0;
  VkShaderModule shader_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

/// The descriptor set of one run over its buffers (texel buffers through an RGBA32F view),
/// freed with the object.
class DescriptorSet {
 public:
  explicit DescriptorSet(const VulkanQueue& q) : q_(q) {}
  ~DescriptorSet();
  DescriptorSet(const DescriptorSet&) = delete;
  DescriptorSet& operator=(const DescriptorSet&) = delete;

  /// buffers[i] (`bytes` each) for binding i of `pipeline`; the failed call's text otherwise.
  std::optional<std::string> make(const ComputePipeline& pipeline,
                                  const std::vector<const VulkanBuffer*>& buffers,
                                  VkDeviceSize bytes);
  VkDescriptorSet set() const { return set_; }

 private:
  const VulkanQueue& q_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  std::vector<VkBufferView> views_;
};

}  // namespace gpudoctor::vulkan
