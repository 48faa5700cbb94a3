#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json.hpp"
#include "model/access.hpp"

namespace gpudoctor {

/// One memory bank of a KFD node: nodes/<N>/mem_banks/<M>/properties.
struct KfdMemoryBank {
  std::optional<std::uint32_t> heap_type;
  std::optional<std::uint64_t> size_bytes;
  std::optional<std::uint32_t> width_bits;
  std::optional<std::uint32_t> mem_clk_max_mhz;
};
GPUDOCTOR_JSON(KfdMemoryBank, heap_type, size_bytes, width_bits, mem_clk_max_mhz)

/// A GPU node of the KFD topology (/sys/class/kfd/kfd/topology/nodes/<N>), read without ROCm.
struct KfdNode {
  int node = 0;
  std::optional<std::uint32_t> gpu_id;
  std::optional<std::string> name;                  ///< nodes/<N>/name
  std::optional<std::uint32_t> gfx_target_version;  ///< 90010 (newer kernels only)
  std::optional<std::string> gfx_target;            ///< decoded: "gfx90a"
  std::optional<std::uint32_t> vendor_id;
  std::optional<std::uint32_t> device_id;
  std::optional<std::string> pci_address;           ///< from domain and location_id
  std::optional<std::uint32_t> simd_count;
  std::optional<std::uint32_t> simd_per_cu;
  std::optional<std::uint32_t> compute_units;       ///< simd_count / simd_per_cu
  std::optional<std::uint32_t> array_count;
  std::optional<std::uint32_t> simd_arrays_per_engine;
  std::optional<std::uint32_t> cu_per_simd_array;
  std::optional<std::uint32_t> wave_front_size;
  std::optional<std::uint32_t> max_waves_per_simd;
  std::optional<std::uint32_t> lds_size_kb;
  std::optional<std::uint32_t> num_xcc;
  std::optional<std::uint32_t> max_engine_clock_mhz;  ///< max_engine_clk_fcompute
  std::optional<std::uint32_t> fw_version;
  std::optional<std::uint32_t> drm_render_minor;
  std::optional<std::string> render_node;           ///< "/dev/dri/renderD128"
  std::vector<KfdMemoryBank> memory_banks;
  std::optional<std::uint64_t> memory_bytes;        ///< all banks together
  std::optional<std::uint32_t> caches;              ///< entries under caches/
  std::optional<std::uint32_t> io_links;            ///< entries under io_links/
  /// HSA_OVERRIDE_GFX_VERSION_<node>: newer libhsakmt reads it for this node before the
  /// process-wide HSA_OVERRIDE_GFX_VERSION.
  std::optional<std::string> hsa_override_gfx_version;
};
GPUDOCTOR_JSON(KfdNode, node, gpu_id, name, gfx_target_version, gfx_target, vendor_id, device_id,
               pci_address, simd_count, simd_per_cu, compute_units, array_count,
               simd_arrays_per_engine, cu_per_simd_array, wave_front_size, max_waves_per_simd,
               lds_size_kb, num_xcc, max_engine_clock_mhz, fw_version, drm_render_minor,
               render_node, memory_banks, memory_bytes, caches, io_links, hsa_override_gfx_version)

/// A ROCm installation: /opt/rocm, /opt/rocm-<version>, ROCM_PATH.
struct RocmInstall {
  std::string path;                          ///< "/opt/rocm-6.3.0"
  std::optional<std::string> real_path;      ///< after following links
  std::optional<std::string> version;        ///< "6.3.0-39"
  std::optional<std::string> version_file;   ///< ".info/version", ".info/version-dev", …
  bool default_link = false;                 ///< /opt/rocm is, or points to, this one
};
GPUDOCTOR_JSON(RocmInstall, path, real_path, version, version_file, default_link)

/// A HIP call that failed: "hipGetDeviceCount returned 100 (hipErrorNoDevice)".
struct HipError {
  std::string call;
  int code = 0;
  std::optional<std::string> name;
  std::optional<std::string> text;
};
GPUDOCTOR_JSON(HipError, call, code, name, text)

/// One device as libamdhip64 shows it (hipDeviceGetAttribute and friends).
struct HipDevice {
  int ordinal = 0;
  std::optional<std::string> name;
  std::optional<std::string> pci_bus_id;        ///< "0000:03:00.0"
  std::optional<std::uint64_t> total_memory_bytes;
  std::optional<int> arch_major;                ///< hipDeviceAttributeComputeCapabilityMajor
  std::optional<int> arch_minor;
  std::optional<int> multiprocessors;           ///< CUs, or WGPs in WGP mode
  std::optional<int> physical_multiprocessors;  ///< hipDeviceAttributePhysicalMultiProcessorCount
  std::optional<int> clock_khz;
  std::optional<int> memory_clock_khz;
  std::optional<int> memory_bus_width_bits;
  std::optional<int> l2_cache_bytes;
  std::optional<int> warp_size;
  std::optional<int> max_threads_per_block;
  std::optional<int> shared_memory_per_block_bytes;
  std::optional<bool> integrated;
  std::optional<bool> large_bar;
  std::optional<int> asic_revision;
};
GPUDOCTOR_JSON(HipDevice, ordinal, name, pci_bus_id, total_memory_bytes, arch_major, arch_minor,
               multiprocessors, physical_multiprocessors, clock_khz, memory_clock_khz,
               memory_bus_width_bits, l2_cache_bytes, warp_size, max_threads_per_block,
               shared_memory_per_block_bytes, integrated, large_bar, asic_revision)

/// What the isolated child saw through libamdhip64.so.
struct HipInfo {
  std::optional<std::string> library;
  std::vector<std::string> load_errors;
  std::optional<int> runtime_version;           ///< hipRuntimeGetVersion: 60342134
  std::optional<std::string> runtime_version_text;  ///< "6.3.42134"
  std::optional<int> driver_version;            ///< hipDriverGetVersion
  std::optional<HipError> error;
  std::vector<HipDevice> devices;
};
GPUDOCTOR_JSON(HipInfo, library, load_errors, runtime_version, runtime_version_text,
               driver_version, error, devices)

/// AMD ROCm as files show it (KFD topology, amdgpu module, installs, the environment), plus what
/// HIP reports when it could be loaded. Who may open /dev/kfd and the render nodes is the
/// host's (HostInfo::access).
struct RocmInfo {
  bool kfd_topology = false;                    ///< /sys/class/kfd/kfd/topology/nodes is there
  std::vector<KfdNode> nodes;                   ///< the GPU nodes only
  int cpu_nodes = 0;
  bool modules_listed = false;  ///< /proc/modules or /sys/module could be read (under the root)
  std::optional<std::string> amdgpu_module;     ///< "loaded" (/proc/modules) or "built-in"
  std::optional<std::string> amdgpu_initstate;  ///< /sys/module/amdgpu/initstate: "live"
  std::optional<std::string> amdgpu_version;    ///< /sys/module/amdgpu/version (DKMS builds)
  /// lsmod is installed (/sbin, /usr/sbin, /bin, /usr/bin): rocminfo before ROCm 5.5 runs
  /// `lsmod | grep amdgpu` to say whether the driver is loaded. Null when not looked for.
  std::optional<bool> lsmod;
  std::vector<RocmInstall> installs;
  std::optional<std::string> rocm_path;                 ///< ROCM_PATH
  std::optional<std::string> hsa_override_gfx_version;  ///< HSA_OVERRIDE_GFX_VERSION
  std::optional<std::string> rocr_visible_devices;
  std::optional<std::string> hip_visible_devices;
  /// CUDA_VISIBLE_DEVICES as HIP reads it (where HIP_VISIBLE_DEVICES is unset it selects the
  /// AMD GPUs too: the HIP environment variables reference).
  std::optional<std::string> cuda_visible_devices;
  std::optional<HipInfo> hip;                   ///< null under --sysroot
  /// device_nodes, dev_listed and account as a report written before they moved to the host
  /// kept them here; not written. read_snapshot moves them to host.access (moved_members.hpp).
  std::optional<HostAccess> older_access;
};
GPUDOCTOR_JSON(RocmInfo, kfd_topology, nodes, cpu_nodes, modules_listed, amdgpu_module,
               amdgpu_initstate, amdgpu_version, lsmod, installs,
               rocm_path, hsa_override_gfx_version, rocr_visible_devices, hip_visible_devices,
               cuda_visible_devices, hip)

/// The members a report written before the access facts moved to the host kept in rocm: the
/// JSON model reader reads each into older_access (its hook for members that moved).
template <typename Visit>
void visit_moved_fields(RocmInfo& r, std::string_view key, Visit&& visit) {
  if (key != "device_nodes" && key != "dev_listed" && key != "account") return;
  HostAccess& a = r.older_access ? *r.older_access : r.older_access.emplace();
  if (key == "device_nodes") {
    visit("device_nodes", a.device_nodes);
  } else if (key == "dev_listed") {
    visit("dev_listed", a.dev_listed);
  } else {
    visit("account", a.account);
  }
}

}  // namespace gpudoctor
