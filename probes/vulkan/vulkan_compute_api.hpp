#pragma once
// The device-level Vulkan entry points the matmul runner and the copy-rate measurement use,
// from vkGetDeviceProcAddr (the loader's fastest path).
#include <vulkan/vulkan.h>

#include <optional>
#include <string>

namespace gpudoctor::vulkan {

struct VulkanComputeApi {
  PFN_vkGetDeviceQueue get_device_queue = nullptr;
  PFN_vkDestroyDevice destroy_device = nullptr;
  PFN_vkCreateBuffer create_buffer = nullptr;
  PFN_vkDestroyBuffer destroy_buffer = nullptr;
  PFN_vkCreateBufferView create_buffer_view = nullptr;
  PFN_vkDestroyBufferView destroy_buffer_view = nullptr;
  PFN_vkGetBufferMemoryRequirements get_buffer_memory_requirements = nullptr;
  PFN_vkAllocateMemory allocate_memory = nullptr;
  PFN_vkFreeMemory free_memory = nullptr;
  PFN_vkBindBufferMemory bind_buffer_memory = nullptr;
  PFN_vkMapMemory map_memory = nullptr;
  PFN_vkUnmapMemory unmap_memory = nullptr;
  PFN_vkCreateShaderModule create_shader_module = nullptr;
  PFN_vkDestroyShaderModule destroy_shader_module = nullptr;
  PFN_vkCreateDescriptorSetLayout create_descriptor_set_layout = nullptr;
  PFN_vkDestroyDescriptorSetLayout destroy_descriptor_set_layout = nullptr;
  PFN_vkCreatePipelineLayout create_pipeline_layout = nullptr;
  PFN_vkDestroyPipelineLayout destroy_pipeline_layout = nullptr;
  PFN_vkCreateComputePipelines create_compute_pipelines = nullptr;
  PFN_vkDestroyPipeline destroy_pipeline = nullptr;
  PFN_vkCreateDescriptorPool create_descriptor_pool = nullptr;
  PFN_vkDestroyDescriptorPool destroy_descriptor_pool = nullptr;
  PFN_vkAllocateDescriptorSets allocate_descriptor_sets = nullptr;
  PFN_vkUpdateDescriptorSets update_descriptor_sets = nullptr;
  PFN_vkCreateCommandPool create_command_pool = nullptr;
  PFN_vkDestroyCommandPool destroy_command_pool = nullptr;
  PFN_vkAllocateCommandBuffers allocate_command_buffers = nullptr;
  PFN_vkBeginCommandBuffer begin_command_buffer = nullptr;
  PFN_vkEndCommandBuffer end_command_buffer = nullptr;
  PFN_vkCmdBindPipeline cmd_bind_pipeline = nullptr;
  PFN_vkCmdBindDescriptorSets cmd_bind_descriptor_sets = nullptr;
  PFN_vkCmdPushConstants cmd_push_constants = nullptr;
  PFN_vkCmdDispatch cmd_dispatch = nullptr;
  PFN_vkCmdCopyBuffer cmd_copy_buffer = nullptr;
  PFN_vkCmdResetQueryPool cmd_reset_query_pool = nullptr;
  PFN_vkCmdWriteTimestamp cmd_write_timestamp = nullptr;
  PFN_vkCreateQueryPool create_query_pool = nullptr;
  PFN_vkDestroyQueryPool destroy_query_pool = nullptr;
  PFN_vkGetQueryPoolResults get_query_pool_results = nullptr;
  PFN_vkQueueSubmit queue_submit = nullptr;
  PFN_vkQueueWaitIdle queue_wait_idle = nullptr;

  /// Every entry point from `get` (vkGetDeviceProcAddr for `device`), or the first one missing.
  std::optional<std::string> load(PFN_vkGetDeviceProcAddr get, VkDevice device) {
    std::optional<std::string> missing;
    auto need = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(get(device, name));
      if (fn == nullptr && !missing) missing = name;
    };
    need(get_device_queue, "vkGetDeviceQueue");
    need(destroy_device, "vkDestroyDevice");
    need(create_buffer, "vkCreateBuffer");
    need(destroy_buffer, "vkDestroyBuffer");
    need(get_buffer_memory_requirements, "vkGetBufferMemoryRequirements");
    need(allocate_memory, "vkAllocateMemory");
    need(free_memory, "vkFreeMemory");
    need(bind_buffer_memory, "vkBindBufferMemory");
    need(map_memory, "vkMapMemory");
    need(unmap_memory, "vkUnmapMemory");
    need(create_shader_module, "vkCreateShaderModule");
    need(destroy_shader_module, "vkDestroyShaderModule");
    need(create_descriptor_set_layout, "vkCreateDescriptorSetLayout");
    need(destroy_descriptor_set_layout, "vkDestroyDescriptorSetLayout");
    need(create_pipeline_layout, "vkCreatePipelineLayout");
    need(destroy_pipeline_layout, "vkDestroyPipelineLayout");
    need(create_compute_pipelines, "vkCreateComputePipelines");
    need(destroy_pipeline, "vkDestroyPipeline");
    need(create_descriptor_pool, "vkCreateDescriptorPool");
    need(destroy_descriptor_pool, "vkDestroyDescriptorPool");
    need(allocate_descriptor_sets, "vkAllocateDescriptorSets");
    need(update_descriptor_sets, "vkUpdateDescriptorSets");
    need(create_command_pool, "vkCreateCommandPool");
    need(destroy_command_pool, "vkDestroyCommandPool");
    need(allocate_command_buffers, "vkAllocateCommandBuffers");
    need(begin_command_buffer, "vkBeginCommandBuffer");
    need(end_command_buffer, "vkEndCommandBuffer");
    need(cmd_bind_pipeline, "vkCmdBindPipeline");
    need(cmd_bind_descriptor_sets, "vkCmdBindDescriptorSets");
    need(cmd_push_constants, "vkCmdPushConstants");
    need(cmd_dispatch, "vkCmdDispatch");
    need(cmd_copy_buffer, "vkCmdCopyBuffer");
    need(cmd_reset_query_pool, "vkCmdResetQueryPool");
    need(cmd_write_timestamp, "vkCmdWriteTimestamp");
    need(create_query_pool, "vkCreateQueryPool");
    need(destroy_query_pool, "vkDestroyQueryPool");
    need(get_query_pool_results, "vkGetQueryPoolResults");
    need(queue_submit, "vkQueueSubmit");
    need(queue_wait_idle, "vkQueueWaitIdle");
    // Only the texel-buffer matmul (CPU devices) needs these; without them it is not chosen.
    create_buffer_view =
        reinterpret_cast<PFN_vkCreateBufferView>(get(device, "vkCreateBufferView"));
    destroy_buffer_view =
        reinterpret_cast<PFN_vkDestroyBufferView>(get(device, "vkDestroyBufferView"));
    return missing;
  }
};

}  // namespace gpudoctor::vulkan
