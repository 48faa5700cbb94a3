#include "checks/area_status.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "api/cuda/cuda_codes.hpp"
#include "api/pci/gpu_ids.hpp"
#include "backends.hpp"
#include "checks/check_util.hpp"
#include "checks/readiness.hpp"
#include "facts/area_summaries.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr std::string_view kAreas[] = {"host",   "gpu",    "nvidia", "cuda", "opencl",
                                       "vulkan", "python", "macos",  "metal", "rocm",
                                       "level_zero", "ollama"};

/// The area's own verdict, before its findings; nullopt when the area was not asked for.
struct Base {
  AreaState state;
  std::string summary;
};
using MaybeBase = std::optional<Base>;

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

/// One device as an API shows it: its name (as the smoke results name it) and "(CPU)".
struct ApiDevice {
  std::string name;
  bool cpu = false;
};

std::vector<ApiDevice> api_devices(const Snapshot& s, const std::vector<MergedDevice>& devices,
                                   bool vulkan) {
  std::vector<ApiDevice> out;
  for (const auto& m : devices) {
    if (vulkan) {
      for (auto i : m.in(kBackendVulkan)) {
        out.push_back({s.vulkan->devices[i].name.value_or(m.name), m.software});
      }
    } else {
      for (auto flat : m.in(kBackendOpenCl)) {
        const auto [p, d] = *opencl_position(*s.opencl, flat);
        const auto& plat = s.opencl->platforms[p];
        out.push_back({plat.devices[d].name.value_or(m.name) + (plat.name ? " on " + *plat.name : std::string()),
                       m.software});
      }
    }
  }
  return out;
}

/// "1.9" or "1.8–2.1": the values' range, printed with `fmt`.
std::string range_text(const std::vector<double>& v, const char* fmt, bool unicode) {
  auto one = [&](double x) {
    char buf[48];
    std::snprintf(buf, sizeof buf, fmt, x);
    return std::string(buf);
  };
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  const std::string a = one(*lo);
  const std::string b = one(*hi);
  return a == b ? a : a + (unicode ? "–" : "-") + b;
}

/// "smoke matmul PASS (n=256, 1.9 ms, 17.4 GFLOPS)" for one result of a device, or for several
/// of identical devices "smoke matmul PASS ×8 (n=256, 1.8–2.1 ms, 16.9–17.4 GFLOPS)";
/// " on <device>" only when `device` is given.
std::string smoke_text(const std::vector<const SmokeResult*>& rs, const std::string& device,
                       bool unicode) {
  std::vector<std::string> statuses;
  std::vector<int> sizes;
  std::vector<double> ms;
  std::vector<double> gflops;
  for (const SmokeResult* r : rs) {
    const std::string status = upper(r->status);
    if (std::find(statuses.begin(), statuses.end(), status) == statuses.end()) {
      statuses.push_back(status);
    }
    if (r->n && std::find(sizes.begin(), sizes.end(), *r->n) == sizes.end()) sizes.push_back(*r->n);
    if (r->kernel_ms) ms.push_back(*r->kernel_ms);
    if (r->gflops) gflops.push_back(*r->gflops);
  }
  std::vector<std::string> counted;
  for (const auto& status : statuses) {
    const auto n = std::count_if(rs.begin(), rs.end(), [&](const SmokeResult* r) {
      return upper(r->status) == status;
    });
    counted.push_back(status + (rs.size() > 1 ? (unicode ? " ×" : " x") + std::to_string(n)
                                              : ""));
  }
  std::vector<std::string> detail;
  if (sizes.size() == 1) detail.push_back("n=" + std::to_string(sizes[0]));
  if (!ms.empty()) detail.push_back(range_text(ms, "%.3g", unicode) + " ms");
  if (!gflops.empty()) detail.push_back(range_text(gflops, "%.1f", unicode) + " GFLOPS");
  return "smoke matmul " + join(counted, ", ") + (device.empty() ? "" : " on " + device) +
         (detail.empty() ? "" : " (" + join(detail, ", ") + ")");
}

