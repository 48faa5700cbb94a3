#include "vulkan/vulkan_pipeline.hpp"

#include "api/vulkan/vulkan_names.hpp"

namespace gpudoctor::vulkan {

namespace {

VkDescriptorType descriptor_type(Binding b) {
  return b == Binding::uniform_texel_buffer ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                                            : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

}  // namespace

VkBufferUsageFlags usage_for(Binding b) {
  return b == Binding::uniform_texel_buffer ? VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT
                                            : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
}

ComputePipeline::~ComputePipeline() {
  const VulkanComputeApi& dev = q_.dev();
  const VkDevice device = q_.device();
  if (device == VK_NULL_HANDLE) return;
  if (pipeline_ != VK_NULL_HANDLE) dev.destroy_pipeline(device, pipeline_, nullptr);
  if (layout_ != VK_NULL_HANDLE) dev.destroy_pipeline_layout(device, layout_, nullptr);
  if (set_layout_ != VK_NULL_HANDLE) dev.destroy_descriptor_set_layout(device, set_layout_, nullptr);
  if (shader_ != VK_NULL_HANDLE) dev.destroy_shader_module(device, shader_, nullptr);
}

std::optional<std::string> ComputePipeline::make(const std::vector<std::uint32_t>& spirv,
                                                 std::vector<Binding> bindings,
                                                 std::uint32_t push_bytes) {
  const VulkanComputeApi& dev = q_.dev();
  const VkDevice device = q_.device();
  bindings_ = std::move(bindings);
  push_bytes_ = push_bytes;
  VkShaderModuleCreateInfo shader_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  shader_info.codeSize = spirv.size() * sizeof(std::uint32_t);
  shader_info.pCode = spirv.data();
  if (VkResult r = dev.create_shader_module(device, &shader_info, nullptr, &shader_);
      r != VK_SUCCESS) {
    shader_ = VK_NULL_HANDLE;
    return vk_call_failed("vkCreateShaderModule", r);
  }
  std::vector<VkDescriptorSetLayoutBinding> slots(bindings_.size());
  for (std::uint32_t i = 0; i < slots.size(); ++i) {
    slots[i].binding = i;
    slots[i].descriptorType = descriptor_type(bindings_[i]);
    slots[i].descriptorCount = 1;
    slots[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = static_cast<std::uint32_t>(slots.size());
  set_info.pBindings = slots.data();
  if (VkResult r = dev.create_descriptor_set_layout(device, &set_info, nullptr, &set_layout_);
      r != VK_SUCCESS) {
    set_layout_ = VK_NULL_HANDLE;
    return vk_call_failed("vkCreateDescriptorSetLayout", r);
  }
  const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout_;
  layout_info.pushConstantRangeCount = push_bytes > 0 ? 1 : 0;
  layout_info.pPushConstantRanges = &push;
  if (VkResult r = dev.create_pipeline_layout(device, &layout_info, nullptr, &layout_);
      r != VK_SUCCESS) {
    layout_ = VK_NULL_HANDLE;
    return vk_call_failed("vkCreatePipelineLayout", r);
  }
  VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = shader_;
  pipeline_info.stage.pName = "main";
  pipeline_info.layout = layout_;
  if (VkResult r = dev.create_compute_pipelines(device, VK_NULL_HANDLE, 1, &pipeline_info,
                                                nullptr, &pipeline_);
      r != VK_SUCCESS) {
    pipeline_ = VK_NULL_HANDLE;
    return vk_call_failed("vkCreateComputePipelines", r);
  }
  return std::nullopt;
}

void ComputePipeline::dispatch(VkCommandBuffer c, VkDescriptorSet set, const void* push,
                               std::uint32_t x, std::uint32_t y) const {
  const VulkanComputeApi& dev = q_.dev();
  dev.cmd_bind_pipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  dev.cmd_bind_descriptor_sets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set, 0,
                               nullptr);
  if (push_bytes_ > 0) {
    dev.cmd_push_constants(c, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes_, push);
  }
  dev.cmd_dispatch(c, x, y, 1);
}

DescriptorSet::~DescriptorSet() {
  const VulkanComputeApi& dev = q_.dev();
  for (VkBufferView v : views_) {
    if (v != VK_NULL_HANDLE) dev.destroy_buffer_view(q_.device(), v, nullptr);
  }
  if (pool_ != VK_NULL_HANDLE) dev.destroy_descriptor_pool(q_.device(), pool_, nullptr);
}

std::optional<std::string> DescriptorSet::make(const ComputePipeline& pipeline,
                                               const std::vector<const VulkanBuffer*>& buffers,
                                               VkDeviceSize bytes) {
  const VulkanComputeApi& dev = q_.dev();
  const VkDevice device = q_.device();
  const std::vector<Binding>& kinds = pipeline.bindings();
  const auto count = static_cast<std::uint32_t>(kinds.size());
  const VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, count},
                                         {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, count}};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 2;
  pool_info.pPoolSizes = sizes;
  if (VkResult r = dev.create_descriptor_pool(device, &pool_info, nullptr, &pool_);
      r != VK_SUCCESS) {
    pool_ = VK_NULL_HANDLE;
    return vk_call_failed("vkCreateDescriptorPool", r);
  }
  const VkDescriptorSetLayout layout = pipeline.set_layout();
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = pool_;
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &layout;
  if (VkResult r = dev.allocate_descriptor_sets(device, &alloc, &set_); r != VK_SUCCESS) {
    return vk_call_failed("vkAllocateDescriptorSets", r);
  }
  std::vector<VkDescriptorBufferInfo> infos(count);
  std::vector<VkWriteDescriptorSet> writes(count);
  views_.assign(count, VK_NULL_HANDLE);
  for (std::uint32_t i = 0; i < count && i < buffers.size(); ++i) {
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set_;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = descriptor_type(kinds[i]);
    if (kinds[i] == Binding::uniform_texel_buffer) {
      if (dev.create_buffer_view == nullptr || dev.destroy_buffer_view == nullptr) {
        return std::string("the driver has no vkCreateBufferView");
      }
      VkBufferViewCreateInfo view{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
      view.buffer = buffers[i]->buffer();
      view.format = VK_FORMAT_R32G32B32A32_SFLOAT;
      view.range = bytes;
      if (VkResult r = dev.create_buffer_view(device, &view, nullptr, &views_[i]);
          r != VK_SUCCESS) {
        views_[i] = VK_NULL_HANDLE;
        return vk_call_failed("vkCreateBufferView", r);
      }
      writes[i].pTexelBufferView = &views_[i];
    } else {
      infos[i] = {buffers[i]->buffer(), 0, bytes};
      writes[i].pBufferInfo = &infos[i];
    }
  }
  dev.update_descriptor_sets(device, count, writes.data(), 0, nullptr);
  return std::nullopt;
}

}  // namespace gpudoctor::vulkan
