/* A Vulkan driver (ICD) that misbehaves, for the fault-injection tests. The real loader loads it
 * through its manifest, like any driver: it negotiates the loader interface, creates an instance
 * and then, in vkEnumeratePhysicalDevices or after it, does what FAKE_MODE says:
 *
 *   FAKE_MODE_CRASH    segfaults in vkEnumeratePhysicalDevices
 *   FAKE_MODE_HANG     never returns from vkEnumeratePhysicalDevices
 *   FAKE_MODE_ABORT    calls abort() (SIGABRT) in vkEnumeratePhysicalDevices
 *   FAKE_MODE_SIGKILL_PARENT  sends SIGKILL to its parent (gpudoctor), then finds no device
 *   FAKE_MODE_GARBAGE  claims 1000 devices, each with an unterminated name of invalid UTF-8 and
 *                      control characters, an undefined device type, non-boolean feature values,
 *                      too many memory heaps and types and a million queue families
 *
 * Only what the loader needs is here (see vulkan/vk_icd.h and the Vulkan-Tools mock ICD):
 * vk_icdNegotiateLoaderICDInterfaceVersion, vk_icdGetInstanceProcAddr, and dispatchable
 * handles that begin with the loader's data slot. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

#define FAKE_MODE_CRASH 1
#define FAKE_MODE_HANG 2
#define FAKE_MODE_GARBAGE 3
#define FAKE_MODE_ABORT 4
#define FAKE_MODE_SIGKILL_PARENT 5  /* kill(getppid(), SIGKILL), then no device (../attack.h) */

#ifndef FAKE_MODE
#error "define FAKE_MODE"
#endif

#if FAKE_MODE == FAKE_MODE_SIGKILL_PARENT
#define FAKE_ATTACK FAKE_ATTACK_SIGKILL_PARENT
#include "attack.h"
#endif

#define EXPORT __attribute__((visibility("default")))
#define GARBAGE_DEVICES 1000u

/* Dispatchable objects: the loader writes its dispatch pointer into the first word. */
typedef struct {
  VK_LOADER_DATA loader_data;
} FakeObject;

static FakeObject g_instance;
#if FAKE_MODE == FAKE_MODE_GARBAGE
static FakeObject g_devices[GARBAGE_DEVICES];
#endif

