#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "model/smoke.hpp"

namespace gpudoctor {

/// One Vulkan driver manifest (ICD JSON).
struct VulkanManifest {
  std::string source;                    ///< "/usr/share/vulkan/icd.d", "VK_DRIVER_FILES", …
  std::string file;
  std::optional<std::string> file_format_version;
  std::optional<std::string> library_path;  ///< ICD.library_path as written
  std::optional<std::string> resolved;      ///< where that library is, if found
  std::optional<std::string> api_version;   ///< ICD.api_version
  std::optional<bool> is_portability_driver;  ///< listed only with the portability flag
  std::optional<std::string> error;         ///< unreadable JSON, missing library, …
  /// Why its driver was not loaded although it could be: it can find no device here.
  std::optional<std::string> not_loaded;
};
GPUDOCTOR_JSON(VulkanManifest, source, file, file_format_version, library_path, resolved,
               api_version, is_portability_driver, error, not_loaded)

/// One implicit layer (an implicit_layer.d manifest): the loader puts it between every Vulkan
/// program and the drivers unless its disable variable or VK_LOADER_LAYERS_DISABLE says not to.
struct VulkanLayer {
  std::string source;                        ///< the directory or variable it was found through
  std::string file;
  std::optional<std::string> name;           ///< "VK_LAYER_MESA_device_select"
  std::optional<std::string> library_path;   ///< as written; none for a meta-layer
  std::optional<std::string> resolved;       ///< where that library is, if found
  std::optional<std::string> api_version;
  std::optional<std::string> enable_environment;   ///< "MANGOHUD=1": loaded only when so
  std::optional<std::string> disable_environment;  ///< "NODEVICE_SELECT": not loaded when set
  bool active = false;                       ///< the loader would load it in this environment
  std::optional<std::string> inactive_because;
  std::optional<std::string> error;          ///< unreadable manifest, library not found, …
};
GPUDOCTOR_JSON(VulkanLayer, source, file, name, library_path, resolved, api_version,
               enable_environment, disable_environment, active, inactive_because, error)

struct VulkanMemoryHeap {
  std::uint64_t size_bytes = 0;
  bool device_local = false;
};
GPUDOCTOR_JSON(VulkanMemoryHeap, size_bytes, device_local)

struct VulkanMemoryType {
  std::uint32_t heap_index = 0;
  std::vector<std::string> flags;        ///< "device_local", "host_visible", …
};
GPUDOCTOR_JSON(VulkanMemoryType, heap_index, flags)

struct VulkanQueueFamily {
  std::uint32_t count = 0;
  std::vector<std::string> flags;        ///< "graphics", "compute", "transfer", …
  std::optional<std::uint32_t> timestamp_valid_bits;
};
GPUDOCTOR_JSON(VulkanQueueFamily, count, flags, timestamp_valid_bits)

struct VulkanDevice {
  std::string manifest;                  ///< the manifest file of the driver that reported it
  std::optional<std::string> name;
  std::optional<std::string> type;       ///< "discrete_gpu", "integrated_gpu", "virtual_gpu", "cpu", "other"
  std::optional<std::uint32_t> vendor_id;
  std::optional<std::uint32_t> device_id;
  std::optional<std::string> api_version;        ///< "1.3.230"
  std::optional<std::uint32_t> driver_version_raw;
  std::optional<std::string> driver_version;     ///< decoded per vendor: "535.104.5" for NVIDIA
  std::optional<std::uint32_t> driver_id;        ///< VkDriverId
  std::optional<std::string> driver_name;
  std::optional<std::string> driver_info;
  std::optional<std::string> conformance_version;
  std::optional<std::string> device_uuid;        ///< hex
  std::optional<std::string> driver_uuid;        ///< hex
  std::optional<std::string> pci_bus_id;         ///< VK_EXT_pci_bus_info: "0000:01:00.0"
  std::vector<VulkanMemoryHeap> memory_heaps;
  std::vector<VulkanMemoryType> memory_types;
  std::vector<VulkanQueueFamily> queue_families;
  std::optional<std::uint32_t> subgroup_size;
  std::optional<std::uint32_t> max_compute_shared_memory_bytes;
  std::vector<std::uint32_t> max_compute_work_group_count;
  std::optional<std::uint32_t> max_compute_work_group_invocations;
  std::vector<std::uint32_t> max_compute_work_group_size;
  std::optional<std::uint32_t> max_storage_buffer_range;
  std::optional<bool> shader_float64;
  std::optional<bool> shader_float16;
};
GPUDOCTOR_JSON(VulkanDevice, manifest, name, type, vendor_id, device_id, api_version,
               driver_version_raw, driver_version, driver_id, driver_name, driver_info,
               conformance_version, device_uuid, driver_uuid, pci_bus_id, memory_heaps,
               memory_types, queue_families, subgroup_size, max_compute_shared_memory_bytes,
               max_compute_work_group_count, max_compute_work_group_invocations,
               max_compute_work_group_size, max_storage_buffer_range, shader_float64,
               shader_float16)

struct VulkanInfo {
  std::optional<std::string> loader;             ///< libvulkan.so.1 as resolved, if found
  std::optional<std::string> instance_version;   ///< "1.3.239"
  /// VK_DRIVER_FILES or VK_ICD_FILENAMES when set: it replaced the standard search.
  std::optional<std::string> driver_override;
  std::vector<std::string> search_paths;         ///< where manifests were looked for, in order
  std::vector<VulkanManifest> manifests;
  std::vector<VulkanDevice> devices;
  std::vector<SmokeResult> smoke;                ///< one per device, when check ran the smoke test
  std::vector<std::string> layer_search_paths;   ///< where implicit layers were looked for
  std::vector<VulkanLayer> implicit_layers;
  /// The variables that switch layers and device selection (VK_LOADER_LAYERS_DISABLE, each
  /// layer's enable and disable variable, MESA_VK_DEVICE_SELECT, …), where set.
  std::map<std::string, std::string> layer_environment;
};
GPUDOCTOR_JSON(VulkanInfo, loader, instance_version, driver_override, search_paths, manifests,
               devices, smoke, layer_search_paths, implicit_layers, layer_environment)

}  // namespace gpudoctor