/// The smoke results, those of one device name together.
void add_smoke_parts(const std::vector<SmokeResult>& results, std::vector<std::string>& parts,
                     bool unicode) {
  std::vector<std::string> devices;
  for (const auto& r : results) {
    if (std::find(devices.begin(), devices.end(), r.device) == devices.end()) {
      devices.push_back(r.device);
    }
  }
  for (const auto& d : devices) {
    std::vector<const SmokeResult*> mine;
    for (const auto& r : results) {
      if (r.device == d) mine.push_back(&r);
    }
    parts.push_back(smoke_text(mine, d, unicode));
  }
}

/// The API's devices, identical ones once with a count, each followed by its smoke results (the
/// device named once); then any smoke result that names no listed device.
std::string api_summary(const std::vector<ApiDevice>& devices,
                        const std::vector<SmokeResult>& smoke, bool unicode) {
  std::vector<std::pair<ApiDevice, int>> groups;
  for (const auto& d : devices) {
    auto same = std::find_if(groups.begin(), groups.end(), [&](const auto& g) {
      return g.first.name == d.name && g.first.cpu == d.cpu;
    });
    if (same == groups.end()) {
      groups.emplace_back(d, 1);
    } else {
      ++same->second;
    }
  }
  std::vector<std::string> names;
  std::vector<SmokeResult> other;
  for (const auto& r : smoke) {
    const bool listed = std::any_of(devices.begin(), devices.end(),
                                    [&](const ApiDevice& d) { return d.name == r.device; });
    if (!listed) other.push_back(r);
  }
  for (const auto& [d, count] : groups) {
    std::string text = d.name + (d.cpu ? " (CPU)" : "") +
                       (count > 1 ? (unicode ? " ×" : " x") + std::to_string(count) : "");
    std::vector<const SmokeResult*> mine;
    for (const auto& r : smoke) {
      if (r.device == d.name) mine.push_back(&r);
    }
    if (!mine.empty()) text += ", " + smoke_text(mine, "", unicode);
    names.push_back(std::move(text));
  }
  std::vector<std::string> parts{names.empty() ? "no device" : join(names, ", ")};
  add_smoke_parts(other, parts, unicode);
  return join(parts, "; ");
}

/// "0-7" for a run, else "0,2,5".
std::string index_list(const std::vector<std::size_t>& index) {
  const bool run = index.back() - index.front() + 1 == index.size();
  if (run) return std::to_string(index.front()) + "-" + std::to_string(index.back());
  std::vector<std::string> parts;
  for (auto i : index) parts.push_back(std::to_string(i));
  return join(parts, ",");
}

/// A toolkit that only its version file stands for: no nvcc, no library or header read. Such a
/// directory says which CUDA was installed, not that one is there to use (seed 002's tree).
bool version_file_only(const CudaToolkit& t) {
  return !t.nvcc && !t.cudart_version && !t.cublas_version && !t.cudnn_version &&
         !t.nccl_version && t.source != "pip" &&
         (t.version_source == std::optional<std::string>("version.txt") ||
          t.version_source == std::optional<std::string>("version.json"));
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
  const std::string only = version_file_only(t)
                               ? " (only its " + *t.version_source + ": no nvcc, no libraries)"
                               : "";
  return "toolkit " + t.version.value_or("of unknown version") + " at " + t.path + cudnn + only;
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
    if (s.macos) return std::nullopt;  // a Mac: the macos area says which macOS
    return Base{AreaState::not_examined, "no /etc/os-release or kernel release under the root"};
  }
  return Base{AreaState::ok, join(parts, ", ")};
}

