#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpudoctor {

/// What a Vulkan driver manifest (an ICD JSON file) says.
struct VulkanManifestFile {
  std::optional<std::string> file_format_version;
  std::optional<std::string> library_path;  ///< ICD.library_path as written
  std::optional<std::string> api_version;   ///< ICD.api_version as written
  std::optional<std::string> library_arch;  ///< ICD.library_arch: "32" or "64", when given
  std::optional<bool> is_portability_driver;
  /// Why the loader would skip this manifest, in the terms of loader_parse_icd_manifest
  /// (Vulkan-Loader 1.3.239): not JSON, no file_format_version, no ICD object, no or an empty
  /// library_path, no api_version or one that does not read as a version.
  std::optional<std::string> error;
};

VulkanManifestFile parse_vulkan_manifest(std::string_view text);

/// One layer of a layer manifest: its "layer" object or an element of "layers".
struct VulkanLayerEntry {
  std::optional<std::string> name;
  std::optional<std::string> library_path;
  std::optional<std::string> api_version;
  bool meta = false;  ///< a meta-layer: "component_layers", no library of its own
  std::optional<std::pair<std::string, std::string>> enable_environment;   ///< {NAME, value}
  std::optional<std::pair<std::string, std::string>> disable_environment;  ///< {NAME, value}
  std::optional<std::string> error;  ///< no name, no library_path, …
};

/// What a layer manifest (explicit_layer.d / implicit_layer.d) says; error when the loader would
/// skip the whole file (not JSON, no file_format_version, neither "layer" nor "layers").
struct VulkanLayerManifestFile {
  std::optional<std::string> file_format_version;
  std::vector<VulkanLayerEntry> layers;
  std::optional<std::string> error;
};

VulkanLayerManifestFile parse_vulkan_layer_manifest(std::string_view text);

}  // namespace gpudoctor
