#include "api/vulkan/vulkan_search.hpp"

#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kIcdSuffix = "/vulkan/icd.d";

void add_variable_entries(VulkanSearchPlan& plan, const std::string& variable,
                          const std::string& value) {
  for (auto& entry : split_path_list(value)) {
    plan.places.push_back({variable, entry, true});
  }
}

void add_directories(VulkanSearchPlan& plan, const std::string& list, const char* suffix) {
  for (auto& dir : split_path_list(list)) {
    std::string path = dir;
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    path += suffix;
    plan.places.push_back({path, path, false});
  }
}

/// The standard directories, the same for drivers and layers, each with `suffix` appended.
void add_standard_directories(VulkanSearchPlan& plan, const Environment& env,
                              const char* suffix) {
  const std::optional<std::string> home = env.get("HOME");
  if (auto v = env.get_nonempty("XDG_CONFIG_HOME")) {
    add_directories(plan, *v, suffix);
  } else if (home) {
    add_directories(plan, *home + "/.config", suffix);
  }
  add_directories(plan, env.get_nonempty("XDG_CONFIG_DIRS").value_or("/etc/xdg"), suffix);
  add_directories(plan, "/etc", suffix);
  if (auto v = env.get_nonempty("XDG_DATA_HOME")) {
    add_directories(plan, *v, suffix);
  } else if (home) {
    add_directories(plan, *home + "/.local/share", suffix);
  }
  add_directories(plan, env.get_nonempty("XDG_DATA_DIRS").value_or("/usr/local/share:/usr/share"),
                  suffix);
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
  add_standard_directories(plan, env, kIcdSuffix);
  return plan;
}

VulkanSearchPlan vulkan_implicit_layer_search_plan(const Environment& env) {
  VulkanSearchPlan plan;
  if (auto value = env.get("VK_IMPLICIT_LAYER_PATH")) {
    plan.override_variable = "VK_IMPLICIT_LAYER_PATH";
    add_variable_entries(plan, "VK_IMPLICIT_LAYER_PATH", *value);
    return plan;
  }
  if (auto extra = env.get_nonempty("VK_ADD_IMPLICIT_LAYER_PATH")) {
    add_variable_entries(plan, "VK_ADD_IMPLICIT_LAYER_PATH", *extra);
  }
  add_standard_directories(plan, env, "/vulkan/implicit_layer.d");
  return plan;
}

VulkanSearchPlan vulkan_layer_search_plan(const Environment& env, bool implicit) {
  VulkanSearchPlan plan;
  const char* replace = implicit ? "VK_IMPLICIT_LAYER_PATH" : "VK_LAYER_PATH";
  const char* add = implicit ? "VK_ADD_IMPLICIT_LAYER_PATH" : "VK_ADD_LAYER_PATH";
  if (auto value = env.get_nonempty(replace)) {
    plan.override_variable = replace;
    add_variable_entries(plan, replace, *value);
    // Loaders before 1.3.296 do not know VK_IMPLICIT_LAYER_PATH and still search the rest.
    if (!implicit) return plan;
  }
  if (auto extra = env.get_nonempty(add)) add_variable_entries(plan, add, *extra);
  add_standard_directories(plan, env,
                           implicit ? "/vulkan/implicit_layer.d" : "/vulkan/explicit_layer.d");
  return plan;
}

/// Mesa's DRM-only Vulkan drivers: each refuses (VK_ERROR_INCOMPATIBLE_DRIVER) every drmDevice
/// without a render node or whose PCI vendor is not its own, in create_drm_physical_device /
/// anv_physical_device_try_create / nvk_create_drm_physical_device (NVK also takes Tegra
/// platform devices, whose vendor sysfs does not give: such a node keeps it probed).
/// https://gitlab.freedesktop.org/mesa/mesa/-/blob/main/src/amd/vulkan/radv_physical_device.c
/// https://gitlab.freedesktop.org/mesa/mesa/-/blob/main/src/intel/vulkan/anv_physical_device.c
/// https://gitlab.freedesktop.org/mesa/mesa/-/blob/main/src/intel/vulkan_hasvk/anv_device.c
/// https://gitlab.freedesktop.org/mesa/mesa/-/blob/main/src/nouveau/vulkan/nvk_physical_device.c
const std::vector<MesaGpuDriver>& mesa_gpu_drivers() {
  static const std::vector<MesaGpuDriver> drivers = {
      {"libvulkan_radeon.so", "radv", "AMD", kPciVendorAmd, {"amdgpu", ""}},
      {"libvulkan_intel_hasvk.so", "hasvk", "Intel", kPciVendorIntel, {"i915", ""}},
      {"libvulkan_intel.so", "anv", "Intel", kPciVendorIntel, {"i915", "xe"}},
      {"libvulkan_nouveau.so", "NVK", "NVIDIA", kPciVendorNvidia, {"nouveau", ""}},
  };
  return drivers;
}

std::optional<std::string> vulkan_driver_without_device(std::string_view library,
                                                        const std::vector<DrmRenderNode>& nodes) {
  const std::string_view file = library.substr(library.rfind('/') + 1);
  for (const auto& d : mesa_gpu_drivers()) {
    if (file != d.library) continue;
    const std::string what = std::string(d.driver) + " drives only " + std::string(d.vendor_name) +
                             " GPUs, through a DRM render node";
    if (nodes.empty()) return what + "; this machine has no /dev/dri/renderD* node";
    std::string seen;
    for (const auto& n : nodes) {
      if (!n.vendor || *n.vendor == d.vendor) return std::nullopt;
      seen += (seen.empty() ? "" : ", ") + n.name + " is " + hex(*n.vendor, 4);
    }
    return what + " (" + hex(d.vendor, 4) + "); " + seen;
  }
  return std::nullopt;
}

}  // namespace gpudoctor
