#pragma once
// Vulkan layer manifests (implicit_layer.d, explicit_layer.d): the fields that decide whether
// the loader activates a layer and which library it loads. Schema: Vulkan-Loader
// docs/LoaderLayerInterface.md, "Layer Manifest File Format" (file_format_version 1.0.0 has one
// "layer" object, 1.0.1 and later may have a "layers" array).
// https://github.com/KhronosGroup/Vulkan-Loader/blob/v1.3.239/docs/LoaderLayerInterface.md
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpudoctor {

struct VulkanLayerManifest {
  std::string name;                                ///< "VK_LAYER_MESA_device_select"
  std::optional<std::string> library_path;         ///< as written; absent for a meta layer
  bool meta = false;                               ///< component_layers: no library of its own
  std::optional<std::string> disable_environment;  ///< the variable whose presence disables it
  /// The variable and value that must be set for an implicit layer to be active, when given.
  std::optional<std::pair<std::string, std::string>> enable_environment;
};

/// The layers a manifest declares; an unreadable one (not JSON, nested absurdly deep, no name)
/// gives none.
std::vector<VulkanLayerManifest> parse_vulkan_layer_entries(std::string_view text);

}  // namespace gpudoctor
