#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/isolate.hpp"
#include "json.hpp"
#include "model/vulkan.hpp"
#include "vulkan/vulkan_layers.hpp"

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
  /// The layer being tried (set in progress reports): if the child dies now, that layer did it.
  std::optional<VulkanLayerCheck> layer_running;
  std::vector<VulkanLayerCheck> layers;  ///< each active layer, tried alone after the driver
};
GPUDOCTOR_JSON(VulkanDriverReport, manifest, loader, instance_version, devices, smoke,
               smoke_running, layer_running, layers)

/// Limits on what a driver may claim; beyond them it is lying, and we read no further.
inline constexpr std::uint32_t kMaxDevices = 64;

/// Makes the loader in this child see only this one driver, exactly as its manifest says,
/// without layers in between (environment variables the loader reads when it first loads).
void restrict_loader_to(const std::string& manifest);

/// Runs in the isolated child: restricts the loader to this one driver manifest, opens
/// libvulkan.so.1, creates an instance and reads every physical device; with `smoke`, runs the
/// smoke matmul on each. Then it tries each of `layers.active` alone with the driver, telling
/// the parent which one before it does. `library` is the driver library, for messages.
JobReport enumerate_vulkan_driver(const std::string& manifest, const std::string& library,
                                  bool smoke, const LayerPlan& layers = {});

/// How smoke results name a Vulkan device.
std::string smoke_device_label(const VulkanDevice& device, std::size_t index);

}  // namespace gpudoctor::vulkan
