// The GPUs' live state (model/live.hpp) where it explains a failure: memory another process
// holds, clocks held down by heat or power, memory pages or rows waiting for a reset, and
// uncorrectable ECC errors. A live fact only: a --sysroot tree's files or a report read back
// show an old moment, so these checks examine only a snapshot of this machine now.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "checks/live_checks.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// The live state to judge: a snapshot of this machine, taken now.
const LiveState* live_state_now(const Snapshot& s) {
  if (s.origin != Origin::live || !s.live || !s.live_state || !s.live_state->live) return nullptr;
  return &*s.live_state;
}

std::string live_gpu_label(const LiveGpu& g) {
  std::string label = "GPU " + std::to_string(g.index);
  if (g.name) label += " (" + *g.name + ")";
  if (g.pci_bus_id) label += " at " + *g.pci_bus_id;
  return label;
}

std::string live_mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

std::string live_process_label(const LiveProcess& p) {
  return "pid " + std::to_string(p.pid) + (p.process_name ? " " + *p.process_name : "");
}

void add_memory_evidence(const LiveGpu& g, Finding& f) {
  if (g.memory_used_bytes && g.memory_total_bytes) {
    f.evidence.push_back("memory: " + live_mib(*g.memory_used_bytes) + " used of " +
                         live_mib(*g.memory_total_bytes) +
                         (g.memory_free_bytes ? ", " + live_mib(*g.memory_free_bytes) + " free"
                                              : ""));
  }
  f.evidence.push_back("read through: " + g.source);
}

}  // namespace

void check_live_memory_held(const CheckSpec& self, const CheckInput& in,
                            std::vector<Finding>& out) {
  const LiveState* live = live_state_now(in.snap);
  if (live == nullptr) return;
  for (const auto& g : live->gpus) {
    if (!g.memory_total_bytes || *g.memory_total_bytes == 0) continue;
    const double total = static_cast<double>(*g.memory_total_bytes);
    if (g.processes) {
      // The processes NVML lists, largest first; those with no figure (NVML's "N/A" under
      // some drivers and in containers) cannot be weighed.
      std::vector<const LiveProcess*> held;
      std::uint64_t sum = 0;
      for (const auto& p : *g.processes) {
        if (!p.used_memory_bytes) continue;
        held.push_back(&p);
        sum += *p.used_memory_bytes;
      }
      if (held.empty() || static_cast<double>(sum) < kLiveMemoryHeldShare * total) continue;
      std::sort(held.begin(), held.end(), [](const LiveProcess* a, const LiveProcess* b) {
        return *a->used_memory_bytes > *b->used_memory_bytes;
      });
      const LiveProcess& top = *held.front();
      const int pct = static_cast<int>(100.0 * static_cast<double>(sum) / total + 0.5);
      Finding f = make_finding(
          self, Severity::warn,
          live_gpu_label(g) + ": " + std::to_string(pct) + "% of its memory is held by " +
              (held.size() == 1 ? live_process_label(top)
                                : std::to_string(held.size()) + " processes, the most by " +
                                      live_process_label(top)) +
              "; a program started on it now can run out of memory");
      for (const auto* p : held) {
        f.evidence.push_back("process: " + live_process_label(*p) + ", " +
                             live_mib(*p->used_memory_bytes) + " (" + p->kind + ")");
      }
      add_memory_evidence(g, f);
      f.fix = "stop that process if it is no longer needed (kill " + std::to_string(top.pid) +
              "), wait for it to finish, or run on another GPU (CUDA_VISIBLE_DEVICES)";
      out.push_back(std::move(f));
      continue;
    }
    // No process list (amdgpu's sysfs has none): only memory nearly full is worth a word.
    if (!g.memory_used_bytes) continue;
    if (static_cast<double>(*g.memory_used_bytes) < kLiveMemoryFullShare * total) continue;
    const int pct = static_cast<int>(100.0 * static_cast<double>(*g.memory_used_bytes) / total);
    Finding f = make_finding(self, Severity::warn,
                             live_gpu_label(g) + ": " + std::to_string(pct) +
                                 "% of its memory is in use; which processes hold it was not "
                                 "read, and a program started on it now can run out of memory");
    add_memory_evidence(g, f);
    f.fix = g.vendor == "amd"
                ? "find the holder (amdgpu_top, or `fuser -v /dev/dri/renderD*` and "
                  "/dev/kfd), stop it, or run on another GPU (HIP_VISIBLE_DEVICES)"
            : g.vendor == "intel"
                ? "find the holder (xpu-smi ps, or `fuser -v /dev/dri/renderD*`), stop it, or "
                  "run on another GPU (ONEAPI_DEVICE_SELECTOR or ZE_AFFINITY_MASK)"
                : "find the holder (nvidia-smi), stop it, or run on another GPU";
    out.push_back(std::move(f));
  }
}