MaybeBase gpu_base(const Snapshot& s, const std::vector<MergedDevice>& devices) {
  // A Mac has no PCI list: system_profiler lists its GPUs.
  if (s.macos && !pci_was_read(s)) {
    const std::string summary = facts::macos_gpu_summary(*s.macos);
    if (!macos_gpus_read(s)) return Base{AreaState::not_examined, summary};
    const bool none = s.macos->gpus.empty();
    return Base{none ? AreaState::absent : AreaState::ok, summary};
  }
  const bool pci_read = pci_was_read(s);
  if (pci_read && !s.pci->devices.empty()) {
    // Identical boards (an 8-GPU server) once, with a count and each one's place: #index in
    // bus order (as nvidia-smi numbers them) and its address.
    struct Group {
      std::string name;
      std::vector<std::size_t> index;
      std::vector<std::string> address;
    };
    std::vector<Group> gpus;
    bool unbound = false;
    for (std::size_t i = 0; i < s.pci->devices.size(); ++i) {
      const PciDevice& p = s.pci->devices[i];
      std::string name =
          pci_device_name(p).value_or(hex(p.vendor_id, 4) + ":" + hex(p.device_id, 4)) + " (" +
          p.driver.value_or("no driver") + ")";
      // A GPU reserved for a VM (vfio-pci, pci-stub) is not this machine's to use either.
      unbound = unbound || !p.driver || *p.driver == "vfio-pci" || *p.driver == "pci-stub";
      auto same =
          std::find_if(gpus.begin(), gpus.end(), [&](const Group& g) { return g.name == name; });
      if (same == gpus.end()) same = gpus.insert(gpus.end(), Group{std::move(name), {}, {}});
      same->index.push_back(i);
      same->address.push_back(p.address);
    }
    std::vector<std::string> names;
    for (const auto& g : gpus) {
      names.push_back(g.index.size() == 1
                          ? g.name
                          : g.name + " ×" + std::to_string(g.index.size()) + " (#" +
                                index_list(g.index) + " at " + join(g.address, ", ") + ")");
    }
    // A GPU no driver claimed (or held for a VM) is not fine, whichever area's finding names
    // the cause.
    return Base{unbound ? AreaState::info : AreaState::ok, join(names, ", ")};
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
                     [](const PciDevice& p) { return p.vendor_id == kPciVendorNvidia; });
}

MaybeBase nvidia_base(const Snapshot& s) {
  if (s.macos) return std::nullopt;  // no NVIDIA kernel driver on a Mac to speak of
  if (!s.nvidia) return std::nullopt;
  const NvidiaKernel& k = s.nvidia->kernel;
  if (k.module_version) {
    return Base{AreaState::ok,
                "driver " + *k.module_version + (k.module_flavor ? " (" + *k.module_flavor + ")" : "")};
  }
  // A paste shows no kernel module list: what it does not show is unknown, not absent.
  if (s.origin == Origin::paste) {
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
      if (p.vendor_id == kPciVendorNvidia && p.driver == std::optional<std::string>("nvidia")) {
        return Base{AreaState::ok, "nvidia driver bound to " + p.address +
                                       " (its version is not under the root)"};
      }
    }
  }
  if (has_nvidia_pci_gpu(s)) return Base{AreaState::absent, "no NVIDIA kernel driver loaded"};
  // WSL 2 has no NVIDIA kernel module to look at: the Windows driver reaches Linux through
  // /dev/dxg and its libraries in /usr/lib/wsl/lib (nvidia.wsl_gpu judges them).
  if (s.host && s.host->wsl && s.nvidia->dev_dxg != std::optional<bool>(false)) {
    const auto& libs = s.nvidia->libcuda;
    const bool wsl_lib = std::any_of(libs.begin(), libs.end(), [](const LibraryFile& l) {
      return l.path.rfind("/usr/lib/wsl/lib/", 0) == 0;
    });
    if (wsl_lib && s.nvml && s.nvml->driver_version) {
      return Base{AreaState::ok, "WSL 2: the Windows NVIDIA driver " + *s.nvml->driver_version};
    }
    if (wsl_lib) {
      // Its files are here; whether it works, and its version, only NVML or CUDA can say.
      return Base{AreaState::not_examined,
                  std::string("WSL 2: the driver is Windows' (") +
                      (s.nvidia->dev_dxg ? "/dev/dxg, " : "") +
                      "/usr/lib/wsl/lib); its version and state are not in Linux's files"};
    }
  }
  if (!k.modules_listed) {
    return Base{AreaState::not_examined,
                "no /proc/modules or /proc/driver/nvidia under the root: the kernel driver "
                "was not looked at"};
  }
  return Base{AreaState::absent, pci_was_read(s) ? "no NVIDIA GPU and no NVIDIA kernel driver"
                                                 : "no NVIDIA kernel driver loaded"};
}

