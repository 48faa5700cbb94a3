#include "checks/area_status.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "api/pci/gpu_ids.hpp"
#include "api/cuda/cuda_codes.hpp"
#include "facts/area_summaries.hpp"
#include "paste/pasted_root.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr std::string_view kAreas[] = {"host",   "gpu",    "nvidia", "cuda", "opencl",
                                       "vulkan", "python", "macos",  "rocm", "ollama"};

/// The area's own verdict, before its findings; nullopt when the area was not asked for.
struct Base {
  AreaState state;
  std::string summary;
};
using MaybeBase = std::optional<Base>;

std::string plural(std::size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return s;
}

/// Identical names (an 8-GPU server) once, with a count, in the order of their first.
std::string counted(const std::vector<std::string>& names) {
  std::vector<std::pair<std::string, int>> seen;
  for (const auto& n : names) {
    auto same = std::find_if(seen.begin(), seen.end(), [&](const auto& g) { return g.first == n; });
    if (same == seen.end()) {
      seen.emplace_back(n, 1);
    } else {
      ++same->second;
    }
  }
  std::vector<std::string> out;
  for (const auto& [name, count] : seen) {
    out.push_back(count > 1 ? name + " ×" + std::to_string(count) : name);
  }
  return join(out, ", ");
}

/// "smoke matmul PASS on <device> (n=256, 1.9 ms, 17.4 GFLOPS)" for each result.
void add_smoke_parts(const std::vector<SmokeResult>& results, std::vector<std::string>& parts) {
  for (const auto& r : results) {
    std::string detail;
    if (r.n) detail = "n=" + std::to_string(*r.n);
    if (r.kernel_ms) {
      char buf[48];
      std::snprintf(buf, sizeof buf, ", %.3g ms", *r.kernel_ms);
      detail += buf;
    }
    if (r.gflops) {
      char buf[48];
      std::snprintf(buf, sizeof buf, ", %.1f GFLOPS", *r.gflops);
      detail += buf;
    }
    parts.push_back("smoke matmul " + upper(r.status) + " on " + r.device +
                    (detail.empty() ? "" : " (" + detail + ")"));
  }
}

/// The API's own names for its devices, with "(CPU)" where the device is the processor.
std::vector<std::string> api_device_names(const Snapshot& s,
                                          const std::vector<MergedDevice>& devices, bool vulkan) {
  std::vector<std::string> names;
  for (const auto& m : devices) {
    if (vulkan) {
      for (auto i : m.vulkan) {
        names.push_back(s.vulkan->devices[i].name.value_or(m.name) + (m.software ? " (CPU)" : ""));
      }
    } else {
      for (auto [p, d] : m.opencl) {
        const auto& plat = s.opencl->platforms[p];
        names.push_back(plat.devices[d].name.value_or(m.name) +
                        (plat.name ? " on " + *plat.name : "") + (m.software ? " (CPU)" : ""));
      }
    }
  }
  return names;
}

/// "toolkit 13.0.88 at /usr/local/cuda-13.0 with cuDNN 9.19.0"; pip's nvidia-* wheels are no
/// toolkit (no nvcc, no version of their own): "CUDA 12.4.127 runtime from pip wheels at …".
std::string toolkit_summary(const CudaToolkit& t) {
  const std::string cudnn = t.cudnn_version ? " with cuDNN " + *t.cudnn_version : "";
  if (!t.version && t.source == "pip") {
    const std::string runtime =
        t.cudart_version ? "CUDA " + *t.cudart_version + " runtime" : "CUDA libraries";
    return runtime + " from pip wheels at " + t.path + cudnn;
  }
  return "toolkit " + t.version.value_or("of unknown version") + " at " + t.path + cudnn;
}

MaybeBase host_base(const Snapshot& s) {
  if (!s.host) return std::nullopt;
  const HostInfo& h = *s.host;
  std::vector<std::string> parts;
  if (h.os_pretty_name) parts.push_back(*h.os_pretty_name);
  if (h.kernel_release) parts.push_back("kernel " + *h.kernel_release);
  if (h.virtualization) parts.push_back("virtual machine (" + *h.virtualization + ")");
  if (h.container) parts.push_back("container (" + *h.container + ")");
  if (h.wsl) parts.push_back("WSL");
  if (parts.empty()) {
    return Base{AreaState::not_examined, "no /etc/os-release or kernel release under the root"};
  }
  return Base{AreaState::ok, join(parts, ", ")};
}

