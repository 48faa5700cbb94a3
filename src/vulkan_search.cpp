#include "vulkan_search.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kIcdSuffix = "/vulkan/icd.d";

void add_variable_entries(VulkanSearchPlan& plan, const std::string& variable,
                          const std::string& value) {
  for (auto& entry : split_path_list(value)) {
    plan.places.push_back({variable, entry, true});
  }
}

void add_directories(VulkanSearchPlan& plan, const std::string& list) {
  for (auto& dir : split_path_list(list)) {
    std::string path = dir;
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    path += kIcdSuffix;
    plan.places.push_back({path, path, false});
  }
}

}  // namespace

VulkanSearchPlan vulkan_driver_search_plan(const Environment& env) {
  VulkanSearchPlan plan;
  for (const char* variable : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES"}) {
    if (auto value = env.get(variable)) {
      plan.override_variable = variable;
      add_variable_entries(plan, variable, *value);
      return plan;
    }
  }
  if (auto extra = env.get_nonempty("VK_ADD_DRIVER_FILES")) {
    add_variable_entries(plan, "VK_ADD_DRIVER_FILES", *extra);
  }
  const std::optional<std::string> home = env.get("HOME");
  if (auto v = env.get_nonempty("XDG_CONFIG_HOME")) {
    add_directories(plan, *v);
  } else if (home) {
    add_directories(plan, *home + "/.config");
  }
  add_directories(plan, env.get_nonempty("XDG_CONFIG_DIRS").value_or("/etc/xdg"));
  add_directories(plan, "/etc");
  if (auto v = env.get_nonempty("XDG_DATA_HOME")) {
    add_directories(plan, *v);
  } else if (home) {
    add_directories(plan, *home + "/.local/share");
  }
  add_directories(plan, env.get_nonempty("XDG_DATA_DIRS").value_or("/usr/local/share:/usr/share"));
  return plan;
}

}  // namespace gpudoctor