void check_live_throttled(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const LiveState* live = live_state_now(in.snap);
  if (live == nullptr) return;
  // Clock event reasons that mean heat or power is holding the clocks down (nvml.h); the
  // others (idle, application clocks, sync boost, display clocks) are settings or rest.
  static const std::vector<std::string> kThermal = {"hw_thermal_slowdown", "sw_thermal_slowdown"};
  static const std::vector<std::string> kHardware = {"hw_slowdown", "hw_power_brake_slowdown"};
  for (const auto& g : live->gpus) {
    std::vector<std::string> thermal;
    std::vector<std::string> power;
    std::vector<std::string> hardware;
    for (const auto& r : g.throttle_reasons.value_or(std::vector<std::string>{})) {
      if (std::find(kThermal.begin(), kThermal.end(), r) != kThermal.end()) thermal.push_back(r);
      if (std::find(kHardware.begin(), kHardware.end(), r) != kHardware.end()) {
        hardware.push_back(r);
      }
      if (r == "sw_power_cap") power.push_back(r);
    }
    const bool hot = g.temperature_c && g.temperature_slowdown_c &&
                     *g.temperature_c >= *g.temperature_slowdown_c;
    if (thermal.empty() && hardware.empty() && power.empty() && !hot) continue;
    std::string why;
    Severity sev = Severity::warn;
    if (!thermal.empty() || hot) {
      why = "slowed down by heat";
    } else if (!hardware.empty()) {
      why = "slowed down by the hardware (heat, or the power supply's brake)";
    } else {
      // The software power cap alone is the normal state of a GPU working at its power limit.
      why = "held at its power limit";
      sev = Severity::info;
    }
    std::string title = live_gpu_label(g) + " is " + why;
    if (g.clock_graphics_mhz && g.clock_graphics_max_mhz) {
      title += ": graphics clock " + std::to_string(*g.clock_graphics_mhz) + " of " +
               std::to_string(*g.clock_graphics_max_mhz) + " MHz";
    }
    Finding f = make_finding(self, sev, title);
    if (g.throttle_reasons && !g.throttle_reasons->empty()) {
      f.evidence.push_back("clock event reasons: " + join(*g.throttle_reasons, ", "));
    }
    if (g.temperature_c) {
      f.evidence.push_back("temperature: " + std::to_string(*g.temperature_c) + " C" +
                           (g.temperature_slowdown_c
                                ? ", slowdown at " + std::to_string(*g.temperature_slowdown_c) +
                                      " C"
                                : ""));
    }
    if (g.power_draw_mw && g.power_limit_mw) {
      f.evidence.push_back("power: " + std::to_string(*g.power_draw_mw / 1000) + " W of " +
                           std::to_string(*g.power_limit_mw / 1000) + " W");
    }
    f.evidence.push_back("read through: " + g.source);
    f.fix = sev == Severity::info
                ? "nothing to do unless it should draw more: the power limit is set with "
                  "`nvidia-smi -pl`"
                : "check the cooling (fans, airflow, dust, the case or rack's intake) and the "
                  "power cables; benchmark figures taken now are lower than the GPU's own";
    out.push_back(std::move(f));
  }
}