MaybeBase gpu_base(const Snapshot& s, const std::vector<MergedDevice>& devices) {
  const bool pci_read = pci_was_read(s);
  if (pci_read && !s.pci->devices.empty()) {
    std::vector<std::string> names;
    bool unbound = false;
    for (const auto& p : s.pci->devices) {
      names.push_back(pci_device_name(p).value_or(hex(p.vendor_id, 4) + ":" + hex(p.device_id, 4)) +
                      " (" + p.driver.value_or("no driver") + ")");
      unbound = unbound || !p.driver;
    }
    // A GPU no driver claimed is not fine, whichever area's finding names the cause.
    return Base{unbound ? AreaState::info : AreaState::ok, counted(names)};
  }
  // No PCI view (a Mac, a report from a collect_env): the GPUs the other APIs saw.
  std::vector<std::string> seen;
  for (const auto& m : devices) {
    if (!m.software && (m.kind == DeviceKind::gpu || m.kind == DeviceKind::accelerator)) {
      seen.push_back(m.name);
    }
  }
  if (!seen.empty()) return Base{AreaState::ok, counted(seen)};
  if (pci_read) {
    std::string text =
        "no GPU on the PCI bus (" + plural(s.pci->devices_scanned, "function") + " scanned)";
    if (s.host && s.host->wsl) text += "; under WSL GPUs come through /dev/dxg, not PCI";
    return Base{AreaState::absent, text};
  }
  if (macos_gpus_read(s)) return Base{AreaState::absent, "no GPU in system_profiler's list"};
  if (!s.pci) return std::nullopt;
  const ProbeOutcome* o = backend_outcome(s, "pci");
  std::string why = "no /sys/bus/pci/devices under the root";
  if (o && o->status != ProbeStatus::missing && !o->detail.empty()) why = o->detail;
  return Base{AreaState::not_examined, "the PCI bus was not read: " + why};
}

bool has_nvidia_pci_gpu(const Snapshot& s) {
  if (!s.pci) return false;
  return std::any_of(s.pci->devices.begin(), s.pci->devices.end(),
                     [](const PciDevice& p) { return p.vendor_id == 0x10de; });
}

MaybeBase nvidia_base(const Snapshot& s) {
  if (!s.nvidia) return std::nullopt;
  const NvidiaKernel& k = s.nvidia->kernel;
  if (k.module_version) {
    return Base{AreaState::ok,
                "driver " + *k.module_version + (k.module_flavor ? " (" + *k.module_flavor + ")" : "")};
  }
  // A paste shows no kernel module list: what it does not show is unknown, not absent.
  if (s.root == kPastedRoot) {
    if (s.nvml && s.nvml->driver_version) {
      return Base{AreaState::ok, "driver " + *s.nvml->driver_version};
    }
    return Base{AreaState::not_examined, "the paste does not show the kernel driver"};
  }
  const auto& m = k.loaded_modules;
  if (std::find(m.begin(), m.end(), "nvidia") != m.end()) {
    return Base{AreaState::ok, "nvidia module loaded (its version was not readable)"};
  }
  if (s.pci) {
    for (const auto& p : s.pci->devices) {
      if (p.vendor_id == 0x10de && p.driver == std::optional<std::string>("nvidia")) {
        return Base{AreaState::ok, "nvidia driver bound to " + p.address +
                                       " (its version is not under the root)"};
      }
    }
  }
  if (has_nvidia_pci_gpu(s)) return Base{AreaState::absent, "no NVIDIA kernel driver loaded"};
  if (!k.modules_listed) {
    return Base{AreaState::not_examined,
                "no /proc/modules or /proc/driver/nvidia under the root: the kernel driver "
                "was not looked at"};
  }
  return Base{AreaState::absent, pci_was_read(s) ? "no NVIDIA GPU and no NVIDIA kernel driver"
                                                 : "no NVIDIA kernel driver loaded"};
}

