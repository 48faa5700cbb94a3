#pragma once
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "model/vulkan.hpp"
#include "vulkan/vulkan_api.hpp"
#include "api/vulkan/vulkan_names.hpp"

namespace gpudoctor::vulkan {

inline constexpr std::uint32_t kMaxQueueFamilies = 64;
inline constexpr std::uint32_t kMaxExtensions = 4096;

/// Reads one physical device. `instance_api` is the API version the instance was created
/// with; `props2_extension` says VK_KHR_get_physical_device_properties2 is enabled. Every rule
/// the driver breaks (an unterminated name, a count beyond the spec's arrays, …) is added to
/// *anomalies, and what it says is capped or left unknown rather than trusted.
VulkanDevice read_vulkan_device(const VulkanApi& api, VkPhysicalDevice device,
                                std::uint32_t instance_api, bool props2_extension,
                                const std::string& manifest, std::size_t index,
                                std::vector<std::string>* anomalies);

/// Extension names from a two-call enumeration, at most kMaxExtensions; empty when it fails.
template <typename Call>
std::vector<std::string> vulkan_extension_names(Call call) {
  std::uint32_t count = 0;
  if (call(&count, nullptr) != VK_SUCCESS) return {};
  std::vector<VkExtensionProperties> props(std::min(count, kMaxExtensions));
  count = static_cast<std::uint32_t>(props.size());
  VkResult r = call(&count, props.data());
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) return {};
  std::vector<std::string> names;
  for (std::size_t i = 0; i < std::min<std::size_t>(count, props.size()); ++i) {
    names.push_back(vk_fixed_string(props[i].extensionName, VK_MAX_EXTENSION_NAME_SIZE));
  }
  return names;
}

inline bool vulkan_contains(const std::vector<std::string>& names, const char* name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace gpudoctor::vulkan
