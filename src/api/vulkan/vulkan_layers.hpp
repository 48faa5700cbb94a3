#pragma once
// Which Vulkan layers an application gets without asking for any, decided from a layer's
// manifest and the environment alone, as the loader decides: implicit layers unless their
// disable_environment is set or their enable_environment is not, the layers VK_INSTANCE_LAYERS
// names, and the filters VK_LOADER_LAYERS_ENABLE / _DISABLE (loaders from 1.3.234) and
// VK_LOADER_LAYERS_ALLOW (from 1.3.262).
// Source: Vulkan-Loader v1.3.239 loader/loader.c loader_implicit_layer_is_enabled and
// loader/loader_environment.c check_name_matches_filter_environment_var;
// https://github.com/KhronosGroup/Vulkan-Loader/blob/v1.3.239/docs/LoaderLayerInterface.md#layer-filtering
#include <string>
#include <string_view>
#include <vector>

#include "environment.hpp"
#include "parse/vulkan_manifest.hpp"

namespace gpudoctor {

/// A layer name against a filter variable's value: comma-separated, case-insensitive, each a
/// whole name, or with '*' at the start or end (or both) for a suffix, a prefix, a substring;
/// "*", "**" and "~all~" match everything, "~implicit~" every implicit, "~explicit~" every
/// explicit layer.
bool vulkan_layer_filter_matches(std::string_view filters, std::string_view name, bool implicit);

struct VulkanLayerDecision {
  bool active = false;
  /// Active: why the application gets it ("implicit", "implicit, OBS_VKCAPTURE=1",
  /// "VK_LOADER_LAYERS_ENABLE", "VK_INSTANCE_LAYERS"). Not: why not ("NODEVICE_SELECT is set",
  /// "VK_LOADER_LAYERS_DISABLE names it", "MANGOHUD is not 1", "not enabled").
  std::string because;
};

/// Whether an application started with `env` gets this layer when it enables none itself.
VulkanLayerDecision vulkan_layer_decision(const VulkanLayerEntry& layer, bool implicit,
                                          const Environment& env);

/// The variables the loader and the device-selection layers read, to record with the layers.
const std::vector<std::string>& vulkan_layer_variables();

}  // namespace gpudoctor
