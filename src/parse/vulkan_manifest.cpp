#include "parse/vulkan_manifest.hpp"

#include "json_dom.hpp"
#include "api/vulkan/vulkan_version.hpp"

namespace gpudoctor {

namespace {

std::optional<std::string> manifest_string_field(const Json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

/// {"NAME": "value"}: the first member, as the loader reads one variable from it.
std::optional<std::pair<std::string, std::string>> env_pair(const Json& layer, const char* key) {
  auto it = layer.find(key);
  if (it == layer.end() || !it->is_object() || it->empty()) return std::nullopt;
  auto first = it->begin();
  return std::make_pair(first.key(),
                        first.value().is_string() ? first.value().get<std::string>() : "");
}

VulkanLayerEntry layer_entry(const Json& layer) {
  VulkanLayerEntry e;
  if (!layer.is_object()) {
    e.error = "a layer is not a JSON object";
    return e;
  }
  e.name = manifest_string_field(layer, "name");
  e.library_path = manifest_string_field(layer, "library_path");
  e.api_version = manifest_string_field(layer, "api_version");
  e.meta = layer.contains("component_layers");
  e.enable_environment = env_pair(layer, "enable_environment");
  e.disable_environment = env_pair(layer, "disable_environment");
  if (!e.name || e.name->empty()) {
    e.error = "no \"name\" string";
  } else if (!e.meta && (!e.library_path || e.library_path->empty())) {
    e.error = "no \"library_path\" string";
  }
  return e;
}

}  // namespace

VulkanLayerManifestFile parse_vulkan_layer_manifest(std::string_view text) {
  VulkanLayerManifestFile m;
  // Bounded nesting: a layer manifest is three levels deep, a hostile one 100,000.
  Json j = parse_json_bounded(text);
  if (j.is_discarded() || !j.is_object()) {
    m.error = j.is_discarded() ? "not valid JSON" : "not a JSON object";
    return m;
  }
  m.file_format_version = manifest_string_field(j, "file_format_version");
  if (!m.file_format_version) {
    m.error = "no \"file_format_version\" string";
    return m;
  }
  if (auto one = j.find("layer"); one != j.end()) m.layers.push_back(layer_entry(*one));
  if (auto many = j.find("layers"); many != j.end() && many->is_array()) {
    for (const auto& l : *many) m.layers.push_back(layer_entry(l));
  }
  if (m.layers.empty()) m.error = "neither a \"layer\" object nor a \"layers\" array";
  return m;
}

VulkanManifestFile parse_vulkan_manifest(std::string_view text) {
  VulkanManifestFile m;
  Json j = parse_json_bounded(text);
  if (j.is_discarded()) {
    m.error = "not valid JSON";
    return m;
  }
  if (!j.is_object()) {
    m.error = "not a JSON object";
    return m;
  }
  m.file_format_version = manifest_string_field(j, "file_format_version");
  auto icd = j.find("ICD");
  if (icd != j.end() && icd->is_object()) {
    m.library_path = manifest_string_field(*icd, "library_path");
    m.api_version = manifest_string_field(*icd, "api_version");
    m.library_arch = manifest_string_field(*icd, "library_arch");
    auto portability = icd->find("is_portability_driver");
    if (portability != icd->end() && portability->is_boolean()) {
      m.is_portability_driver = portability->get<bool>();
    }
  }
  if (!m.file_format_version) {
    m.error = "no \"file_format_version\" string";
  } else if (icd == j.end() || !icd->is_object()) {
    m.error = "no \"ICD\" object";
  } else if (!m.library_path) {
    m.error = "no \"ICD.library_path\" string";
  } else if (m.library_path->empty()) {
    m.error = "\"ICD.library_path\" is empty";
  } else if (!m.api_version) {
    m.error = "no \"ICD.api_version\" string";
  } else if (auto v = parse_vulkan_api_version(*m.api_version); !v) {
    m.error = "\"ICD.api_version\" is not a version: \"" + *m.api_version + "\"";
  }
  return m;
}

}  // namespace gpudoctor
