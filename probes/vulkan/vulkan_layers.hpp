#pragma once
// The Vulkan layers an application on this machine gets, found in the parent (manifests read
// under the root), and tried in each driver's child one at a time after the driver alone: so a
// layer that crashes or hangs is named as the layer, never as the driver it was loaded with.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json.hpp"
#include "model/probe_outcome.hpp"
#include "probe_context.hpp"

namespace gpudoctor::vulkan {

struct LayerUnderTest {
  std::string name;
  std::string manifest;
  std::string library;  ///< the library the manifest names, resolved where possible
  std::string because;  ///< why applications get it: "implicit", "VK_LOADER_LAYERS_ENABLE", …
  bool implicit = false;
  std::optional<std::string> disable_environment;
  std::optional<std::pair<std::string, std::string>> enable_environment;
};

struct LayerPlan {
  std::vector<LayerUnderTest> active;
  /// Every implicit layer's disable_environment variable: set, they keep loaders older than
  /// 1.3.234 (which ignore VK_LOADER_LAYERS_DISABLE) from loading any implicit layer.
  std::vector<std::string> implicit_disables;
};

/// Reads the implicit and explicit layer manifests the loader would, and keeps the layers an
/// application gets. Files only.
LayerPlan discover_layers(const ProbeContext& ctx);

/// In a child, before the loader is used: no layer at all.
void load_no_layers(const LayerPlan& plan);
/// In a child: this layer alone.
void load_layer_alone(const LayerPlan& plan, const LayerUnderTest& layer);

/// One layer tried in a driver's child: which (while it runs), then what it gave.
struct VulkanLayerCheck {
  std::string name;
  std::string library;
  std::string manifest;
  std::string because;
  ProbeStatus status = ProbeStatus::ok;
  std::string detail;
};
GPUDOCTOR_JSON(VulkanLayerCheck, name, library, manifest, because, status, detail)

}  // namespace gpudoctor::vulkan