MaybeBase cuda_base(const Snapshot& s) {
  if (!s.cuda && !s.nvidia) return std::nullopt;
  std::vector<std::string> parts;
  bool driver_answered = false;
  if (s.cuda && s.cuda->driver_version) {
    parts.push_back("driver supports CUDA " + cuda_version_text(*s.cuda->driver_version));
    driver_answered = true;
  }
  if (s.cuda && !s.cuda->devices.empty()) {
    parts.push_back(plural(s.cuda->devices.size(), "device"));
    driver_answered = true;
  }
  if (s.cuda) add_smoke_parts(s.cuda->smoke, parts);
  const bool toolkits = s.nvidia && !s.nvidia->toolkits.empty();
  if (s.nvidia) {
    for (const auto& t : s.nvidia->toolkits) parts.push_back(toolkit_summary(t));
  }
  if (driver_answered) return Base{AreaState::ok, join(parts, "; ")};
  if (!s.cuda) {
    return toolkits ? MaybeBase(Base{AreaState::ok, join(parts, "; ")}) : std::nullopt;
  }
  if (!s.live) {
    parts.push_back("libcuda is not loaded under --sysroot");
    return Base{toolkits ? AreaState::ok : AreaState::not_examined, join(parts, "; ")};
  }
  if (probe_went_wrong(s, "cuda")) {
    parts.push_back("libcuda gave no answer (its probe failed)");
    return Base{AreaState::fail, join(parts, "; ")};
  }
  if (!s.cuda->library && !s.cuda->init_error) {
    parts.push_back("no CUDA driver (libcuda.so.1 not found)");
    return Base{AreaState::absent, join(parts, "; ")};
  }
  return Base{AreaState::ok, join(parts, "; ")};  // loaded; a failing cuInit is a finding
}

/// OpenCL and Vulkan: the devices their drivers answered with, or why there are none.
MaybeBase api_base(const Snapshot& s, const std::vector<MergedDevice>& devices, bool vulkan) {
  if (vulkan ? !s.vulkan : !s.opencl) return std::nullopt;
  if (s.root == kPastedRoot) {
    const std::string names = join(api_device_names(s, devices, vulkan), ", ");
    if (names.empty()) return Base{AreaState::not_examined, "no device listed in the paste"};
    return Base{AreaState::ok, names};
  }
  const std::size_t registered = vulkan ? s.vulkan->manifests.size() : s.opencl->icds.size();
  const std::string what = vulkan ? "driver manifest" : "ICD";
  if (registered == 0) {
    return Base{AreaState::absent, vulkan ? "no Vulkan driver manifest installed"
                                          : "no OpenCL driver (ICD) registered"};
  }
  if (!s.live) {
    return Base{AreaState::not_examined,
                plural(registered, what) + " registered (not loaded under --sysroot)"};
  }
  std::vector<std::string> parts{join(api_device_names(s, devices, vulkan), ", ")};
  if (parts.front().empty()) {
    parts.front() = "no device from " + plural(registered, what);
    add_smoke_parts(vulkan ? s.vulkan->smoke : s.opencl->smoke, parts);
    return Base{AreaState::absent, join(parts, "; ")};
  }
  add_smoke_parts(vulkan ? s.vulkan->smoke : s.opencl->smoke, parts);
  return Base{AreaState::ok, join(parts, "; ")};
}

MaybeBase python_base(const Snapshot& s) {
  if (!s.python) return std::nullopt;
  std::vector<std::string> frameworks;
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      if (p.name == "torch" || p.name == "tensorflow" || p.name == "tensorflow-macos" ||
          p.name == "jax") {
        std::string v = p.torch && p.torch->version ? *p.torch->version : p.version.value_or("?");
        frameworks.push_back(p.name + " " + v + " in " + env.prefix);
      }
    }
  }
  const std::string envs = plural(s.python->envs.size(), "environment");
  if (frameworks.empty()) return Base{AreaState::absent, envs + ", no GPU framework installed"};
  return Base{AreaState::ok, envs + "; " + join(frameworks, ", ")};
}