static VKAPI_ATTR VkResult VKAPI_CALL fake_create_instance(const VkInstanceCreateInfo* info,
                                                           const VkAllocationCallbacks* alloc,
                                                           VkInstance* instance) {
  (void)info;
  (void)alloc;
  set_loader_magic_value(&g_instance);
  *instance = (VkInstance)&g_instance;
  return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL fake_destroy_instance(VkInstance instance,
                                                        const VkAllocationCallbacks* alloc) {
  (void)instance;
  (void)alloc;
}

static VKAPI_ATTR VkResult VKAPI_CALL fake_enumerate_instance_extension_properties(
    const char* layer, uint32_t* count, VkExtensionProperties* props) {
  (void)layer;
  (void)props;
  *count = 0;
  return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL fake_enumerate_physical_devices(VkInstance instance,
                                                                      uint32_t* count,
                                                                      VkPhysicalDevice* devices) {
  (void)instance;
#if FAKE_MODE == FAKE_MODE_CRASH
  (void)count;
  (void)devices;
  volatile int* volatile nowhere = NULL;
  *nowhere = 42;
  return VK_SUCCESS;
#elif FAKE_MODE == FAKE_MODE_HANG
  (void)count;
  (void)devices;
  for (;;) pause();
  return VK_TIMEOUT;
#elif FAKE_MODE == FAKE_MODE_ABORT
  (void)count;
  (void)devices;
  abort();
#elif FAKE_MODE == FAKE_MODE_SIGKILL_PARENT
  (void)devices;
  fake_attack();
  *count = 0;
  return VK_SUCCESS;
#else
  if (devices == NULL) {
    *count = GARBAGE_DEVICES;
    return VK_SUCCESS;
  }
  uint32_t n = *count < GARBAGE_DEVICES ? *count : GARBAGE_DEVICES;
  for (uint32_t i = 0; i < n; ++i) {
    set_loader_magic_value(&g_devices[i]);
    devices[i] = (VkPhysicalDevice)&g_devices[i];
  }
  *count = n;
  return n < GARBAGE_DEVICES ? VK_INCOMPLETE : VK_SUCCESS;
#endif
}

static VKAPI_ATTR void VKAPI_CALL
fake_get_physical_device_properties(VkPhysicalDevice device, VkPhysicalDeviceProperties* props) {
  (void)device;
  memset(props, 0x5A, sizeof *props);
  props->apiVersion = VK_API_VERSION_1_0;
  props->driverVersion = 0xFFFFFFFFu;
  props->vendorID = 0xFFFFFFFFu;
  props->deviceID = 0xFFFFFFFFu;
  props->deviceType = (VkPhysicalDeviceType)0x7FFFFFF0;
  for (size_t i = 0; i < sizeof props->deviceName; ++i) {
    /* "\xff\xfe" is never UTF-8; ESC and BEL are terminal controls. */
    static const char kGarbage[] = {'\xff', '\xfe', '\x1b', '[', '2', 'J', '\x07', 'A'};
    props->deviceName[i] = kGarbage[i % sizeof kGarbage];
  }
}

static VKAPI_ATTR void VKAPI_CALL
fake_get_physical_device_features(VkPhysicalDevice device, VkPhysicalDeviceFeatures* features) {
  (void)device;
  memset(features, 0xAB, sizeof *features);
}

static VKAPI_ATTR void VKAPI_CALL fake_get_physical_device_memory_properties(
    VkPhysicalDevice device, VkPhysicalDeviceMemoryProperties* props) {
  (void)device;
  memset(props, 0xCD, sizeof *props);
  props->memoryHeapCount = 1000;
  props->memoryTypeCount = 1000;
}

static VKAPI_ATTR void VKAPI_CALL fake_get_physical_device_queue_family_properties(
    VkPhysicalDevice device, uint32_t* count, VkQueueFamilyProperties* props) {
  (void)device;
  if (props == NULL) {
    *count = 1000000;
    return;
  }
  for (uint32_t i = 0; i < *count; ++i) {
    memset(&props[i], 0xEE, sizeof props[i]);
  }
}

static VKAPI_ATTR VkResult VKAPI_CALL fake_enumerate_device_extension_properties(
    VkPhysicalDevice device, const char* layer, uint32_t* count, VkExtensionProperties* props) {
  (void)device;
  (void)layer;
  if (props == NULL) {
    *count = 1;
    return VK_SUCCESS;
  }
  if (*count < 1) return VK_INCOMPLETE;
  memset(props[0].extensionName, 'X', sizeof props[0].extensionName); /* unterminated */
  props[0].specVersion = 1;
  *count = 1;
  return VK_SUCCESS;
}

/* The loader refuses a driver without these; nothing here calls them. */
static VKAPI_ATTR void VKAPI_CALL fake_get_physical_device_format_properties(
    VkPhysicalDevice device, VkFormat format, VkFormatProperties* props) {
  (void)device;
  (void)format;
  memset(props, 0, sizeof *props);
}

static VKAPI_ATTR VkResult VKAPI_CALL fake_get_physical_device_image_format_properties(
    VkPhysicalDevice device, VkFormat format, VkImageType type, VkImageTiling tiling,
    VkImageUsageFlags usage, VkImageCreateFlags flags, VkImageFormatProperties* props) {
  (void)device, (void)format, (void)type, (void)tiling, (void)usage, (void)flags, (void)props;
  return VK_ERROR_FORMAT_NOT_SUPPORTED;
}

static VKAPI_ATTR void VKAPI_CALL fake_get_physical_device_sparse_image_format_properties(
    VkPhysicalDevice device, VkFormat format, VkImageType type, VkSampleCountFlagBits samples,
    VkImageUsageFlags usage, VkImageTiling tiling, uint32_t* count,
    VkSparseImageFormatProperties* props) {
  (void)device, (void)format, (void)type, (void)samples, (void)usage, (void)tiling, (void)props;
  *count = 0;
}

static VKAPI_ATTR VkResult VKAPI_CALL fake_create_device(VkPhysicalDevice device,
                                                         const VkDeviceCreateInfo* info,
                                                         const VkAllocationCallbacks* alloc,
                                                         VkDevice* out) {
  (void)device, (void)info, (void)alloc, (void)out;
  return VK_ERROR_INITIALIZATION_FAILED;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL fake_get_device_proc_addr(VkDevice device,
                                                                          const char* name) {
  (void)device, (void)name;
  return NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL fake_get_instance_proc_addr(VkInstance instance,
                                                                            const char* name);

static const struct {
  const char* name;
  PFN_vkVoidFunction fn;
} kEntryPoints[] = {
    {"vkGetInstanceProcAddr", (PFN_vkVoidFunction)fake_get_instance_proc_addr},
    {"vkCreateInstance", (PFN_vkVoidFunction)fake_create_instance},
    {"vkDestroyInstance", (PFN_vkVoidFunction)fake_destroy_instance},
    {"vkEnumerateInstanceExtensionProperties",
     (PFN_vkVoidFunction)fake_enumerate_instance_extension_properties},
    {"vkEnumeratePhysicalDevices", (PFN_vkVoidFunction)fake_enumerate_physical_devices},
    {"vkGetPhysicalDeviceProperties", (PFN_vkVoidFunction)fake_get_physical_device_properties},
    {"vkGetPhysicalDeviceFeatures", (PFN_vkVoidFunction)fake_get_physical_device_features},
    {"vkGetPhysicalDeviceMemoryProperties",
     (PFN_vkVoidFunction)fake_get_physical_device_memory_properties},
    {"vkGetPhysicalDeviceQueueFamilyProperties",
     (PFN_vkVoidFunction)fake_get_physical_device_queue_family_properties},
    {"vkEnumerateDeviceExtensionProperties",
     (PFN_vkVoidFunction)fake_enumerate_device_extension_properties},
    {"vkGetPhysicalDeviceFormatProperties",
     (PFN_vkVoidFunction)fake_get_physical_device_format_properties},
    {"vkGetPhysicalDeviceImageFormatProperties",
     (PFN_vkVoidFunction)fake_get_physical_device_image_format_properties},
    {"vkGetPhysicalDeviceSparseImageFormatProperties",
     (PFN_vkVoidFunction)fake_get_physical_device_sparse_image_format_properties},
    {"vkCreateDevice", (PFN_vkVoidFunction)fake_create_device},
    {"vkGetDeviceProcAddr", (PFN_vkVoidFunction)fake_get_device_proc_addr},
};

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL fake_get_instance_proc_addr(VkInstance instance,
                                                                            const char* name) {
  (void)instance;
  for (size_t i = 0; i < sizeof kEntryPoints / sizeof kEntryPoints[0]; ++i) {
    if (strcmp(name, kEntryPoints[i].name) == 0) return kEntryPoints[i].fn;
  }
  return NULL;
}

EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t* version) {
  if (*version > 5) *version = 5;
  return VK_SUCCESS;
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                          const char* name) {
  return fake_get_instance_proc_addr(instance, name);
}
