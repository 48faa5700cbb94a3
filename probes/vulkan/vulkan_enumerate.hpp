#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/isolate.hpp"
#include "json.hpp"
#include "model/vulkan.hpp"

namespace gpudoctor::vulkan {

/// What one isolated child sends back: the facts one driver gave through the loader.
struct VulkanDriverReport {
  std::string manifest;
  std::optional<std::string> loader;            ///< the libvulkan.so.1 the child mapped
  std::optional<std::string> instance_version;  ///< vkEnumerateInstanceVersion
  std::vector<VulkanDevice> devices;
};
GPUDOCTOR_JSON(VulkanDriverReport, manifest, loader, instance_version, devices)

/// Limits on what a driver may claim; beyond them it is lying, and we read no further.
inline constexpr std::uint32_t kMaxDevices = 64;

/// Runs in the isolated child: restricts the loader to this one driver manifest, opens
/// libvulkan.so.1, creates an instance and reads every physical device. `library` is the
/// driver library the manifest names, for messages.
JobReport enumerate_vulkan_driver(const std::string& manifest, const std::string& library);

}  // namespace gpudoctor::vulkan