MaybeBase rocm_base(const Snapshot& s) {
  if (!s.rocm) return std::nullopt;
  const RocmInfo& r = *s.rocm;
  std::string summary = facts::rocm_summary(r);
  if (summary.empty()) return std::nullopt;  // nothing of AMD's compute stack here
  bool torch_rocm = false;
  if (s.python) {
    for (const auto& env : s.python->envs) {
      for (const auto& p : env.packages) torch_rocm = torch_rocm || (p.torch && p.torch->hip);
    }
  }
  const bool userland = !r.installs.empty() || (r.hip && r.hip->library) || torch_rocm;
  if (!userland && !r.nodes.empty()) {
    return Base{AreaState::absent,
                summary + " · no ROCm installed: nothing to judge the GPU's target against"};
  }
  return Base{AreaState::ok, summary};
}

MaybeBase base_of(std::string_view area, const Snapshot& s,
                  const std::vector<MergedDevice>& devices) {
  if (area == "host") return host_base(s);
  if (area == "gpu") return gpu_base(s, devices);
  if (area == "nvidia") return nvidia_base(s);
  if (area == "cuda") return cuda_base(s);
  if (area == "opencl") return api_base(s, devices, false);
  if (area == "vulkan") return api_base(s, devices, true);
  if (area == "python") return python_base(s);
  if (area == "macos" && s.macos) {
    std::string summary = facts::macos_summary(*s.macos);
    if (!summary.empty()) return Base{AreaState::ok, summary};
  }
  if (area == "rocm") return rocm_base(s);
  return std::nullopt;
}

}  // namespace

const char* to_string(AreaState s) {
  switch (s) {
    case AreaState::ok: return "ok";
    case AreaState::info: return "info";
    case AreaState::warn: return "warn";
    case AreaState::fail: return "fail";
    case AreaState::absent: return "absent";
    case AreaState::not_examined: return "not_examined";
  }
  return "not_examined";
}

const ProbeOutcome* backend_outcome(const Snapshot& snap, std::string_view backend) {
  for (const auto& p : snap.probes) {
    if (p.backend == backend && p.label == backend) return &p;
  }
  return nullptr;
}

bool pci_was_read(const Snapshot& s) {
  if (!s.pci) return false;
  if (const ProbeOutcome* o = backend_outcome(s, "pci")) return o->status == ProbeStatus::ok;
  return s.pci->devices_scanned > 0 || !s.pci->devices.empty();  // a report without outcomes
}

bool macos_gpus_read(const Snapshot& s) {
  if (!s.macos) return false;
  return std::any_of(s.macos->sources.begin(), s.macos->sources.end(), [](const std::string& x) {
    return x.find("system_profiler") != std::string::npos;
  });
}

bool probe_went_wrong(const Snapshot& snap, std::string_view backend) {
  return std::any_of(snap.probes.begin(), snap.probes.end(), [&](const ProbeOutcome& p) {
    return p.backend == backend &&
           (p.status == ProbeStatus::crashed || p.status == ProbeStatus::timed_out ||
            p.status == ProbeStatus::failed);
  });
}

std::vector<AreaStatus> area_statuses(const Snapshot& snap,
                                      const std::vector<MergedDevice>& devices,
                                      const std::vector<Finding>& findings) {
  std::vector<AreaStatus> out;
  for (std::string_view area : kAreas) {
    std::optional<Severity> worst;
    for (const auto& f : findings) {
      if (f.area == area && (!worst || f.severity > *worst)) worst = f.severity;
    }
    MaybeBase base = base_of(area, snap, devices);
    if (!base && !worst) continue;
    AreaStatus a{std::string(area), base ? base->state : AreaState::info,
                 base ? base->summary : ""};
    // A warning or failure outranks the area's own state; a note does not hide that nothing
    // was there or nothing was examined.
    if (worst && *worst >= Severity::warn) {
      a.state = *worst == Severity::fail ? AreaState::fail : AreaState::warn;
    } else if (worst == std::optional<Severity>(Severity::info) && a.state == AreaState::ok) {
      a.state = AreaState::info;
    }
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace gpudoctor
