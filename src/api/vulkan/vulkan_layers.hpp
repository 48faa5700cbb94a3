#pragma once
// Which implicit layers the Vulkan loader would insert, from a layer's manifest and the
// environment alone, as loader_implicit_layer_is_enabled (Vulkan-Loader loader.c) decides.
#include <optional>
#include <string>
#include <string_view>

#include "environment.hpp"
#include "parse/vulkan_manifest.hpp"

namespace gpudoctor {

/// Whether a VK_LOADER_LAYERS_{DISABLE,ENABLE,ALLOW} value (comma-separated; a leading and/or
/// trailing '*' is a wildcard; case-insensitive; "*", "~all~" match every layer and "~implicit~"
/// every implicit one) names this implicit layer.
bool vulkan_layer_filter_matches(std::string_view filters, std::string_view layer);

/// Why the loader would leave this implicit layer out in `env` ("NODEVICE_SELECT is set",
/// "VK_LOADER_LAYERS_DISABLE names it", "MANGOHUD is not 1"); nullopt when it loads it.
std::optional<std::string> implicit_layer_inactive(const VulkanLayerEntry& layer,
                                                   const Environment& env);

/// The variables the loader and the device-selection layers read, to record with the layers.
const std::vector<std::string>& vulkan_layer_variables();

}  // namespace gpudoctor
