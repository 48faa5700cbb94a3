#pragma once
// Which Vulkan layers an application gets without asking for any, as the loader decides from
// the environment: implicit layers (unless their disable_environment is set, or their
// enable_environment is not), the layers VK_INSTANCE_LAYERS names, and the filters
// VK_LOADER_LAYERS_ENABLE and VK_LOADER_LAYERS_DISABLE (loaders from 1.3.234).
// Source: Vulkan-Loader v1.3.239 loader/loader.c loader_implicit_layer_is_enabled and
// loader/loader_environment.c check_name_matches_filter_environment_var;
// https://github.com/KhronosGroup/Vulkan-Loader/blob/v1.3.239/docs/LoaderLayerInterface.md#layer-filtering
#include <optional>
#include <string>
#include <string_view>

#include "environment.hpp"
#include "parse/vulkan_layer_manifest.hpp"

namespace gpudoctor {

/// A layer name against a filter variable's value: comma-separated, case-insensitive, each a
/// whole name, or with '*' at the start or end (or both) for a suffix, a prefix, a substring;
/// "*", "**" and "~all~" match everything, "~implicit~" every implicit, "~explicit~" every
/// explicit layer.
bool vulkan_layer_filter_matches(std::string_view filters, std::string_view name, bool implicit);

/// Why an application started with `env` gets this layer when it enables none itself
/// ("implicit", "VK_LOADER_LAYERS_ENABLE", …); nullopt when it does not get it.
std::optional<std::string> vulkan_layer_active_because(const VulkanLayerManifest& layer,
                                                       bool implicit, const Environment& env);

}  // namespace gpudoctor
