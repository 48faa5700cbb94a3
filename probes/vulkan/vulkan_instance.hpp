#pragma once
// One way to stand up Vulkan in an isolated child: the loader opened, an instance made, its
// entry points loaded. The query probe (vulkan_enumerate.cpp), the bench (bench/vulkan_bench.cpp)
// and the tests use it, after restrict_loader_to() has chosen the one driver the loader sees.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "core/dynlib.hpp"
#include "model/probe_outcome.hpp"
#include "vulkan/vulkan_api.hpp"

namespace gpudoctor::vulkan {

struct VulkanInstance {
  std::optional<DynamicLibrary> lib;  ///< libvulkan.so.1, open for as long as the instance lives
  VulkanApi api;                      ///< global and instance-level entry points
  VkInstance instance = VK_NULL_HANDLE;
  std::uint32_t instance_version = VK_API_VERSION_1_0;  ///< vkEnumerateInstanceVersion
  std::uint32_t app_api = VK_API_VERSION_1_0;           ///< the API the instance asked for
  bool props2 = false;  ///< VK_KHR_get_physical_device_properties2 is enabled
};

/// Why there is no instance: `missing` when there is no loader, else `failed`.
struct VulkanInstanceError {
  ProbeStatus status = ProbeStatus::failed;
  std::string detail;
};

/// Opens libvulkan.so.1 and creates an instance asking for the newest API the loader offers
/// (1.0 loaders reject anything above 1.0), with VK_KHR_get_physical_device_properties2 and
/// VK_KHR_portability_enumeration where the loader has them. The instance is never destroyed:
/// the child exits right after, and a driver's teardown is not what gpudoctor looks at.
std::variant<VulkanInstance, VulkanInstanceError> open_vulkan_instance(const char* app_name);

}  // namespace gpudoctor::vulkan
