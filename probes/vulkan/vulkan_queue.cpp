#include "vulkan/vulkan_queue.hpp"

#include <algorithm>
#include <vector>

#include "api/vulkan/vulkan_names.hpp"

namespace gpudoctor::vulkan {

std::optional<std::uint32_t> pick_memory_type(const VkPhysicalDeviceMemoryProperties& mem,
                                              std::uint32_t allowed, VkMemoryPropertyFlags required,
                                              VkMemoryPropertyFlags preferred) {
  std::optional<std::uint32_t> found;
  for (std::uint32_t i = 0; i < mem.memoryTypeCount && i < VK_MAX_MEMORY_TYPES; ++i) {
    if ((allowed & (1u << i)) == 0) continue;
    const VkMemoryPropertyFlags f = mem.memoryTypes[i].propertyFlags;
    if ((f & required) != required) continue;
    if ((f & preferred) == preferred) return i;
    if (!found) found = i;
  }
  return found;
}

VulkanQueue::VulkanQueue(const VulkanApi& api, VkInstance instance, VkPhysicalDevice physical)
    : api_(api), physical_(physical) {
  setup(instance);
}

VulkanQueue::~VulkanQueue() {
  if (device_ == VK_NULL_HANDLE) return;
  if (queries_ != VK_NULL_HANDLE) dev_.destroy_query_pool(device_, queries_, nullptr);
  if (command_pool_ != VK_NULL_HANDLE) dev_.destroy_command_pool(device_, command_pool_, nullptr);
  if (dev_.destroy_device != nullptr) dev_.destroy_device(device_, nullptr);
}

void VulkanQueue::setup(VkInstance instance) {
  auto create_device =
      reinterpret_cast<PFN_vkCreateDevice>(api_.get_instance_proc_addr(instance, "vkCreateDevice"));
  auto get_device_proc = reinterpret_cast<PFN_vkGetDeviceProcAddr>(
      api_.get_instance_proc_addr(instance, "vkGetDeviceProcAddr"));
  if (create_device == nullptr || get_device_proc == nullptr) {
    problem_ = {true, "the loader gives no vkCreateDevice or vkGetDeviceProcAddr"};
    return;
  }
  if (!pick_family()) return;
  api_.get_physical_device_memory_properties(physical_, &memory_);
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  if (VkResult r = create_device(physical_, &device_info, nullptr, &device_); r != VK_SUCCESS) {
    device_ = VK_NULL_HANDLE;
    problem_ = {false, vk_call_failed("vkCreateDevice", r)};
    return;
  }
  if (auto missing = dev_.load(get_device_proc, device_)) {
    problem_ = {false, "the driver gives no " + *missing};
    return;
  }
  dev_.get_device_queue(device_, family_, 0, &queue_);
  make_commands();
}

bool VulkanQueue::pick_family() {
  std::uint32_t count = 0;
  api_.get_physical_device_queue_family_properties(physical_, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(std::min<std::uint32_t>(count, 64));
  count = static_cast<std::uint32_t>(families.size());
  api_.get_physical_device_queue_family_properties(physical_, &count, families.data());
  const auto end = families.begin() + std::min<std::size_t>(count, families.size());
  auto compute = std::find_if(families.begin(), end, [](const VkQueueFamilyProperties& f) {
    return (f.queueFlags & VK_QUEUE_COMPUTE_BIT) != 0 && f.queueCount > 0;
  });
  if (compute == end) {
    problem_ = {true, "no queue family of the device can run compute shaders"};
    return false;
  }
  family_ = static_cast<std::uint32_t>(compute - families.begin());
  VkPhysicalDeviceProperties props{};
  api_.get_physical_device_properties(physical_, &props);
  if (compute->timestampValidBits > 0 && props.limits.timestampPeriod > 0) {
    timestamp_ns_ = static_cast<double>(props.limits.timestampPeriod);
  }
  return true;
}

bool VulkanQueue::make_commands() {
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = family_;
  if (VkResult r = dev_.create_command_pool(device_, &pool_info, nullptr, &command_pool_);
      r != VK_SUCCESS) {
    command_pool_ = VK_NULL_HANDLE;
    problem_ = {false, vk_call_failed("vkCreateCommandPool", r)};
    return false;
  }
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = command_pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  if (VkResult r = dev_.allocate_command_buffers(device_, &alloc, &commands_); r != VK_SUCCESS) {
    problem_ = {false, vk_call_failed("vkAllocateCommandBuffers", r)};
    return false;
  }
  if (timestamp_ns_) {
    VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = 2;
    if (dev_.create_query_pool(device_, &query_info, nullptr, &queries_) != VK_SUCCESS) {
      queries_ = VK_NULL_HANDLE;
      timestamp_ns_.reset();  // callers time with the CPU clock instead
    }
  }
  return true;
}

std::optional<std::string> VulkanQueue::record(
    const std::function<void(VkCommandBuffer)>& body) const {
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  if (VkResult r = dev_.begin_command_buffer(commands_, &begin); r != VK_SUCCESS) {
    return vk_call_failed("vkBeginCommandBuffer", r);
  }
  body(commands_);
  if (VkResult r = dev_.end_command_buffer(commands_); r != VK_SUCCESS) {
    return vk_call_failed("vkEndCommandBuffer", r);
  }
  return std::nullopt;
}

std::optional<std::string> VulkanQueue::submit_and_wait() const {
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands_;
  if (VkResult r = dev_.queue_submit(queue_, 1, &submit, VK_NULL_HANDLE); r != VK_SUCCESS) {
    return vk_call_failed("vkQueueSubmit", r);
  }
  if (VkResult r = dev_.queue_wait_idle(queue_); r != VK_SUCCESS) {
    return vk_call_failed("vkQueueWaitIdle", r);
  }
  return std::nullopt;
}

VulkanBuffer::~VulkanBuffer() {
  const VulkanComputeApi& dev = q_.dev();
  if (mapped_ != nullptr) dev.unmap_memory(q_.device(), memory_);
  if (buffer_ != VK_NULL_HANDLE) dev.destroy_buffer(q_.device(), buffer_, nullptr);
  if (memory_ != VK_NULL_HANDLE) dev.free_memory(q_.device(), memory_, nullptr);
}

std::optional<std::string> VulkanBuffer::make(VkDeviceSize bytes, VkBufferUsageFlags usage,
                                              VkMemoryPropertyFlags required,
                                              VkMemoryPropertyFlags preferred) {
  const VulkanComputeApi& dev = q_.dev();
  const VkDevice device = q_.device();
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = bytes;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (VkResult r = dev.create_buffer(device, &info, nullptr, &buffer_); r != VK_SUCCESS) {
    buffer_ = VK_NULL_HANDLE;
    return vk_call_failed("vkCreateBuffer", r);
  }
  VkMemoryRequirements req{};
  dev.get_buffer_memory_requirements(device, buffer_, &req);
  const auto type = pick_memory_type(q_.memory(), req.memoryTypeBits, required, preferred);
  if (!type) {
    return std::string((required & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0
                           ? "no host-visible, host-coherent memory type can hold this buffer"
                           : "no memory type can hold this buffer");
  }
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = *type;
  if (VkResult r = dev.allocate_memory(device, &alloc, nullptr, &memory_); r != VK_SUCCESS) {
    memory_ = VK_NULL_HANDLE;
    return vk_call_failed("vkAllocateMemory", r);
  }
  if (VkResult r = dev.bind_buffer_memory(device, buffer_, memory_, 0); r != VK_SUCCESS) {
    return vk_call_failed("vkBindBufferMemory", r);
  }
  const VkMemoryPropertyFlags flags = q_.memory().memoryTypes[*type].propertyFlags;
  if ((flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) == 0) return std::nullopt;
  if (VkResult r = dev.map_memory(device, memory_, 0, bytes, 0, &mapped_); r != VK_SUCCESS) {
    mapped_ = nullptr;
    return vk_call_failed("vkMapMemory", r);
  }
  return std::nullopt;
}

}  // namespace gpudoctor::vulkan
