#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "model/smoke.hpp"

namespace gpudoctor {

/// The source of a Mac's one OpenCL implementation, Apple's framework, which is not an ICD.
inline constexpr const char* kOpenClAppleFramework = "OpenCL.framework";
/// The source of an ICD, and the library of a platform, read from a pasted clinfo.
inline constexpr const char* kOpenClPastedClinfo = "(pasted clinfo)";

/// One ICD registration: a line in an .icd file, or an entry of OCL_ICD_FILENAMES.
struct OpenClIcd {
  /// "/etc/OpenCL/vendors", "OCL_ICD_VENDORS", "OPENCL_VENDOR_PATH", "OCL_ICD_FILENAMES",
  /// kOpenClAppleFramework on a Mac, or kOpenClPastedClinfo
  std::string source;
  std::optional<std::string> file;      ///< the .icd file, absent for OCL_ICD_FILENAMES entries
  /// As written: "libpocl.so.2" or a path; empty when the .icd file names none.
  std::string library;
  std::optional<std::string> resolved;  ///< where the dynamic loader would find it, if anywhere
  /// dlopen + clIcdGetPlatformIDsKHR succeeded (live only; null when its probe crashed or hung)
  std::optional<bool> loads;
  std::optional<std::string> error;     ///< why the file or library is unusable
};
GPUDOCTOR_JSON(OpenClIcd, source, file, library, resolved, loads, error)

struct OpenClDevice {
  std::optional<std::string> name;
  std::optional<std::string> vendor;
  std::optional<std::uint32_t> vendor_id;
  std::optional<std::string> type;             ///< "GPU", "CPU", "ACCELERATOR", "CUSTOM"
  std::optional<std::string> version;          ///< "OpenCL 3.0 PoCL …"
  std::optional<std::string> driver_version;
  std::optional<std::string> opencl_c_version;
  std::optional<std::string> profile;
  std::optional<bool> available;
  std::optional<bool> compiler_available;
  std::optional<std::uint32_t> compute_units;
  std::optional<std::uint32_t> max_clock_mhz;
  std::optional<std::uint64_t> global_mem_bytes;
  std::optional<std::uint64_t> global_mem_cache_bytes;
  std::optional<std::uint64_t> local_mem_bytes;
  std::optional<std::string> local_mem_type;   ///< "local", "global"
  std::optional<std::uint64_t> constant_mem_bytes;
  std::optional<std::uint64_t> max_alloc_bytes;
  std::optional<std::uint64_t> max_work_group_size;
  std::vector<std::uint64_t> max_work_item_sizes;
  std::optional<std::uint32_t> preferred_vector_width_float;
  std::optional<bool> fp16;
  std::optional<bool> fp64;
  std::optional<bool> unified_memory;          ///< CL_DEVICE_HOST_UNIFIED_MEMORY
  std::optional<std::string> pci_bus_id;       ///< "0000:01:00.0" from cl_khr_pci_bus_info / NV / AMD
  std::optional<std::string> uuid;             ///< cl_khr_device_uuid, hex
  std::vector<std::string> extensions;
};
GPUDOCTOR_JSON(OpenClDevice, name, vendor, vendor_id, type, version, driver_version,
               opencl_c_version, profile, available, compiler_available, compute_units,
               max_clock_mhz, global_mem_bytes, global_mem_cache_bytes, local_mem_bytes,
               local_mem_type, constant_mem_bytes, max_alloc_bytes, max_work_group_size,
               max_work_item_sizes, preferred_vector_width_float, fp16, fp64, unified_memory,
               pci_bus_id, uuid, extensions)

struct OpenClPlatform {
  std::optional<std::string> name;
  std::optional<std::string> vendor;
  std::optional<std::string> version;
  std::optional<std::string> profile;
  std::optional<std::string> icd_suffix;
  std::vector<std::string> extensions;
  std::string library;                          ///< the ICD library this platform came from
  std::vector<OpenClDevice> devices;
};
GPUDOCTOR_JSON(OpenClPlatform, name, vendor, version, profile, icd_suffix, extensions, library,
               devices)

struct OpenClInfo {
  std::optional<std::string> loader;            ///< libOpenCL.so.1 as resolved, if found
  /// From clGetICDLoaderInfoOCLICD (live only): "OpenCL ICD Loader" is ocl-icd, the Khronos
  /// loader says "Khronos OpenCL ICD Loader".
  std::optional<std::string> loader_name;
  std::optional<std::string> loader_version;    ///< "2.3.1" (live only)
  /// The directory searched for .icd files; when OCL_ICD_VENDORS names one .icd file or a
  /// library instead (see vendors_env), what it names.
  std::string vendors_dir;
  /// "OCL_ICD_VENDORS" or "OPENCL_VENDOR_PATH" when one of them chose vendors_dir.
  std::optional<std::string> vendors_env;
  /// The .icd files of /etc/OpenCL/vendors that vendors_env keeps the loader from reading: it
  /// reads the variable's directory (or file) instead.
  std::vector<std::string> hidden_icds;
  std::vector<OpenClIcd> icds;
  /// RUSTICL_ENABLE as this process has it: the Gallium drivers Mesa's rusticl advertises
  /// devices for (https://docs.mesa3d.org/rusticl.html); null when unset.
  std::optional<std::string> rusticl_enable;
  std::vector<OpenClPlatform> platforms;
  std::vector<SmokeResult> smoke;               ///< one per device, when check ran the smoke test
};
GPUDOCTOR_JSON(OpenClInfo, loader, loader_name, loader_version, vendors_dir, vendors_env,
               hidden_icds, icds, rusticl_enable,
               platforms, smoke)

/// How smoke results name an OpenCL device: "<device name> on <platform name>".
inline std::string opencl_smoke_label(const OpenClPlatform& platform, std::size_t device) {
  return platform.devices[device].name.value_or("device " + std::to_string(device)) +
         (platform.name ? " on " + *platform.name : "");
}

}  // namespace gpudoctor
