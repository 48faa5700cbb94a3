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
  std::vector<SmokeResult> smoke;
  /// The device whose smoke matmul is running (set in progress reports): if the child dies
  /// now, the driver died in that device's shader.
  std::optional<std::string> smoke_running;
};
GPUDOCTOR_JSON(VulkanDriverReport, manifest, loader, instance_version, devices, smoke,
               smoke_running)

/// Limits on what a driver may claim; beyond them it is lying, and we read no further.
inline constexpr std::uint32_t kMaxDevices = 64;

/// Makes the loader in this child see only this one driver, exactly as its manifest says,
/// without layers in between (environment variables the loader reads when it first loads).
void restrict_loader_to(const std::string& manifest);

/// Runs in the isolated child: restricts the loader to this one driver manifest, opens
/// libvulkan.so.1, creates an instance and reads every physical device; with `smoke`, runs the
/// smoke matmul on each. `library` is the driver library the manifest names, for messages.
JobReport enumerate_vulkan_driver(const std::string& manifest, const std::string& library,
                                  bool smoke);

/// How smoke results name a Vulkan device.
std::string smoke_device_label(const VulkanDevice& device, std::size_t index);

}  // namespace gpudoctor::vulkan
