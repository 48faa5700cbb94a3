// Vulkan implicit layers: the loader inserts them into every Vulkan program. A stale manifest
// whose library is gone makes the loader print an error in every program; some layers hide
// devices (AMDVLK's switchable-graphics layer hides RADV; Mesa's device-select layer, told to,
// keeps only one GPU).
#include "checks/check_list.hpp"
#include "checks/check_util.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kLayerInterface =
    "https://github.com/KhronosGroup/Vulkan-Loader/blob/main/docs/LoaderLayerInterface.md";

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

bool name_matches(const std::string& pattern, const std::string& name) {
  if (!pattern.empty() && pattern.back() == '*') {
    return starts_with(name, pattern.substr(0, pattern.size() - 1));
  }
  return name == pattern;
}

/// How to switch one layer off: the loader's filter, and the layer's own variable.
std::string disable_fix(const VulkanLayer& l) {
  std::string fix = "export VK_LOADER_LAYERS_DISABLE=" + l.name.value_or("<layer name>") +
                    " (Vulkan loaders built with headers 1.3.234 or later)";
  if (l.disable_environment) fix += ", or export " + *l.disable_environment + "=1";
  return fix;
}

/// The evidence that the rule's condition holds here, or nullopt when it does not.
std::optional<std::string> condition_met(const VulkanLayerRule& rule, const VulkanInfo& vk) {
  if (rule.when_driver) {
    for (const auto& m : vk.manifests) {
      const std::string lib = base_name(m.resolved.value_or(m.library_path.value_or("")));
      if (lib == *rule.when_driver) return "driver manifest " + m.file + " (" + lib + ")";
    }
    return std::nullopt;
  }
  auto it = vk.layer_environment.find(*rule.when_variable);
  if (it == vk.layer_environment.end()) return std::nullopt;
  const bool met =
      rule.equals ? it->second == *rule.equals : ends_with(it->second, *rule.ends_with);
  if (!met) return std::nullopt;
  return it->first + "=" + it->second;
}

void broken_layer(const CheckSpec& self, const VulkanLayer& l, std::vector<Finding>& out) {
  const std::string what = l.name ? "Vulkan implicit layer " + *l.name : "A Vulkan layer manifest";
  Finding f = make_finding(self, Severity::warn,
                           what + " (" + l.file + ") is broken: " + *l.error +
                               "; the loader reports an error in every Vulkan program and "
                               "skips it");
  f.id = "vulkan.layer_broken";
  f.source = kLayerInterface;
  f.evidence.push_back("found through " + l.source);
  if (l.library_path) f.evidence.push_back("library_path: " + *l.library_path);
  f.fix = "remove the stale manifest " + l.file + " (dpkg -S " + l.file +
          " names the package that owns it; a file under a home directory is left by a "
          "removed program such as Steam), or " + disable_fix(l);
  out.push_back(std::move(f));
}

}  // namespace

void check_vulkan_layers(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.vulkan) return;
  const VulkanInfo& vk = *in.snap.vulkan;
  for (const auto& l : vk.implicit_layers) {
    if (l.error && !l.inactive_because) {
      broken_layer(self, l, out);
      continue;
    }
    if (!l.active || !l.name) continue;
    for (const auto& rule : in.compat.vulkan_layer_rules) {
      if (!name_matches(rule.layer, *l.name)) continue;
      auto why = condition_met(rule, vk);
      if (!why) continue;
      Finding f = make_finding(self, Severity::warn,
                               "Vulkan implicit layer " + *l.name + " (" + l.file + ") hides " +
                                   rule.hides + " from every Vulkan program");
      f.id = "vulkan.layer_hides_devices";
      f.source = rule.from.url;
      f.evidence.push_back(*why);
      if (l.resolved) f.evidence.push_back("layer library: " + *l.resolved);
      f.fix = (rule.when_variable ? "unset " + *rule.when_variable + ", or " : std::string()) +
              disable_fix(l);
      out.push_back(std::move(f));
    }
  }
}

}  // namespace gpudoctor
