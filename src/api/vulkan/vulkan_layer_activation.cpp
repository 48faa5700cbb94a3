#include "api/vulkan/vulkan_layer_activation.hpp"

#include <algorithm>
#include <cctype>

#include "text.hpp"

namespace gpudoctor {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool one_filter_matches(std::string_view f, const std::string& name, bool implicit) {
  if (f == "*" || f == "**" || f == "~all~") return true;
  if (f == "~implicit~") return implicit;
  if (f == "~explicit~") return !implicit;
  if (f.empty() || f.front() == '~') return false;
  const bool star_begin = f.front() == '*';
  const bool star_end = f.back() == '*';
  if (star_begin) f.remove_prefix(1);
  if (star_end && !f.empty()) f.remove_suffix(1);
  if (f.size() > name.size()) return false;
  if (star_begin && star_end) return name.find(f) != std::string::npos;
  if (star_begin) return std::string_view(name).substr(name.size() - f.size()) == f;
  if (star_end) return std::string_view(name).substr(0, f.size()) == f;
  return name == f;
}

bool named_in_instance_layers(const Environment& env, const std::string& name) {
  auto list = env.get_nonempty("VK_INSTANCE_LAYERS");
  if (!list) return false;
  for (const auto& n : split_path_list(*list)) {
    if (n == name) return true;
  }
  return false;
}

}  // namespace

bool vulkan_layer_filter_matches(std::string_view filters, std::string_view name, bool implicit) {
  const std::string n = lower(name);
  for (const auto& f : split_words(lower(filters), ",")) {
    if (one_filter_matches(f, n, implicit)) return true;
  }
  return false;
}

std::optional<std::string> vulkan_layer_active_because(const VulkanLayerManifest& layer,
                                                       bool implicit, const Environment& env) {
  if (layer.meta) return std::nullopt;  // its components are layers of their own
  if (named_in_instance_layers(env, layer.name)) return "VK_INSTANCE_LAYERS";
  const auto enable = env.get_nonempty("VK_LOADER_LAYERS_ENABLE");
  const bool forced_on = enable && vulkan_layer_filter_matches(*enable, layer.name, implicit);
  if (!implicit)
    return forced_on ? std::optional<std::string>("VK_LOADER_LAYERS_ENABLE") : std::nullopt;

  const auto disable = env.get_nonempty("VK_LOADER_LAYERS_DISABLE");
  const bool forced_off = disable && vulkan_layer_filter_matches(*disable, layer.name, true);
  bool on = !layer.enable_environment ||
            env.get(layer.enable_environment->first) == layer.enable_environment->second;
  std::string because = layer.enable_environment ? "implicit, " + layer.enable_environment->first +
                                                       "=" + layer.enable_environment->second
                                                 : "implicit";
  if (forced_on) {
    on = true;
    because = "VK_LOADER_LAYERS_ENABLE";
  } else if (forced_off) {
    return std::nullopt;
  }
  // The disable variable, set to anything, wins over everything else.
  if (layer.disable_environment && env.get(*layer.disable_environment)) return std::nullopt;
  return on ? std::optional<std::string>(because) : std::nullopt;
}

}  // namespace gpudoctor