void check_live_pending_reset(const CheckSpec& self, const CheckInput& in,
                              std::vector<Finding>& out) {
  const LiveState* live = live_state_now(in.snap);
  if (live == nullptr) return;
  for (const auto& g : live->gpus) {
    const bool pages = g.retired_pages_pending.value_or(false);
    const bool rows = g.remapped_rows_pending.value_or(false);
    const bool failed = g.remapped_rows_failure.value_or(false);
    if (!pages && !rows && !failed) continue;
    Finding f;
    if (failed) {
      f = make_finding(self, Severity::fail,
                       live_gpu_label(g) + ": a row remapping failed; its memory has errors "
                                           "it can no longer set aside");
      f.fix = "drain the GPU and have it replaced: NVIDIA treats a remapping failure as a "
              "reason to return the board";
    } else {
      f = make_finding(self, Severity::warn,
                       live_gpu_label(g) + ": " +
                           (rows ? std::string("remapped memory rows wait")
                                 : std::string("retired memory pages wait")) +
                           " for a GPU reset to take effect");
      f.fix = "when no process uses it, reset the GPU (sudo nvidia-smi -r -i " +
              std::to_string(g.index) + ") or reboot";
    }
    if (g.retired_pages_pending) {
      f.evidence.push_back(std::string("retired pages pending: ") + (pages ? "yes" : "no"));
    }
    if (g.retired_pages_single_bit || g.retired_pages_double_bit) {
      f.evidence.push_back("retired pages: " +
                           std::to_string(g.retired_pages_single_bit.value_or(0)) +
                           " for single-bit errors, " +
                           std::to_string(g.retired_pages_double_bit.value_or(0)) +
                           " for double-bit errors");
    }
    if (g.remapped_rows_pending) {
      f.evidence.push_back(std::string("remapped rows pending: ") + (rows ? "yes" : "no"));
    }
    if (g.remapped_rows_correctable || g.remapped_rows_uncorrectable) {
      f.evidence.push_back("remapped rows: " +
                           std::to_string(g.remapped_rows_correctable.value_or(0)) +
                           " correctable, " +
                           std::to_string(g.remapped_rows_uncorrectable.value_or(0)) +
                           " uncorrectable");
    }
    if (g.remapped_rows_failure) {
      f.evidence.push_back(std::string("remapping failure: ") + (failed ? "yes" : "no"));
    }
    out.push_back(std::move(f));
  }
}

void check_live_ecc_uncorrected(const CheckSpec& self, const CheckInput& in,
                                std::vector<Finding>& out) {
  const LiveState* live = live_state_now(in.snap);
  if (live == nullptr) return;
  for (const auto& g : live->gpus) {
    const std::uint64_t now = g.ecc_uncorrected_volatile.value_or(0);
    if (now == 0) continue;
    Finding f = make_finding(
        self, Severity::fail,
        live_gpu_label(g) + ": " + plural(now, "uncorrectable ECC memory error") +
            " since the driver loaded; programs that touched that memory were stopped");
    f.evidence.push_back("uncorrected ECC errors (volatile): " + std::to_string(now));
    if (g.ecc_uncorrected_aggregate) {
      f.evidence.push_back("uncorrected ECC errors (lifetime): " +
                           std::to_string(*g.ecc_uncorrected_aggregate));
    }
    if (g.ecc_corrected_volatile) {
      f.evidence.push_back("corrected ECC errors (volatile): " +
                           std::to_string(*g.ecc_corrected_volatile));
    }
    f.evidence.push_back("read through: " + g.source);
    f.fix = "restart the programs that failed on it, reset the GPU (sudo nvidia-smi -r -i " +
            std::to_string(g.index) +
            ") or reboot; if the count keeps growing, have the board replaced";
    out.push_back(std::move(f));
  }
}

std::vector<CheckSpec> live_checks() {
  return {
      {"live.memory_held", "gpu",
       "On this machine now: each GPU's memory in use against its total (NVML, amdgpu's "
       "mem_info_vram_used and mem_info_vram_total) and the processes NVML lists on it with "
       "the memory each holds.",
       "A GPU whose memory another process holds makes the next program run out of memory "
       "(CUDA out of memory) however small its own need.",
       "https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceQueries.html",
       check_live_memory_held, "", kOnlyLinux},
      {"live.throttled", "gpu",
       "On this machine now: NVML's clock event reasons (thermal and hardware slowdown, the "
       "power cap), the GPU's temperature against its slowdown threshold (NVML, amdgpu's "
       "temp1_crit), and its clocks against their maximum.",
       "A GPU slowed down by heat or power runs every kernel slower: benchmarks and training "
       "steps fall short of the card's figures.",
       "https://docs.nvidia.com/deploy/nvml-api/group__nvmlClocksEventReasons.html",
       check_live_throttled, "", kOnlyLinux},
      {"live.pending_reset", "gpu",
       "On this machine now: NVML's retired pages and whether their retirement is pending, and "
       "its remapped rows, whether a remap is pending and whether one failed.",
       "Pages retired or rows remapped after memory errors take effect only at the next GPU "
       "reset; a failed remapping means the memory has more errors than it can set aside.",
       "https://docs.nvidia.com/deploy/a100-gpu-mem-error-mgmt/"
       "error-recovery-and-response-flags.html",
       check_live_pending_reset, "", kOnlyLinux},
      {"live.ecc_uncorrected", "gpu",
       "On this machine now: NVML's uncorrected ECC error counts, since the driver loaded and "
       "over the GPU's life.",
       "An uncorrectable memory error stops the program that touched the memory and "
       "can recur until the GPU is reset.",
       "https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceQueries.html",
       check_live_ecc_uncorrected, "", kOnlyLinux},
  };
}

}  // namespace gpudoctor
