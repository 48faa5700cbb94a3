/* A Vulkan driver with one sane device that "runs" compute shaders, for the smoke matmul's
 * fault-injection tests. Whatever the shader, a submitted dispatch computes C = A·B from what
 * gpudoctor's matmul binds (storage buffers 0, 1, 2 = A, B, C; push constants n, ld), and a
 * submitted vkCmdCopyBuffer copies; then it misbehaves as FAKE_MODE says:
 *   FAKE_MODE_WRONG_RESULT  one entry of C off by 0.25, at row 3, column 5
 *   FAKE_MODE_KERNEL_CRASH  segfaults in vkQueueSubmit (a driver dying mid-kernel)
 * Dispatchable handles begin with the loader's data slot (vulkan/vk_icd.h); every other handle
 * is a pointer to one of the structs below. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

#define FAKE_MODE_WRONG_RESULT 1
#define FAKE_MODE_KERNEL_CRASH 2
#ifndef FAKE_MODE
#error "define FAKE_MODE"
#endif

#define EXPORT __attribute__((visibility("default")))
#define UNUSED(x) (void)(x)

typedef struct {
  VK_LOADER_DATA loader_data;
} Dispatchable;

typedef struct {
  void* data; /* VkDeviceMemory */
} Memory;

typedef struct {
  Memory* memory; /* VkBuffer */
} Buffer;

typedef struct {
  Buffer* bindings[3]; /* VkDescriptorSet */
} DescriptorSet;

typedef struct {
  Buffer* from;
  Buffer* to;
  VkDeviceSize bytes;
} Copy;

static Copy g_copy; /* the command buffer's vkCmdCopyBuffer, if it holds one */
static Dispatchable g_instance, g_physical, g_device, g_queue, g_commands;
static DescriptorSet* g_bound;   /* what the recorded command buffer binds */
static int32_t g_push[2];        /* n, ld */
static DescriptorSet g_set;
static int g_handle;             /* the address of something, for handles that hold nothing */

static void* new_handle(void) { return &g_handle; }