/// Anything on the machine that makes CUDA a question: an NVIDIA GPU (on the PCI bus or in a
/// Mac's display list), an NVIDIA kernel module, a libcuda the loader can see, a CUDA toolkit or
/// runtime library, CUDA_VISIBLE_DEVICES. Without any of it the cuda line does not apply.
bool area_status_cuda_applies(const Snapshot& s) {
  if (has_nvidia_pci_gpu(s)) return true;
  if (s.macos) {
    for (const auto& g : s.macos->gpus) {
      if (g.vendor_id == kPciVendorNvidia ||
          (g.vendor && g.vendor->find("NVIDIA") != std::string::npos)) {
        return true;
      }
    }
  }
  if (s.cuda && (s.cuda->library || s.cuda->init_error || s.cuda->driver_version ||
                 !s.cuda->devices.empty() || !s.cuda->smoke.empty())) {
    return true;
  }
  if (!s.nvidia) return false;
  const NvidiaSystem& n = *s.nvidia;
  const auto& m = n.kernel.loaded_modules;
  return n.kernel.module_version || std::find(m.begin(), m.end(), "nvidia") != m.end() ||
         !n.libcuda.empty() || !n.toolkits.empty() ||
         (n.cuda_libraries && !n.cuda_libraries->empty()) || n.cuda_visible_devices ||
         n.nvidia_visible_devices || n.dev_dxg.value_or(false);
}

MaybeBase cuda_base(const Snapshot& s) {
  if (!s.cuda && !s.nvidia) return std::nullopt;
  // Nothing NVIDIA here: on a Mac (Apple silicon, an AMD or Intel GPU) the area does not apply
  // and is not shown; on Linux it is one plain "–" line, never a "?" (issue 30).
  if (s.origin != Origin::paste && !area_status_cuda_applies(s)) {
    if (s.macos) return std::nullopt;
    if (!s.live) {
      return Base{AreaState::absent, pci_was_read(s) ? "no NVIDIA GPU, driver or CUDA library"
                                                     : "no NVIDIA driver or CUDA library"};
    }
  }
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
  if (s.cuda) add_smoke_parts(s.cuda->smoke, parts, true);
  // Only a toolkit with something beyond its version file makes the line fine.
  const bool toolkits =
      s.nvidia && std::any_of(s.nvidia->toolkits.begin(), s.nvidia->toolkits.end(),
                              [](const CudaToolkit& t) { return !version_file_only(t); });
  const bool version_files = s.nvidia && !s.nvidia->toolkits.empty() && !toolkits;
  if (s.nvidia) {
    for (const auto& t : s.nvidia->toolkits) parts.push_back(toolkit_summary(t));
  }
  // cuInit failed where an NVIDIA GPU is: the line is not fine even when the finding that names
  // the cause is another area's (a plain user who cannot open /dev/nvidia*, on a real H200:
  // cuDriverGetVersion answered, cuInit returned 100).
  if (s.cuda && s.cuda->init_error && s.cuda->init_error->code != 34 && nvidia_gpu_count(s) > 0) {
    parts.insert(parts.begin(), "cuInit returned " + std::to_string(s.cuda->init_error->code) +
                                    (s.cuda->init_error->name ? " (" + *s.cuda->init_error->name +
                                                                    ")"
                                                              : std::string()));
    return Base{AreaState::fail, join(parts, "; ")};
  }
  if (driver_answered) return Base{AreaState::ok, join(parts, "; ")};
  if (!s.cuda) {
    if (version_files) return Base{AreaState::not_examined, join(parts, "; ")};
    return toolkits ? MaybeBase(Base{AreaState::ok, join(parts, "; ")}) : std::nullopt;
  }
  if (!s.live) {
    parts.push_back(s.origin == Origin::paste    ? "libcuda was not loaded (a paste)"
                    : s.origin == Origin::report ? "libcuda's answer is not in the report"
                                                 : "libcuda is not loaded under --sysroot");
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
  const auto listed = api_devices(s, devices, vulkan);
  if (s.origin == Origin::paste) {
    if (listed.empty()) return Base{AreaState::not_examined, "no device listed in the paste"};
    return Base{AreaState::ok, api_summary(listed, {}, true)};
  }
  const std::size_t registered = vulkan ? s.vulkan->manifests.size() : s.opencl->icds.size();
  const std::string what = vulkan ? "driver manifest" : "ICD";
  if (registered == 0) {
    return Base{AreaState::absent, vulkan ? "no Vulkan driver manifest installed"
                                          : "no OpenCL driver (ICD) registered"};
  }
  if (!s.live) {
    const bool framework = !vulkan && s.opencl->icds.front().source == kOpenClAppleFramework;
    return Base{AreaState::not_examined,
                (framework ? std::string("OpenCL.framework")
                           : plural(registered, what) + " registered") +
                    " (not loaded under --sysroot)"};
  }
  const auto& smoke = vulkan ? s.vulkan->smoke : s.opencl->smoke;
  if (listed.empty()) {
    std::vector<std::string> parts{
        vulkan && !s.vulkan->loader
            ? "no Vulkan loader (libvulkan.so.1) to read the " + plural(registered, what)
            : "no device from " + plural(registered, what)};
    add_smoke_parts(smoke, parts, true);
    return Base{AreaState::absent, join(parts, "; ")};
  }
  return Base{AreaState::ok, api_summary(listed, smoke, true)};
}

/// Metal, on a Mac only: the devices MTLCopyAllDevices listed and their smoke results; not
/// examined when its child never ran (under --sysroot, or a report made without it).
MaybeBase metal_base(const Snapshot& s) {
  if (!s.macos) return std::nullopt;
  if (!s.metal) return Base{AreaState::not_examined, "Metal was not probed"};
  if (!s.live) return Base{AreaState::not_examined, "Metal.framework is not loaded under --sysroot"};
  if (probe_went_wrong(s, "metal")) {
    return Base{AreaState::fail, "Metal gave no answer (its probe failed)"};
  }
  if (!s.metal->library) return Base{AreaState::not_examined, "Metal was not loaded"};
  std::vector<ApiDevice> listed;
  for (const auto& d : s.metal->devices) listed.push_back({d.name.value_or("Metal device"), false});
  if (listed.empty()) return Base{AreaState::absent, "MTLCopyAllDevices listed no GPU"};
  return Base{AreaState::ok, api_summary(listed, s.metal->smoke, true)};
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
  if (s.python->envs.empty()) return Base{AreaState::absent, "no Python environment found"};
  // CuPy and onnxruntime-gpu are GPU frameworks too: alone (cupy.show_config() pasted) the line
  // names them rather than saying there is none.
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      if (frameworks.empty() && (starts_with(p.name, "cupy") || p.name == "onnxruntime-gpu")) {
        frameworks.push_back(p.name + " " + p.version.value_or("?") + " in " + env.prefix);
      }
    }
  }
  if (frameworks.empty()) return Base{AreaState::absent, envs + ", no GPU framework installed"};
  // One line however many environments a paste or a tree holds: the first few, then a count.
  constexpr std::size_t kMostFrameworksListed = 4;
  std::string listed;
  if (frameworks.size() > kMostFrameworksListed) {
    const std::size_t more = frameworks.size() - kMostFrameworksListed;
    frameworks.resize(kMostFrameworksListed);
    listed = join(frameworks, ", ") + " and " + std::to_string(more) + " more";
  } else {
    listed = join(frameworks, ", ");
  }
  return Base{AreaState::ok, envs + "; " + listed};
}

