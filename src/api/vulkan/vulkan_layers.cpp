#include "api/vulkan/vulkan_layers.hpp"

#include "text.hpp"

namespace gpudoctor {

namespace {

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

bool filter_names(const Environment& env, const char* variable, const std::string& name,
                  bool implicit) {
  auto value = env.get_nonempty(variable);
  return value && vulkan_layer_filter_matches(*value, name, implicit);
}

}  // namespace

bool vulkan_layer_filter_matches(std::string_view filters, std::string_view name, bool implicit) {
  const std::string n = to_lower(name);
  for (const auto& f : split_words(to_lower(filters), ",")) {
    if (one_filter_matches(trim(f), n, implicit)) return true;
  }
  return false;
}

VulkanLayerDecision vulkan_layer_decision(const VulkanLayerEntry& layer, bool implicit,
                                          const Environment& env) {
  const std::string name = layer.name.value_or("");
  if (named_in_instance_layers(env, name)) return {true, "VK_INSTANCE_LAYERS"};
  const bool forced_on = filter_names(env, "VK_LOADER_LAYERS_ENABLE", name, implicit);
  if (!implicit) {
    if (forced_on) return {true, "VK_LOADER_LAYERS_ENABLE"};
    return {false, "not enabled"};
  }
  // ALLOW keeps a layer from being disabled by the DISABLE filter (loaders from 1.3.262).
  const bool forced_off = filter_names(env, "VK_LOADER_LAYERS_DISABLE", name, true) &&
                          !filter_names(env, "VK_LOADER_LAYERS_ALLOW", name, true);
  // The disable variable, set to anything, wins over everything else.
  if (layer.disable_environment && env.get(layer.disable_environment->first)) {
    return {false, layer.disable_environment->first + " is set"};
  }
  if (forced_on) return {true, "VK_LOADER_LAYERS_ENABLE"};
  if (layer.enable_environment) {
    const auto& [var, value] = *layer.enable_environment;
    if (env.get(var) != std::optional<std::string>(value)) return {false, var + " is not " + value};
  }
  if (forced_off) return {false, "VK_LOADER_LAYERS_DISABLE names it"};
  return {true, layer.enable_environment ? "implicit, " + layer.enable_environment->first + "=" +
                                               layer.enable_environment->second
                                         : "implicit"};
}

const std::vector<std::string>& vulkan_layer_variables() {
  static const std::vector<std::string> names = {
      "VK_LOADER_LAYERS_DISABLE", "VK_LOADER_LAYERS_ENABLE", "VK_LOADER_LAYERS_ALLOW",
      "VK_INSTANCE_LAYERS", "MESA_VK_DEVICE_SELECT", "MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE",
      "DRI_PRIME", "AMD_VULKAN_ICD"};
  return names;
}

}  // namespace gpudoctor