static VKAPI_ATTR VkResult VKAPI_CALL create_instance(const VkInstanceCreateInfo* info,
                                                      const VkAllocationCallbacks* alloc,
                                                      VkInstance* instance) {
  UNUSED(info), UNUSED(alloc);
  set_loader_magic_value(&g_instance);
  *instance = (VkInstance)&g_instance;
  return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL destroy_instance(VkInstance i, const VkAllocationCallbacks* a) {
  UNUSED(i), UNUSED(a);
}

static VKAPI_ATTR VkResult VKAPI_CALL enumerate_extensions(const char* layer, uint32_t* count,
                                                           VkExtensionProperties* props) {
  UNUSED(layer), UNUSED(props);
  *count = 0;
  return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL enumerate_device_extensions(VkPhysicalDevice d,
                                                                  const char* layer,
                                                                  uint32_t* count,
                                                                  VkExtensionProperties* props) {
  UNUSED(d);
  return enumerate_extensions(layer, count, props);
}

static VKAPI_ATTR VkResult VKAPI_CALL enumerate_physical_devices(VkInstance i, uint32_t* count,
                                                                 VkPhysicalDevice* devices) {
  UNUSED(i);
  if (devices != NULL && *count >= 1) {
    set_loader_magic_value(&g_physical);
    devices[0] = (VkPhysicalDevice)&g_physical;
  }
  *count = 1;
  return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL get_properties(VkPhysicalDevice d,
                                                 VkPhysicalDeviceProperties* props) {
  UNUSED(d);
  memset(props, 0, sizeof *props);
  props->apiVersion = VK_API_VERSION_1_0;
  props->vendorID = 0x10005; /* VK_VENDOR_ID_MESA: no PCI vendor */
  props->deviceType = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  strcpy(props->deviceName, "fake compute device");
  props->limits.maxComputeWorkGroupInvocations = 1024;
  props->limits.maxComputeSharedMemorySize = 32768;
  props->limits.maxComputeWorkGroupSize[0] = 1024;
  props->limits.maxComputeWorkGroupSize[1] = 1024;
  props->limits.maxComputeWorkGroupSize[2] = 64;
  for (int i = 0; i < 3; ++i) props->limits.maxComputeWorkGroupCount[i] = 65535;
  props->limits.maxStorageBufferRange = 1u << 30;
}

static VKAPI_ATTR void VKAPI_CALL get_features(VkPhysicalDevice d, VkPhysicalDeviceFeatures* f) {
  UNUSED(d);
  memset(f, 0, sizeof *f);
}

static VKAPI_ATTR void VKAPI_CALL get_memory(VkPhysicalDevice d,
                                             VkPhysicalDeviceMemoryProperties* props) {
  UNUSED(d);
  memset(props, 0, sizeof *props);
  props->memoryHeapCount = 1;
  props->memoryHeaps[0].size = 1ull << 32;
  props->memoryHeaps[0].flags = VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
  props->memoryTypeCount = 1;
  props->memoryTypes[0].propertyFlags = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
}

static VKAPI_ATTR void VKAPI_CALL get_queue_families(VkPhysicalDevice d, uint32_t* count,
                                                     VkQueueFamilyProperties* props) {
  UNUSED(d);
  if (props != NULL && *count >= 1) {
    memset(props, 0, sizeof *props);
    props->queueFlags = VK_QUEUE_COMPUTE_BIT;
    props->queueCount = 1;
  }
  *count = 1;
}

static VKAPI_ATTR void VKAPI_CALL get_format(VkPhysicalDevice d, VkFormat f,
                                             VkFormatProperties* props) {
  UNUSED(d), UNUSED(f);
  memset(props, 0, sizeof *props);
}

static VKAPI_ATTR VkResult VKAPI_CALL get_image_format(VkPhysicalDevice d, VkFormat f,
                                                       VkImageType t, VkImageTiling tiling,
                                                       VkImageUsageFlags u, VkImageCreateFlags c,
                                                       VkImageFormatProperties* props) {
  UNUSED(d), UNUSED(f), UNUSED(t), UNUSED(tiling), UNUSED(u), UNUSED(c), UNUSED(props);
  return VK_ERROR_FORMAT_NOT_SUPPORTED;
}

static VKAPI_ATTR void VKAPI_CALL get_sparse_format(VkPhysicalDevice d, VkFormat f,
                                                    VkImageType t, VkSampleCountFlagBits s,
                                                    VkImageUsageFlags u, VkImageTiling tiling,
                                                    uint32_t* count,
                                                    VkSparseImageFormatProperties* props) {
  UNUSED(d), UNUSED(f), UNUSED(t), UNUSED(s), UNUSED(u), UNUSED(tiling), UNUSED(props);
  *count = 0;
}

static VKAPI_ATTR VkResult VKAPI_CALL create_device(VkPhysicalDevice p,
                                                    const VkDeviceCreateInfo* info,
                                                    const VkAllocationCallbacks* alloc,
                                                    VkDevice* out) {
  UNUSED(p), UNUSED(info), UNUSED(alloc);
  set_loader_magic_value(&g_device);
  *out = (VkDevice)&g_device;
  return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL destroy_device(VkDevice d, const VkAllocationCallbacks* a) {
  UNUSED(d), UNUSED(a);
}

static VKAPI_ATTR void VKAPI_CALL get_queue(VkDevice d, uint32_t family, uint32_t index,
                                            VkQueue* q) {
  UNUSED(d), UNUSED(family), UNUSED(index);
  set_loader_magic_value(&g_queue);
  *q = (VkQueue)&g_queue;
}

static VKAPI_ATTR VkResult VKAPI_CALL create_buffer(VkDevice d, const VkBufferCreateInfo* info,
                                                    const VkAllocationCallbacks* a,
                                                    VkBuffer* out) {
  UNUSED(d), UNUSED(info), UNUSED(a);
  *out = (VkBuffer)calloc(1, sizeof(Buffer));
  return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL destroy_buffer(VkDevice d, VkBuffer b,
                                                 const VkAllocationCallbacks* a) {
  UNUSED(d), UNUSED(a);
  free((Buffer*)b);
}

static VKAPI_ATTR void VKAPI_CALL buffer_requirements(VkDevice d, VkBuffer b,
                                                      VkMemoryRequirements* req) {
  UNUSED(d), UNUSED(b);
  memset(req, 0, sizeof *req);
  req->size = 1u << 26; /* every buffer gets 64 MiB: enough for any smoke size */
  req->alignment = 64;
  req->memoryTypeBits = 1;
}

static VKAPI_ATTR VkResult VKAPI_CALL allocate_memory(VkDevice d,
                                                      const VkMemoryAllocateInfo* info,
                                                      const VkAllocationCallbacks* a,
                                                      VkDeviceMemory* out) {
  Memory* m = calloc(1, sizeof *m);
  UNUSED(d), UNUSED(a);
  m->data = calloc(1, info->allocationSize);
  *out = (VkDeviceMemory)m;
  return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL free_memory(VkDevice d, VkDeviceMemory m,
                                              const VkAllocationCallbacks* a) {
  UNUSED(d), UNUSED(a);
  if (m == VK_NULL_HANDLE) return;
  free(((Memory*)m)->data);
  free((Memory*)m);
}

static VKAPI_ATTR VkResult VKAPI_CALL bind_memory(VkDevice d, VkBuffer b, VkDeviceMemory m,
                                                  VkDeviceSize offset) {
  UNUSED(d), UNUSED(offset);
  ((Buffer*)b)->memory = (Memory*)m;
  return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL map_memory(VkDevice d, VkDeviceMemory m, VkDeviceSize off,
                                                 VkDeviceSize size, VkMemoryMapFlags flags,
                                                 void** out) {
  UNUSED(d), UNUSED(size), UNUSED(flags);
  *out = (char*)((Memory*)m)->data + off;
  return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL unmap_memory(VkDevice d, VkDeviceMemory m) {
  UNUSED(d), UNUSED(m);
}

/* Objects that hold nothing here: shader modules, layouts, pipelines, pools, query pools. */
static VKAPI_ATTR VkResult VKAPI_CALL create_nothing(VkDevice d, const void* info,
                                                     const VkAllocationCallbacks* a,
                                                     uint64_t* out) {
  UNUSED(d), UNUSED(info), UNUSED(a);
  *out = (uint64_t)(uintptr_t)new_handle();
  return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL destroy_nothing(VkDevice d, uint64_t h,
                                                  const VkAllocationCallbacks* a) {
  UNUSED(d), UNUSED(h), UNUSED(a);
}

static VKAPI_ATTR VkResult VKAPI_CALL create_pipelines(VkDevice d, VkPipelineCache c,
                                                       uint32_t n,
                                                       const VkComputePipelineCreateInfo* info,
                                                       const VkAllocationCallbacks* a,
                                                       VkPipeline* out) {
  UNUSED(d), UNUSED(c), UNUSED(info), UNUSED(a);
  for (uint32_t i = 0; i < n; ++i) out[i] = (VkPipeline)new_handle();
  return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL allocate_sets(VkDevice d,
                                                    const VkDescriptorSetAllocateInfo* info,
                                                    VkDescriptorSet* out) {
  UNUSED(d), UNUSED(info);
  *out = (VkDescriptorSet)&g_set;
  return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL update_sets(VkDevice d, uint32_t n,
                                              const VkWriteDescriptorSet* writes, uint32_t copies,
                                              const VkCopyDescriptorSet* c) {
  UNUSED(d), UNUSED(copies), UNUSED(c);
  for (uint32_t i = 0; i < n; ++i) {
    DescriptorSet* set = (DescriptorSet*)writes[i].dstSet;
    if (writes[i].dstBinding < 3) {
      set->bindings[writes[i].dstBinding] = (Buffer*)writes[i].pBufferInfo[0].buffer;
    }
  }
}

static VKAPI_ATTR VkResult VKAPI_CALL allocate_commands(VkDevice d,
                                                        const VkCommandBufferAllocateInfo* info,
                                                        VkCommandBuffer* out) {
  UNUSED(d), UNUSED(info);
  set_loader_magic_value(&g_commands);
  *out = (VkCommandBuffer)&g_commands;
  return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL begin_commands(VkCommandBuffer c,
                                                     const VkCommandBufferBeginInfo* info) {
  UNUSED(c), UNUSED(info);
  memset(&g_copy, 0, sizeof g_copy);
  return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL end_commands(VkCommandBuffer c) {
  UNUSED(c);
  return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL bind_pipeline(VkCommandBuffer c, VkPipelineBindPoint p,
                                                VkPipeline pipeline) {
  UNUSED(c), UNUSED(p), UNUSED(pipeline);
}

static VKAPI_ATTR void VKAPI_CALL bind_sets(VkCommandBuffer c, VkPipelineBindPoint p,
                                            VkPipelineLayout l, uint32_t first, uint32_t n,
                                            const VkDescriptorSet* sets, uint32_t dn,
                                            const uint32_t* offsets) {
  UNUSED(c), UNUSED(p), UNUSED(l), UNUSED(first), UNUSED(n), UNUSED(dn), UNUSED(offsets);
  g_bound = (DescriptorSet*)sets[0];
}

static VKAPI_ATTR void VKAPI_CALL push_constants(VkCommandBuffer c, VkPipelineLayout l,
                                                 VkShaderStageFlags s, uint32_t offset,
                                                 uint32_t size, const void* values) {
  UNUSED(c), UNUSED(l), UNUSED(s);
  if (offset + size <= sizeof g_push) memcpy((char*)g_push + offset, values, size);
}

static VKAPI_ATTR void VKAPI_CALL dispatch(VkCommandBuffer c, uint32_t x, uint32_t y,
                                           uint32_t z) {
  UNUSED(c), UNUSED(x), UNUSED(y), UNUSED(z);
}

static VKAPI_ATTR void VKAPI_CALL copy_buffer(VkCommandBuffer c, VkBuffer from, VkBuffer to,
                                              uint32_t n, const VkBufferCopy* regions) {
  UNUSED(c);
  if (n < 1) return;
  g_copy.from = (Buffer*)from;
  g_copy.to = (Buffer*)to;
  g_copy.bytes = regions[0].size;
}

static VKAPI_ATTR void VKAPI_CALL reset_queries(VkCommandBuffer c, VkQueryPool p, uint32_t first,
                                                uint32_t n) {
  UNUSED(c), UNUSED(p), UNUSED(first), UNUSED(n);
}

static VKAPI_ATTR void VKAPI_CALL write_timestamp(VkCommandBuffer c, VkPipelineStageFlagBits s,
                                                  VkQueryPool p, uint32_t q) {
  UNUSED(c), UNUSED(s), UNUSED(p), UNUSED(q);
}

static VKAPI_ATTR VkResult VKAPI_CALL query_results(VkDevice d, VkQueryPool p, uint32_t first,
                                                    uint32_t n, size_t size, void* data,
                                                    VkDeviceSize stride,
                                                    VkQueryResultFlags flags) {
  UNUSED(d), UNUSED(p), UNUSED(first), UNUSED(n), UNUSED(size), UNUSED(data), UNUSED(stride),
      UNUSED(flags);
  return VK_NOT_READY;
}

/* The matmul gpudoctor asked for, from the bound buffers and the push constants. */
static void run_matmul(void) {
  const int32_t n = g_push[0], ld = g_push[1];
  const float* a = g_bound->bindings[0]->memory->data;
  const float* b = g_bound->bindings[1]->memory->data;
  float* c = g_bound->bindings[2]->memory->data;
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int32_t k = 0; k < n; ++k) acc += a[i * ld + k] * b[k * ld + j];
      c[i * ld + j] = acc;
    }
  }
#if FAKE_MODE == FAKE_MODE_WRONG_RESULT
  c[3 * ld + 5] += 0.25f;
#endif
}

static VKAPI_ATTR VkResult VKAPI_CALL queue_submit(VkQueue q, uint32_t n,
                                                   const VkSubmitInfo* submits, VkFence fence) {
  UNUSED(q), UNUSED(n), UNUSED(submits), UNUSED(fence);
#if FAKE_MODE == FAKE_MODE_KERNEL_CRASH
  volatile int* volatile nowhere = NULL;
  *nowhere = 42;
#endif
  if (g_copy.from != NULL) {
    memcpy(g_copy.to->memory->data, g_copy.from->memory->data, g_copy.bytes);
  } else {
    run_matmul();
  }
  return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL queue_wait_idle(VkQueue q) {
  UNUSED(q);
  return VK_SUCCESS;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_instance_proc_addr(VkInstance i,
                                                                       const char* name);
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_device_proc_addr(VkDevice d,
                                                                     const char* name);

static const struct {
  const char* name;
  PFN_vkVoidFunction fn;
} kEntryPoints[] = {
    {"vkGetInstanceProcAddr", (PFN_vkVoidFunction)get_instance_proc_addr},
    {"vkGetDeviceProcAddr", (PFN_vkVoidFunction)get_device_proc_addr},
    {"vkCreateInstance", (PFN_vkVoidFunction)create_instance},
    {"vkDestroyInstance", (PFN_vkVoidFunction)destroy_instance},
    {"vkEnumerateInstanceExtensionProperties", (PFN_vkVoidFunction)enumerate_extensions},
    {"vkEnumerateDeviceExtensionProperties", (PFN_vkVoidFunction)enumerate_device_extensions},
    {"vkEnumeratePhysicalDevices", (PFN_vkVoidFunction)enumerate_physical_devices},
    {"vkGetPhysicalDeviceProperties", (PFN_vkVoidFunction)get_properties},
    {"vkGetPhysicalDeviceFeatures", (PFN_vkVoidFunction)get_features},
    {"vkGetPhysicalDeviceMemoryProperties", (PFN_vkVoidFunction)get_memory},
    {"vkGetPhysicalDeviceQueueFamilyProperties", (PFN_vkVoidFunction)get_queue_families},
    {"vkGetPhysicalDeviceFormatProperties", (PFN_vkVoidFunction)get_format},
    {"vkGetPhysicalDeviceImageFormatProperties", (PFN_vkVoidFunction)get_image_format},
    {"vkGetPhysicalDeviceSparseImageFormatProperties", (PFN_vkVoidFunction)get_sparse_format},
    {"vkCreateDevice", (PFN_vkVoidFunction)create_device},
    {"vkDestroyDevice", (PFN_vkVoidFunction)destroy_device},
    {"vkGetDeviceQueue", (PFN_vkVoidFunction)get_queue},
    {"vkCreateBuffer", (PFN_vkVoidFunction)create_buffer},
    {"vkDestroyBuffer", (PFN_vkVoidFunction)destroy_buffer},
    {"vkGetBufferMemoryRequirements", (PFN_vkVoidFunction)buffer_requirements},
    {"vkAllocateMemory", (PFN_vkVoidFunction)allocate_memory},
    {"vkFreeMemory", (PFN_vkVoidFunction)free_memory},
    {"vkBindBufferMemory", (PFN_vkVoidFunction)bind_memory},
    {"vkMapMemory", (PFN_vkVoidFunction)map_memory},
    {"vkUnmapMemory", (PFN_vkVoidFunction)unmap_memory},
    {"vkCreateShaderModule", (PFN_vkVoidFunction)create_nothing},
    {"vkDestroyShaderModule", (PFN_vkVoidFunction)destroy_nothing},
    {"vkCreateDescriptorSetLayout", (PFN_vkVoidFunction)create_nothing},
    {"vkDestroyDescriptorSetLayout", (PFN_vkVoidFunction)destroy_nothing},
    {"vkCreatePipelineLayout", (PFN_vkVoidFunction)create_nothing},
    {"vkDestroyPipelineLayout", (PFN_vkVoidFunction)destroy_nothing},
    {"vkCreateComputePipelines", (PFN_vkVoidFunction)create_pipelines},
    {"vkDestroyPipeline", (PFN_vkVoidFunction)destroy_nothing},
    {"vkCreateDescriptorPool", (PFN_vkVoidFunction)create_nothing},
    {"vkDestroyDescriptorPool", (PFN_vkVoidFunction)destroy_nothing},
    {"vkAllocateDescriptorSets", (PFN_vkVoidFunction)allocate_sets},
    {"vkUpdateDescriptorSets", (PFN_vkVoidFunction)update_sets},
    {"vkCreateCommandPool", (PFN_vkVoidFunction)create_nothing},
    {"vkDestroyCommandPool", (PFN_vkVoidFunction)destroy_nothing},
    {"vkAllocateCommandBuffers", (PFN_vkVoidFunction)allocate_commands},
    {"vkBeginCommandBuffer", (PFN_vkVoidFunction)begin_commands},
    {"vkEndCommandBuffer", (PFN_vkVoidFunction)end_commands},
    {"vkCmdBindPipeline", (PFN_vkVoidFunction)bind_pipeline},
    {"vkCmdBindDescriptorSets", (PFN_vkVoidFunction)bind_sets},
    {"vkCmdPushConstants", (PFN_vkVoidFunction)push_constants},
    {"vkCmdDispatch", (PFN_vkVoidFunction)dispatch},
    {"vkCmdCopyBuffer", (PFN_vkVoidFunction)copy_buffer},
    {"vkCmdResetQueryPool", (PFN_vkVoidFunction)reset_queries},
    {"vkCmdWriteTimestamp", (PFN_vkVoidFunction)write_timestamp},
    {"vkCreateQueryPool", (PFN_vkVoidFunction)create_nothing},
    {"vkDestroyQueryPool", (PFN_vkVoidFunction)destroy_nothing},
    {"vkGetQueryPoolResults", (PFN_vkVoidFunction)query_results},
    {"vkQueueSubmit", (PFN_vkVoidFunction)queue_submit},
    {"vkQueueWaitIdle", (PFN_vkVoidFunction)queue_wait_idle},
};

static PFN_vkVoidFunction lookup(const char* name) {
  for (size_t i = 0; i < sizeof kEntryPoints / sizeof kEntryPoints[0]; ++i) {
    if (strcmp(name, kEntryPoints[i].name) == 0) return kEntryPoints[i].fn;
  }
  return NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_instance_proc_addr(VkInstance i,
                                                                       const char* name) {
  UNUSED(i);
  return lookup(name);
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_device_proc_addr(VkDevice d,
                                                                     const char* name) {
  UNUSED(d);
  return lookup(name);
}

EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t* version) {
  if (*version > 5) *version = 5;
  return VK_SUCCESS;
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                          const char* name) {
  return get_instance_proc_addr(instance, name);
}
