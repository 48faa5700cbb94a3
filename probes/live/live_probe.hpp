#pragma once
// The GPUs' live state (model/live.hpp): NVML's answers projected per GPU, and amdgpu's sysfs
// files read through the probe's root (so a --sysroot tree shows what its files hold).
#include "model/level_zero.hpp"
#include "model/live.hpp"
#include "model/nvml.hpp"
#include "model/snapshot.hpp"
#include "probe_context.hpp"

namespace gpudoctor::live {

/// Every amdgpu card under <root>/sys/class/drm: VRAM used and total, gpu_busy_percent,
/// mem_busy_percent, the current and highest pp_dpm_sclk / pp_dpm_mclk level, and the hwmon
/// temperature (temp1_input, temp1_crit, temp1_emergency) and power (power1_average,
/// power1_cap). A file that is absent or unreadable leaves its figure absent.
std::vector<LiveGpu> read_amdgpu(const Root& root);

/// NVML's devices as live GPUs (no re-reading: the NVML child already asked).
std::vector<LiveGpu> from_nvml(const NvmlInfo& nvml);

/// Level Zero's root devices whose Sysman state the Level Zero children read (model/level_zero.hpp
/// LevelZeroSysman), as live GPUs: memory, temperature, GPU clock and its maximum, engine busy.
std::vector<LiveGpu> from_level_zero(const LevelZeroInfo& lz);

/// The section: NVML's GPUs (when NVML answered) and amdgpu's (when `amd` is asked), and what
/// was not examined and why.
LiveState assemble(const ProbeContext& ctx, const Snapshot& snap, bool amd);

/// The current and the highest level of a pp_dpm_* file ("0: 300Mhz\n1: 1340Mhz *\n"): the
/// line marked '*' and the last line, in MHz.
struct DpmLevels {
  std::optional<std::uint32_t> current_mhz;
  std::optional<std::uint32_t> max_mhz;
};
DpmLevels parse_pp_dpm(std::string_view text);

}  // namespace gpudoctor::live
