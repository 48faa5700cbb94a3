#include "vulkan/vulkan_instance.hpp"

#include <utility>
#include <vector>

#include "vulkan/vulkan_device.hpp"
#include "api/vulkan/vulkan_names.hpp"
#include "api/vulkan/vulkan_version.hpp"
#include "core/host_platform.hpp"
#include "platform/library_names.hpp"
#include "text.hpp"

namespace gpudoctor::vulkan {

namespace {

constexpr const char* kProps2 = "VK_KHR_get_physical_device_properties2";
constexpr const char* kPortability = "VK_KHR_portability_enumeration";

VulkanInstanceError failed(std::string detail) { return {ProbeStatus::failed, std::move(detail)}; }

}  // namespace

std::variant<VulkanInstance, VulkanInstanceError> open_vulkan_instance(const char* app_name) {
  VulkanInstance v;
  std::string error;
  const auto& names = library_names(host_platform()).vulkan;
  std::string loaded;
  std::vector<std::string> errors;
  auto lib = open_first(names, &loaded, &errors);
  if (!lib) {
    return VulkanInstanceError{ProbeStatus::missing, "the Vulkan loader " + names.front() +
                                                         " could not be opened: " +
                                                         join(errors, "; ")};
  }
  v.lib.emplace(std::move(*lib));
  if (!v.api.load_global(*v.lib)) {
    return failed(
        loaded + " has no vkGetInstanceProcAddr, vkCreateInstance or "
        "vkEnumerateInstanceExtensionProperties");
  }
  if (v.api.enumerate_instance_version != nullptr) {
    if (VkResult r = v.api.enumerate_instance_version(&v.instance_version); r != VK_SUCCESS) {
      return failed(vk_call_failed("vkEnumerateInstanceVersion", r));
    }
  }
  const auto extensions = vulkan_extension_names([&](std::uint32_t* n, VkExtensionProperties* e) {
    return v.api.enumerate_instance_extension_properties(nullptr, n, e);
  });
  std::vector<const char*> enable;
  v.props2 = vulkan_contains(extensions, kProps2);
  if (v.props2) enable.push_back(kProps2);
  const bool portability = vulkan_contains(extensions, kPortability);
  if (portability) enable.push_back(kPortability);

  const VulkanApiVersion iv = decode_vulkan_api_version(v.instance_version);
  v.app_api = pack_vulkan_api_version(0, iv.major, iv.minor, 0);
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = app_name;
  app.apiVersion = v.app_api;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.flags = portability ? VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR : 0;
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = static_cast<std::uint32_t>(enable.size());
  info.ppEnabledExtensionNames = enable.data();
  VkResult r = v.api.create_instance(&info, nullptr, &v.instance);
  if (r != VK_SUCCESS || v.instance == VK_NULL_HANDLE) {
    return failed(vk_call_failed("vkCreateInstance", r));
  }
  v.api.load_instance(v.instance);
  const VulkanApi& a = v.api;
  if (a.enumerate_physical_devices == nullptr || a.get_physical_device_properties == nullptr ||
      a.get_physical_device_features == nullptr ||
      a.get_physical_device_memory_properties == nullptr ||
      a.get_physical_device_queue_family_properties == nullptr ||
      a.enumerate_device_extension_properties == nullptr) {
    return failed("the loader returned no Vulkan 1.0 physical-device entry points");
  }
  return v;
}

}  // namespace gpudoctor::vulkan
