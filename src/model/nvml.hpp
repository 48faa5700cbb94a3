#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"

namespace gpudoctor {

struct NvmlProcess {
  std::uint32_t pid = 0;
  std::optional<std::uint64_t> used_memory_bytes;
  std::string kind;                        ///< "compute" or "graphics"
  std::optional<std::string> name;         ///< nvmlSystemGetProcessName
};
GPUDOCTOR_JSON(NvmlProcess, pid, used_memory_bytes, kind, name)

struct NvmlDevice {
  int index = 0;
  std::optional<std::string> name;
  std::optional<std::string> uuid;
  std::optional<std::string> serial;
  std::optional<std::string> pci_bus_id;           ///< "0000:01:00.0"
  std::optional<std::uint32_t> pci_device_id;      ///< 0x233010de as NVML packs it
  std::optional<std::uint32_t> pci_subsystem_id;   ///< 0x16c110de
  std::optional<std::string> vbios_version;
  std::optional<std::string> architecture;         ///< "hopper"
  std::optional<int> cc_major;
  std::optional<int> cc_minor;
  std::optional<std::uint64_t> memory_total_bytes;
  std::optional<std::uint64_t> memory_reserved_bytes;  ///< set aside by driver and firmware
  std::optional<std::uint64_t> memory_used_bytes;
  std::optional<std::uint64_t> memory_free_bytes;
  std::optional<int> temperature_c;
  std::optional<int> temperature_slowdown_c;       ///< NVML_TEMPERATURE_THRESHOLD_SLOWDOWN
  std::optional<int> temperature_shutdown_c;       ///< NVML_TEMPERATURE_THRESHOLD_SHUTDOWN
  std::optional<int> utilization_gpu_percent;      ///< nvmlDeviceGetUtilizationRates
  std::optional<int> utilization_memory_percent;
  std::optional<std::uint32_t> power_draw_mw;
  std::optional<std::uint32_t> power_limit_mw;
  std::optional<std::uint32_t> clock_graphics_mhz;
  std::optional<std::uint32_t> clock_sm_mhz;
  std::optional<std::uint32_t> clock_memory_mhz;
  std::optional<std::uint32_t> clock_graphics_max_mhz;
  std::optional<std::uint32_t> clock_sm_max_mhz;
  std::optional<std::uint32_t> clock_memory_max_mhz;
  std::optional<int> pcie_gen_current;
  std::optional<int> pcie_gen_max;
  std::optional<int> pcie_width_current;
  std::optional<int> pcie_width_max;
  std::optional<bool> ecc_enabled;
  std::optional<bool> ecc_pending;
  std::optional<std::uint64_t> ecc_corrected_volatile;
  std::optional<std::uint64_t> ecc_uncorrected_volatile;
  std::optional<std::uint64_t> ecc_corrected_aggregate;
  std::optional<std::uint64_t> ecc_uncorrected_aggregate;
  std::optional<bool> persistence_mode;
  std::optional<bool> mig_enabled;
  std::optional<bool> mig_pending;
  std::optional<std::string> compute_mode;         ///< "default", "exclusive_process", "prohibited"
  std::vector<std::string> throttle_reasons;       ///< "gpu_idle", "sw_power_cap", "hw_slowdown", …
  std::optional<std::uint64_t> clock_event_reasons;  ///< the bits as read; null when not read
  std::optional<std::uint32_t> retired_pages_single_bit;  ///< nvmlDeviceGetRetiredPages, cause 0
  std::optional<std::uint32_t> retired_pages_double_bit;  ///< cause 1
  std::optional<bool> retired_pages_pending;       ///< nvmlDeviceGetRetiredPagesPendingStatus
  std::optional<std::uint32_t> remapped_rows_correctable;  ///< nvmlDeviceGetRemappedRows
  std::optional<std::uint32_t> remapped_rows_uncorrectable;
  std::optional<bool> remapped_rows_pending;
  std::optional<bool> remapped_rows_failure;
  bool processes_read = false;                     ///< a process query answered
  std::vector<NvmlProcess> processes;
};
GPUDOCTOR_JSON(NvmlDevice, index, name, uuid, serial, pci_bus_id, pci_device_id,
               pci_subsystem_id, vbios_version, architecture, cc_major, cc_minor,
               memory_total_bytes, memory_reserved_bytes, memory_used_bytes,
               memory_free_bytes, temperature_c, power_draw_mw, power_limit_mw,
               clock_graphics_mhz, clock_sm_mhz, clock_memory_mhz, clock_graphics_max_mhz,
               clock_sm_max_mhz, clock_memory_max_mhz, pcie_gen_current, pcie_gen_max,
               pcie_width_current, pcie_width_max, ecc_enabled, ecc_pending,
               ecc_corrected_volatile, ecc_uncorrected_volatile, ecc_corrected_aggregate,
               ecc_uncorrected_aggregate, persistence_mode, mig_enabled, mig_pending,
               compute_mode, throttle_reasons, clock_event_reasons, temperature_slowdown_c,
               temperature_shutdown_c, utilization_gpu_percent, utilization_memory_percent,
               retired_pages_single_bit, retired_pages_double_bit, retired_pages_pending,
               remapped_rows_correctable, remapped_rows_uncorrectable, remapped_rows_pending,
               remapped_rows_failure, processes_read, processes)

/// NVML through libnvidia-ml.so.1, opened at run time in a child.
struct NvmlInfo {
  std::optional<std::string> library;
  std::optional<std::string> init_error;          ///< "nvmlInit_v2 returned 18 (NVML_ERROR_LIB_RM_VERSION_MISMATCH)"
  std::optional<int> init_code;
  std::optional<std::string> init_error_text;     ///< nvmlErrorString's words for init_code
  std::vector<std::string> load_errors;           ///< dlerror() for each name tried, in order
  std::optional<std::string> driver_version;      ///< "580.65.06"
  std::optional<std::string> nvml_version;        ///< "13.580.65.06"
  std::optional<int> cuda_driver_version;         ///< 13000
  std::vector<NvmlDevice> devices;
};
GPUDOCTOR_JSON(NvmlInfo, library, init_error, init_code, init_error_text, load_errors,
               driver_version, nvml_version, cuda_driver_version, devices)

}  // namespace gpudoctor
