#pragma once
// The Vulkan layers an application on this machine gets. One walk reads the implicit and
// explicit layer manifests where the loader looks (under the root, in the parent); from it come
// the implicit layers recorded in the snapshot (VulkanInfo::implicit_layers, which the checks
// judge) and the plan of layers tried in each driver's child one at a time after the driver
// alone, so that a layer that crashes or hangs is named as the layer, never as the driver.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/library_search.hpp"
#include "json.hpp"
#include "model/probe_outcome.hpp"
#include "model/vulkan.hpp"
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

/// Fills info.layer_search_paths, info.implicit_layers and info.layer_environment: every
/// implicit layer the loader would find, its library located, and whether this environment
/// switches it on. Files only.
void discover_implicit_layers(const ProbeContext& ctx, const LibrarySearch& libs,
                              VulkanInfo& info);

/// The layers an application gets (implicit and explicit), to try in the drivers' children.
/// Files only.
LayerPlan discover_layers(const ProbeContext& ctx);

/// A manifest's library as the loader opens it: an absolute path as written, a relative one
/// from the manifest's directory, a bare name through the dynamic loader's search.
std::optional<std::string> resolve_manifest_library(const Root& root, const LibrarySearch& libs,
                                                    const std::string& manifest,
                                                    const std::string& library);

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
