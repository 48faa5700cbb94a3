#pragma once
// The Vulkan entry points gpudoctor uses, as one struct of function pointers. Types come from
// vulkan/vulkan.h (built with VK_NO_PROTOTYPES); nothing links libvulkan: the loader is opened
// at run time, in an isolated child, and everything else is reached through
// vkGetInstanceProcAddr as the Vulkan spec intends.
#include <vulkan/vulkan.h>

#include <type_traits>

#include "core/dynlib.hpp"

namespace gpudoctor::vulkan {

struct VulkanApi {
  // Global: from the loader library and vkGetInstanceProcAddr(NULL, …).
  PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
  PFN_vkEnumerateInstanceVersion enumerate_instance_version = nullptr;  ///< null: Vulkan 1.0
  PFN_vkEnumerateInstanceExtensionProperties enumerate_instance_extension_properties = nullptr;
  PFN_vkCreateInstance create_instance = nullptr;

  // Instance level: from vkGetInstanceProcAddr(instance, …).
  PFN_vkEnumeratePhysicalDevices enumerate_physical_devices = nullptr;
  PFN_vkEnumerateDeviceExtensionProperties enumerate_device_extension_properties = nullptr;
  PFN_vkGetPhysicalDeviceProperties get_physical_device_properties = nullptr;
  PFN_vkGetPhysicalDeviceFeatures get_physical_device_features = nullptr;
  PFN_vkGetPhysicalDeviceMemoryProperties get_physical_device_memory_properties = nullptr;
  PFN_vkGetPhysicalDeviceQueueFamilyProperties get_physical_device_queue_family_properties =
      nullptr;
  /// Core 1.1 names; the KHR ones (VK_KHR_get_physical_device_properties2) for 1.0 devices.
  PFN_vkGetPhysicalDeviceProperties2 get_physical_device_properties2 = nullptr;
  PFN_vkGetPhysicalDeviceFeatures2 get_physical_device_features2 = nullptr;
  PFN_vkGetPhysicalDeviceProperties2KHR get_physical_device_properties2_khr = nullptr;
  PFN_vkGetPhysicalDeviceFeatures2KHR get_physical_device_features2_khr = nullptr;

  /// The global entry points; false when the library has no vkGetInstanceProcAddr or
  /// vkCreateInstance.
  bool load_global(const DynamicLibrary& loader) {
    get_instance_proc_addr =
        loader.symbol<std::remove_pointer_t<PFN_vkGetInstanceProcAddr>>("vkGetInstanceProcAddr");
    if (get_instance_proc_addr == nullptr) return false;
    enumerate_instance_version =
        get<PFN_vkEnumerateInstanceVersion>(nullptr, "vkEnumerateInstanceVersion");
    enumerate_instance_extension_properties = get<PFN_vkEnumerateInstanceExtensionProperties>(
        nullptr, "vkEnumerateInstanceExtensionProperties");
    create_instance = get<PFN_vkCreateInstance>(nullptr, "vkCreateInstance");
    return create_instance != nullptr && enumerate_instance_extension_properties != nullptr;
  }

  void load_instance(VkInstance instance) {
    enumerate_physical_devices =
        get<PFN_vkEnumeratePhysicalDevices>(instance, "vkEnumeratePhysicalDevices");
    enumerate_device_extension_properties = get<PFN_vkEnumerateDeviceExtensionProperties>(
        instance, "vkEnumerateDeviceExtensionProperties");
    get_physical_device_properties =
        get<PFN_vkGetPhysicalDeviceProperties>(instance, "vkGetPhysicalDeviceProperties");
    get_physical_device_features =
        get<PFN_vkGetPhysicalDeviceFeatures>(instance, "vkGetPhysicalDeviceFeatures");
    get_physical_device_memory_properties = get<PFN_vkGetPhysicalDeviceMemoryProperties>(
        instance, "vkGetPhysicalDeviceMemoryProperties");
    get_physical_device_queue_family_properties = get<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(
        instance, "vkGetPhysicalDeviceQueueFamilyProperties");
    get_physical_device_properties2 =
        get<PFN_vkGetPhysicalDeviceProperties2>(instance, "vkGetPhysicalDeviceProperties2");
    get_physical_device_features2 =
        get<PFN_vkGetPhysicalDeviceFeatures2>(instance, "vkGetPhysicalDeviceFeatures2");
    get_physical_device_properties2_khr =
        get<PFN_vkGetPhysicalDeviceProperties2KHR>(instance, "vkGetPhysicalDeviceProperties2KHR");
    get_physical_device_features2_khr =
        get<PFN_vkGetPhysicalDeviceFeatures2KHR>(instance, "vkGetPhysicalDeviceFeatures2KHR");
  }

 private:
  template <typename Pfn>
  Pfn get(VkInstance instance, const char* name) const {
    return reinterpret_cast<Pfn>(get_instance_proc_addr(instance, name));
  }
};

}  // namespace gpudoctor::vulkan
