#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "environment.hpp"
#include "model/pci.hpp"

namespace gpudoctor {

/// One place the Vulkan loader reads driver manifests from: a manifest file or a directory of
/// them (only *.json files in it count).
struct VulkanSearchPlace {
  std::string source;  ///< the variable that named it, or the standard directory itself
  std::string path;
  bool from_variable = false;  ///< named by an environment variable (a file or a directory)
};

struct VulkanSearchPlan {
  /// VK_DRIVER_FILES or VK_ICD_FILENAMES when one is set: it replaces the standard search and
  /// VK_ADD_DRIVER_FILES. Set but empty still counts, and then no driver is found at all.
  std::optional<std::string> override_variable;
  std::vector<VulkanSearchPlace> places;  ///< in the loader's order
};

/// Where the Vulkan loader on Linux looks for driver manifests, from the environment alone.
/// Order, as Vulkan-Loader 1.3.239 prints it with VK_LOADER_DEBUG=driver: VK_ADD_DRIVER_FILES,
/// then $XDG_CONFIG_HOME (or ~/.config), $XDG_CONFIG_DIRS (or /etc/xdg), /etc,
/// $XDG_DATA_HOME (or ~/.local/share), $XDG_DATA_DIRS (or /usr/local/share:/usr/share), each
/// with /vulkan/icd.d appended. Files within one directory come in readdir order in the loader,
/// which is unspecified; callers list them sorted.
VulkanSearchPlan vulkan_driver_search_plan(const Environment& env);

/// Where the loader looks for implicit layer manifests: VK_IMPLICIT_LAYER_PATH replaces the
/// standard directories, VK_ADD_IMPLICIT_LAYER_PATH comes before them; the directories are the
/// drivers' ones with /vulkan/implicit_layer.d (LoaderLayerInterface.md, "Linux Layer
/// Discovery").
VulkanSearchPlan vulkan_implicit_layer_search_plan(const Environment& env);
/// Where it looks for layer manifests: the same directories with /vulkan/implicit_layer.d or
/// /vulkan/explicit_layer.d appended; for explicit layers VK_LAYER_PATH replaces them and
/// VK_ADD_LAYER_PATH comes first; for implicit ones VK_IMPLICIT_LAYER_PATH and
/// VK_ADD_IMPLICIT_LAYER_PATH (loaders from 1.3.296) come first.
/// https://github.com/KhronosGroup/Vulkan-Loader/blob/v1.3.239/docs/LoaderLayerInterface.md#linux-layer-discovery
VulkanSearchPlan vulkan_layer_search_plan(const Environment& env, bool implicit);

}  // namespace gpudoctor

namespace gpudoctor {

/// A DRM render node (/dev/dri/renderD*) and the PCI vendor of the device behind it, when sysfs
/// says (a platform device, or an unreadable sysfs, leaves it unknown).
struct DrmRenderNode {
  std::string name;                    ///< "renderD128"
  std::optional<std::uint32_t> vendor;  ///< PCI vendor id from /sys/class/drm/<name>/device/vendor
};

/// Mesa's Vulkan drivers for GPUs: each enumerates only DRM render nodes of its PCI vendor, and
/// only of GPUs bound to certain kernel drivers (RADV needs amdgpu, not radeon,
/// https://docs.mesa3d.org/drivers/radv.html; ANV i915 or xe; hasvk i915; NVK nouveau).
struct MesaGpuDriver {
  std::string_view library;      ///< the file name
  std::string_view driver;       ///< "radv"
  std::string_view vendor_name;  ///< "AMD"
  std::uint16_t vendor;          ///< PCI vendor id
  std::string_view kernel[2];    ///< the kernel drivers it works with
};
const std::vector<MesaGpuDriver>& mesa_gpu_drivers();

/// Why the Vulkan driver in `library` (a path or file name) cannot find any device among
/// `nodes`, for the Mesa drivers that only enumerate DRM render nodes of one PCI vendor (radv,
/// anv, hasvk, NVK); nullopt when it might find one or is not such a driver. Loading such a
/// driver on a machine without its GPU costs a child process and tens of milliseconds for a
/// certain empty answer.
std::optional<std::string> vulkan_driver_without_device(std::string_view library,
                                                        const std::vector<DrmRenderNode>& nodes);

}  // namespace gpudoctor
