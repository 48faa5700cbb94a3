#include "api/vulkan/vulkan_layers.hpp"

#include "text.hpp"

namespace gpudoctor {

namespace {

bool matches_one(std::string filter, const std::string& name) {
  filter = to_lower(trim(filter));
  if (filter.empty()) return false;
  if (filter == "*" || filter == "**" || filter == "~all~" || filter == "~implicit~") return true;
  if (filter.front() == '~') return false;  // ~explicit~
  const bool star_begin = filter.front() == '*';
  const bool star_end = filter.back() == '*';
  std::string core = filter.substr(star_begin ? 1 : 0);
  if (star_end && !core.empty()) core.pop_back();
  if (star_begin && star_end) return name.find(core) != std::string::npos;
  if (star_begin) return ends_with(name, core);
  if (star_end) return starts_with(name, core);
  return name == core;
}

}  // namespace

bool vulkan_layer_filter_matches(std::string_view filters, std::string_view layer) {
  const std::string name = to_lower(layer);
  for (const auto& f : split_words(filters, ",")) {
    if (matches_one(f, name)) return true;
  }
  return false;
}

std::optional<std::string> implicit_layer_inactive(const VulkanLayerEntry& layer,
                                                   const Environment& env) {
  const std::string name = layer.name.value_or("");
  const auto disable = env.get("VK_LOADER_LAYERS_DISABLE");
  const auto allow = env.get("VK_LOADER_LAYERS_ALLOW");
  const auto enable_filter = env.get("VK_LOADER_LAYERS_ENABLE");
  const bool forced_off = disable && vulkan_layer_filter_matches(*disable, name) &&
                          !(allow && vulkan_layer_filter_matches(*allow, name));
  const bool forced_on = enable_filter && vulkan_layer_filter_matches(*enable_filter, name);
  std::optional<std::string> why;
  if (layer.enable_environment) {
    const auto& [var, value] = *layer.enable_environment;
    if (env.get(var) != std::optional<std::string>(value)) why = var + " is not " + value;
  }
  if (forced_on) {
    why.reset();
  } else if (!why && forced_off) {
    return "VK_LOADER_LAYERS_DISABLE names it";
  }
  // The disable variable wins over everything: set at all, to any value, the layer is out.
  if (layer.disable_environment && env.get(layer.disable_environment->first)) {
    return layer.disable_environment->first + " is set";
  }
  return why;
}

const std::vector<std::string>& vulkan_layer_variables() {
  static const std::vector<std::string> names = {
      "VK_LOADER_LAYERS_DISABLE", "VK_LOADER_LAYERS_ENABLE", "VK_LOADER_LAYERS_ALLOW",
      "VK_INSTANCE_LAYERS", "MESA_VK_DEVICE_SELECT", "MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE",
      "DRI_PRIME", "AMD_VULKAN_ICD"};
  return names;
}

}  // namespace gpudoctor