/// The frameworks the python line names, as the stage table names them ("tensorflow" for
/// tensorflow-macos too).
std::vector<std::string> python_line_frameworks(const Snapshot& s) {
  std::vector<std::string> out;
  if (!s.python) return out;
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      const std::string name = p.name == "tensorflow-macos" ? "tensorflow" : p.name;
      if ((name == "torch" || name == "tensorflow" || name == "jax") &&
          std::find(out.begin(), out.end(), name) == out.end()) {
        out.push_back(name);
      }
    }
  }
  return out;
}

/// A finding under another area that judges one of the python line's frameworks (its stage row
/// names the framework: macos.tensorflow_metal for tensorflow, macos.mps for torch).
bool judges_python_framework(const Finding& f, const std::vector<std::string>& frameworks) {
  if (f.area == "python" || frameworks.empty()) return false;
  const auto stage = stage_of_finding(f.id);
  if (!stage || stage->frameworks.empty()) return false;
  for (const auto& name : split_words(std::string(stage->frameworks), ",")) {
    if (std::find(frameworks.begin(), frameworks.end(), name) != frameworks.end()) return true;
  }
  return false;
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
    // ollama brings its own ROCm libraries: its line under python judges them.
    const bool ollama = s.runtimes && !s.runtimes->ollama.empty();
    return Base{AreaState::absent,
                summary + (ollama ? " · no ROCm installed beside ollama's own"
                                  : " · no ROCm installed")};
  }
  if (r.nodes.empty() && pci_shows_no_gpu_of(s, kPciVendorAmd)) {
    return Base{AreaState::absent, summary + " · no AMD GPU on this machine: nothing for it to run on"};
  }
  return Base{AreaState::ok, summary};
}

