#include "parse/vulkan_manifest.hpp"

#include "json_dom.hpp"
#include "api/vulkan/vulkan_version.hpp"

namespace gpudoctor {

namespace {

std::optional<std::string> string_field(const Json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

}  // namespace

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
  m.file_format_version = string_field(j, "file_format_version");
  auto icd = j.find("ICD");
  if (icd != j.end() && icd->is_object()) {
    m.library_path = string_field(*icd, "library_path");
    m.api_version = string_field(*icd, "api_version");
    m.library_arch = string_field(*icd, "library_arch");
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
