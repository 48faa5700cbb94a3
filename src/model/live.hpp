#pragma once
// The GPUs' live state, vendor-neutral: what `nvidia-smi` and amdgpu's sysfs files show of a GPU
// at this moment (memory held, how busy, how hot, clocks and why they are held down, memory
// errors, who holds it). Every figure is optional: one the vendor library or the driver did not
// give stays absent, never 0.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"

namespace gpudoctor {

/// A process holding a GPU (NVML's running compute and graphics processes).
struct LiveProcess {
  std::uint32_t pid = 0;
  std::optional<std::string> process_name;     ///< nvmlSystemGetProcessName: a path or a name
  std::optional<std::uint64_t> used_memory_bytes;
  std::string kind;                            ///< "compute" or "graphics"
};
GPUDOCTOR_JSON(LiveProcess, pid, process_name, used_memory_bytes, kind)

struct LiveGpu {
  std::string vendor;                          ///< "nvidia", "amd"
  std::string source;                          ///< "nvml", "amdgpu-sysfs"
  int index = 0;                               ///< NVML's index; the DRM card number for amdgpu
  std::optional<std::string> name;
  std::optional<std::string> pci_bus_id;       ///< "0000:19:00.0"
  std::optional<std::uint64_t> memory_total_bytes;
  std::optional<std::uint64_t> memory_used_bytes;
  std::optional<std::uint64_t> memory_free_bytes;
  std::optional<int> utilization_gpu_percent;     ///< time a kernel ran (NVML), gpu_busy_percent
  std::optional<int> utilization_memory_percent;  ///< time memory was read or written
  std::optional<int> temperature_c;
  std::optional<int> temperature_slowdown_c;   ///< NVML's slowdown threshold; amdgpu temp1_crit
  std::optional<int> temperature_shutdown_c;   ///< NVML's shutdown threshold; amdgpu temp1_emergency
  std::optional<std::uint32_t> power_draw_mw;
  std::optional<std::uint32_t> power_limit_mw;
  std::optional<std::uint32_t> clock_graphics_mhz;
  std::optional<std::uint32_t> clock_graphics_max_mhz;
  std::optional<std::uint32_t> clock_memory_mhz;
  std::optional<std::uint32_t> clock_memory_max_mhz;
  /// NVML's clock event reasons ("gpu_idle", "sw_power_cap", "hw_thermal_slowdown", …); null
  /// when not read (amdgpu's sysfs has none), empty when none is active.
  std::optional<std::vector<std::string>> throttle_reasons;
  std::optional<bool> ecc_enabled;
  std::optional<std::uint64_t> ecc_corrected_volatile;    ///< since the driver loaded
  std::optional<std::uint64_t> ecc_uncorrected_volatile;
  std::optional<std::uint64_t> ecc_uncorrected_aggregate; ///< over the GPU's life
  std::optional<std::uint32_t> retired_pages_single_bit;  ///< multiple single-bit ECC errors
  std::optional<std::uint32_t> retired_pages_double_bit;
  std::optional<bool> retired_pages_pending;   ///< retirement waits for a reboot / reset
  std::optional<std::uint32_t> remapped_rows_correctable;
  std::optional<std::uint32_t> remapped_rows_uncorrectable;
  std::optional<bool> remapped_rows_pending;   ///< a remap waits for a GPU reset
  std::optional<bool> remapped_rows_failure;   ///< a remap failed once
  /// The processes holding it; null when they were not read (amdgpu's sysfs does not list them).
  std::optional<std::vector<LiveProcess>> processes;
};
GPUDOCTOR_JSON(LiveGpu, vendor, source, index, name, pci_bus_id, memory_total_bytes,
               memory_used_bytes, memory_free_bytes, utilization_gpu_percent,
               utilization_memory_percent, temperature_c, temperature_slowdown_c,
               temperature_shutdown_c, power_draw_mw, power_limit_mw, clock_graphics_mhz,
               clock_graphics_max_mhz, clock_memory_mhz, clock_memory_max_mhz, throttle_reasons,
               ecc_enabled, ecc_corrected_volatile, ecc_uncorrected_volatile,
               ecc_uncorrected_aggregate, retired_pages_single_bit, retired_pages_double_bit,
               retired_pages_pending, remapped_rows_correctable, remapped_rows_uncorrectable,
               remapped_rows_pending, remapped_rows_failure, processes)

/// Every GPU's live state, and what could not be read.
struct LiveState {
  /// Read from this machine at this moment (false: a --sysroot tree's files, which show the
  /// state of whenever they were copied; the checks judge only a live one).
  bool live = true;
  std::vector<LiveGpu> gpus;
  std::vector<std::string> not_examined;       ///< "NVML: not loaded under --sysroot", …
};
GPUDOCTOR_JSON(LiveState, live, gpus, not_examined)

}  // namespace gpudoctor