/// Level Zero: the loader's drivers and devices with their smoke results; nothing when neither
/// the loader nor a driver library is here (most machines: no line), not examined under
/// --sysroot, where the loader is not loaded.
MaybeBase level_zero_base(const Snapshot& s) {
  if (!s.level_zero) return std::nullopt;
  const LevelZeroInfo& lz = *s.level_zero;
  if (!lz.library && lz.driver_libraries.empty() && !lz.alt_drivers && lz.devices.empty()) {
    return std::nullopt;
  }
  if (!s.live) {
    return Base{AreaState::not_examined,
                join(lz.driver_libraries, ", ") + " (not loaded under --sysroot)"};
  }
  std::vector<ApiDevice> listed;
  for (const auto& d : lz.devices) listed.push_back({d.name.value_or("Level Zero device"), false});
  // A driver that crashed, hung or lied is its own finding; the others' devices still count.
  if (listed.empty() && probe_went_wrong(s, "level_zero")) {
    return Base{AreaState::fail, "Level Zero gave no answer (its probe failed)"};
  }
  if (!lz.library) return Base{AreaState::absent, "no Level Zero loader (libze1)"};
  if (listed.empty()) {
    return Base{AreaState::absent, lz.error ? "the loader found no Level Zero driver that "
                                              "initialises"
                                            : "no Level Zero device"};
  }
  // Listing devices is examined; a smoke test that ran on none of them (a build without the
  // SPIR-V kernel) leaves the area not examined rather than ✓.
  const bool smoke_skipped =
      !lz.smoke.empty() && std::all_of(lz.smoke.begin(), lz.smoke.end(),
                                       [](const SmokeResult& r) { return r.status == "skip"; });
  return Base{smoke_skipped ? AreaState::not_examined : AreaState::ok,
              api_summary(listed, lz.smoke, true)};
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
  if (area == "metal") return metal_base(s);
  if (area == "level_zero") return level_zero_base(s);
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

bool is_area(std::string_view area) {
  return std::find(std::begin(kAreas), std::end(kAreas), area) != std::end(kAreas);
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
    // A framework line is never fine while the framework's pairing fails under another area
    // (tensorflow-macos with its tensorflow-metal under macos): the line follows it, and says
    // where.
    std::vector<std::string> judged_elsewhere;
    if (area == "python") {
      const auto frameworks = python_line_frameworks(snap);
      for (const auto& f : findings) {
        if (f.severity < Severity::warn || !judges_python_framework(f, frameworks)) continue;
        if (!worst || f.severity > *worst) worst = f.severity;
        const std::string where = f.area;
        if (std::find(judged_elsewhere.begin(), judged_elsewhere.end(), where) ==
            judged_elsewhere.end()) {
          judged_elsewhere.push_back(where);
        }
      }
    }
    MaybeBase base = base_of(area, snap, devices);
    if (!base && !worst) continue;
    if (base && !judged_elsewhere.empty()) {
      base->summary += "; fails with its pairing under " + join(judged_elsewhere, ", ");
    }
    AreaStatus a{std::string(area), base ? base->state : AreaState::info,
                 base ? base->summary : ""};
    // A report that recorded findings but no facts for the area (a brief record): its verdict
    // stands as recorded, and nothing else about the area was examined here.
    if (!base && snap.origin == Origin::report) {
      a.summary = "as recorded (the report holds no facts to examine)";
    }
    // A paste that states only an error for the area ("Error 34: CUDA driver is a stub
    // library"): the line says where its verdict comes from instead of ending blank.
    if (!base && snap.origin == Origin::paste) a.summary = "from what the paste says";
    // A warning or failure outranks the area's own state. A note changes nothing: it neither
    // hides that nothing was there or examined, nor takes the mark from an area found fine (a
    // note under "✓ gpu" is read as a note; "- gpu" would read as no GPU).
    if (worst && *worst >= Severity::warn) {
      a.state = *worst == Severity::fail ? AreaState::fail : AreaState::warn;
    }
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace gpudoctor
