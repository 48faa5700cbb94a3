// A probe that crashed, hung or sent garbage is itself a finding that names the library.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "model/not_examined.hpp"

namespace gpudoctor {

namespace {

std::string area_of_backend(const std::string& backend) {
  if (backend == "pci") return "gpu";
  if (backend == "nvml") return "nvidia";
  return backend;
}

/// On a Mac, Metal, OpenCL.framework and the GPU drivers ship with macOS; CUDA had its own
/// driver package up to macOS 10.13 (seed 002); MoltenVK comes with the Vulkan SDK.
std::string macos_hint_for(const ProbeOutcome& p, const std::string& lib) {
  if (p.backend == "cuda") {
    return "NVIDIA's CUDA driver for macOS (" + lib +
           ") misbehaves: reinstall the CUDA driver package (cudadriver_<version>_macos.dmg) "
           "that matches the NVIDIA display driver, then restart.";
  }
  if (p.backend == "vulkan") {
    return "Reinstall or remove the Vulkan driver " + lib + " (MoltenVK; manifest " + p.label +
           "). To run without it: VK_LOADER_DRIVERS_DISABLE='" + p.label + "'.";
  }
  if (p.backend == "opencl" || p.backend == "metal") {
    return lib + " is part of macOS: install the macOS updates (System Settings → Software "
           "Update); report it with `gpudoctor query --json` attached.";
  }
  return "Re-run with --timeout 30 to rule out a slow start; report it with `gpudoctor query "
         "--json` attached.";
}

std::string hint_for(const ProbeOutcome& p, bool macos) {
  const std::string lib = p.library.value_or(p.label);
  if (macos) return macos_hint_for(p, lib);
  if (p.backend == "opencl") {
    return "Reinstall or remove the OpenCL driver " + lib +
           ". To run without it, set OCL_ICD_VENDORS to a directory holding only the other "
           ".icd files (clinfo and every OpenCL program load every registered ICD).";
  }
  if (p.backend == "vulkan" && p.label.rfind("layer ", 0) == 0) {
    const std::string name = p.label.substr(6);
    return "Every Vulkan program loads this layer. Disable it: VK_LOADER_LAYERS_DISABLE='" + name +
           "' (Vulkan loader 1.3.234 and later), or unset what enables it, or remove the package "
           "that installed its manifest; then update or report the layer " +
           lib + ".";
  }
  if (p.backend == "vulkan") {
    return "Reinstall or remove the Vulkan driver " + lib + " (manifest " + p.label +
           "). To run without it: VK_LOADER_DRIVERS_DISABLE='" + p.label + "'.";
  }
  if (p.backend == "cuda" || p.backend == "nvml") {
    return "The NVIDIA userspace driver (" + lib +
           ") misbehaves: reinstall the driver packages matching the loaded kernel module, "
           "then reboot.";
  }
  return "Re-run with --timeout 30 to rule out a slow start; report it with `gpudoctor query "
         "--json` attached.";
}

/// The OpenCL or Vulkan backend's own outcome when its loader is there and every driver failed:
/// a summary of its drivers' failures, each of which has its finding already (probe.* for a
/// driver that was loaded, the ICD and manifest checks for one that could not be). Reporting
/// it again would name the loader as a broken driver.
bool sums_up_driver_failures(const ProbeOutcome& p, const Snapshot& snap) {
  if (p.label != p.backend || p.status != ProbeStatus::failed) return false;
  if (p.backend == "opencl") {
    return snap.opencl && snap.opencl->loader && !snap.opencl->icds.empty();
  }
  if (p.backend == "vulkan") return snap.vulkan && snap.vulkan->loader;
  return false;
}

}  // namespace

namespace {

/// A backend that runs one isolated job records the job's outcome twice: as the backend's and as
/// the job's own. One cause, one finding: the backend's copy is skipped.
bool repeats_a_job(const std::vector<ProbeOutcome>& probes, const ProbeOutcome& p) {
  if (p.label != p.backend) return false;
  return std::any_of(probes.begin(), probes.end(), [&](const ProbeOutcome& q) {
    return &q != &p && q.backend == p.backend && q.status == p.status && q.detail == p.detail;
  });
}

/// Probes that gpudoctor's --deadline left unstarted or stopped (core/isolate_result.hpp):
/// one finding per area, so that no area they belong to reads as fine. Not examined is not
/// broken: a warn, the hung drivers that spent the time have their own fail.
void not_examined_by_deadline(const CheckSpec& self, const CheckInput& in,
                              std::vector<Finding>& out) {
  std::vector<std::string> areas;
  for (const auto& p : in.snap.probes) {
    if (p.status != ProbeStatus::skipped || p.detail.rfind(kNotExaminedDeadline, 0) != 0) continue;
    const std::string area = area_of_backend(p.backend);
    if (std::find(areas.begin(), areas.end(), area) == areas.end()) areas.push_back(area);
  }
  for (const auto& area : areas) {
    std::vector<const ProbeOutcome*> cut;
    for (const auto& p : in.snap.probes) {
      if (p.status == ProbeStatus::skipped && p.detail.rfind(kNotExaminedDeadline, 0) == 0 &&
          area_of_backend(p.backend) == area) {
        cut.push_back(&p);
      }
    }
    std::string names;
    for (std::size_t i = 0; i < cut.size() && i < 3; ++i) {
      names += (i ? ", " : "") + cut[i]->library.value_or(cut[i]->label);
    }
    if (cut.size() > 3) names += " and " + std::to_string(cut.size() - 3) + " more";
    Finding f = make_finding(self, Severity::warn,
                             "Not examined: deadline: " + names + " (" + cut.front()->backend +
                                 ") not probed before gpudoctor's --deadline");
    f.id = "probe.not_examined";
    f.area = area;
    for (std::size_t i = 0; i < cut.size() && i < 5; ++i) {
      f.evidence.push_back(cut[i]->library.value_or(cut[i]->label) + ": " + cut[i]->detail);
    }
    if (cut.size() > 5) f.evidence.push_back("… and " + std::to_string(cut.size() - 5) + " more");
    f.fix = "fix or remove the drivers reported as hung (they spent the run's time), or give "
            "the run a longer --deadline where the health check's engine allows it";
    out.push_back(std::move(f));
  }
}

}  // namespace

void check_probe_failures(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  for (const auto& p : in.snap.probes) {
    if (repeats_a_job(in.snap.probes, p)) continue;
    if (sums_up_driver_failures(p, in.snap)) continue;
    // Failures a named cause explains, with the right fix: the toolkit's stub libcuda
    // (cuda.stub_libcuda), NVIDIA's OpenCL hidden as CUDA is (opencl.icds says so).
    if (p.backend == "cuda" && p.status == ProbeStatus::failed && in.snap.cuda &&
        in.snap.cuda->init_error && in.snap.cuda->init_error->code == 34) {
      continue;
    }
    if (p.status == ProbeStatus::failed && p.library &&
        nvidia_opencl_hidden_like_cuda(in.snap, *p.library, p.detail)) {
      continue;
    }
    // NVML_ERROR_NO_PERMISSION where this user cannot open the device nodes: the access check
    // (nvidia.device_nodes) names the nodes and their fix; the driver is not broken.
    if (p.backend == "nvml" && p.status == ProbeStatus::failed && in.snap.nvml &&
        in.snap.nvml->init_code == std::optional<int>(4) && !nvidia_nodes_denied(in.snap).empty()) {
      continue;
    }
    std::string what;
    switch (p.status) {
      case ProbeStatus::crashed: what = "crashed"; break;
      case ProbeStatus::timed_out: what = "hung"; break;
      case ProbeStatus::failed: what = "failed"; break;
      default: continue;
    }
    Finding f = make_finding(self, Severity::fail,
                             p.library ? *p.library + " " + what + " while gpudoctor probed " +
                                             p.backend + " (" + p.label + ")"
                                       : "The " + p.backend + " probe " + what + " (" +
                                             p.label + ")");
    f.id = "probe." + std::string(p.status == ProbeStatus::timed_out ? "timed_out"
                                  : p.status == ProbeStatus::crashed ? "crashed"
                                                                     : "failed");
    f.area = area_of_backend(p.backend);
    f.evidence.push_back(p.detail);
    if (p.stderr_tail && !p.stderr_tail->empty()) {
      f.evidence.push_back("it printed: " + p.stderr_tail->substr(0, 300));
    }
    f.fix = hint_for(p, on_macos(in.snap));
    out.push_back(std::move(f));
  }
  // Drivers never started because the ones before them hung to their deadlines
  // (core/isolate.cpp run_budget): one finding says how many were left unexamined.
  std::vector<std::string> unprobed;
  for (const auto& p : in.snap.probes) {
    if (p.status == ProbeStatus::skipped && p.detail.find("time budget") != std::string::npos) {
      unprobed.push_back(p.library.value_or(p.label));
    }
  }
  if (!unprobed.empty()) {
    Finding f = make_finding(self, Severity::fail,
                             std::to_string(unprobed.size()) +
                                 " drivers were not probed: the drivers before them hung until "
                                 "gpudoctor's time budget for the run was spent");
    f.id = "probe.timed_out";
    f.area = area_of_backend(in.snap.probes.front().backend);
    for (const auto& p : in.snap.probes) {
      if (p.status == ProbeStatus::skipped && p.detail.find("time budget") != std::string::npos) {
        f.area = area_of_backend(p.backend);
        break;
      }
    }
    const std::size_t shown = std::min<std::size_t>(unprobed.size(), 5);
    for (std::size_t i = 0; i < shown; ++i) f.evidence.push_back("not probed: " + unprobed[i]);
    if (unprobed.size() > shown) {
      f.evidence.push_back("… and " + std::to_string(unprobed.size() - shown) + " more");
    }
    f.fix = "remove or fix the drivers reported as hung above (each named with its file), then run "
            "gpudoctor again; --timeout SECONDS sets each probe's deadline";
    out.push_back(std::move(f));
  }
  not_examined_by_deadline(self, in, out);
}

}  // namespace gpudoctor
