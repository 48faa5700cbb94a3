#include "parse/vulkan_layer_manifest.hpp"

#include "json.hpp"

namespace gpudoctor {

namespace {

// A layer manifest is three levels deep; a file nested far deeper is hostile, and the JSON
// reader recurses once per level.
constexpr int kLayerManifestMaxDepth = 32;

bool nested_too_deep(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kLayerManifestMaxDepth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

std::optional<std::string> string_field(const Json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

/// The first member of {"NAME": "value"}, as the loader takes it.
std::optional<std::pair<std::string, std::string>> first_variable(const Json& obj,
                                                                  const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_object() || it->empty()) return std::nullopt;
  auto first = it->begin();
  return std::make_pair(first.key(), first->is_string() ? first->get<std::string>() : "");
}

std::optional<VulkanLayerManifest> read_layer(const Json& layer) {
  if (!layer.is_object()) return std::nullopt;
  VulkanLayerManifest m;
  auto name = string_field(layer, "name");
  if (!name || name->empty()) return std::nullopt;
  m.name = *name;
  m.library_path = string_field(layer, "library_path");
  m.meta = layer.contains("component_layers");
  if (auto d = first_variable(layer, "disable_environment")) m.disable_environment = d->first;
  m.enable_environment = first_variable(layer, "enable_environment");
  return m;
}

}  // namespace

std::vector<VulkanLayerManifest> parse_vulkan_layer_entries(std::string_view text) {
  std::vector<VulkanLayerManifest> out;
  if (nested_too_deep(text)) return out;
  Json j = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return out;
  if (auto layer = j.find("layer"); layer != j.end()) {
    if (auto m = read_layer(*layer)) out.push_back(std::move(*m));
  }
  if (auto layers = j.find("layers"); layers != j.end() && layers->is_array()) {
    for (const auto& l : *layers) {
      if (auto m = read_layer(l)) out.push_back(std::move(*m));
    }
  }
  return out;
}

}  // namespace gpudoctor
