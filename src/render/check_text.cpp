#include "render/check_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include "api/cuda/cuda_codes.hpp"
#include "facts/area_summaries.hpp"
#include "render/query_text.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// Areas in the order a person debugs them: hardware, kernel driver, CUDA, the other APIs.
constexpr std::string_view kAreas[] = {"host",   "gpu",    "nvidia", "cuda", "opencl",
                                       "vulkan", "python", "macos",  "rocm"};

std::string mark(Severity s, const Style& st) {
  switch (s) {
    case Severity::ok:
      return st.green("✓");
    case Severity::info:
      return st.cyan("•");
    case Severity::warn:
      return st.yellow("!");
    case Severity::fail:
      return st.red("✗");
  }
  return "?";
}

std::string to_upper_ascii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string opt_text(const std::optional<std::string>& v, const std::string& prefix) {
  return v ? prefix + *v : "";
}

std::string plural(std::size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// The API's own names for its devices, with "(CPU)" where the device is the processor.
std::string api_device_names(const Snapshot& s, const std::vector<MergedDevice>& devices,
                             bool vulkan) {
  std::vector<std::string> names;
  for (const auto& m : devices) {
    if (vulkan) {
      for (auto i : m.vulkan) {
        names.push_back(s.vulkan->devices[i].name.value_or(m.name) + (m.software ? " (CPU)" : ""));
      }
    } else {
      for (auto [p, d] : m.opencl) {
        const auto& plat = s.opencl->platforms[p];
        names.push_back(plat.devices[d].name.value_or(m.name) + opt_text(plat.name, " on ") +
                        (m.software ? " (CPU)" : ""));
      }
    }
  }
  return join(names, ", ");
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
    parts.push_back("smoke matmul " + to_upper_ascii(r.status) + " on " + r.device +
                    (detail.empty() ? "" : " (" + detail + ")"));
  }
}

/// The API's devices, then its smoke results.
std::string api_summary(const std::string& devices, const std::vector<SmokeResult>& smoke) {
  std::vector<std::string> parts{devices.empty() ? "no device" : devices};
  add_smoke_parts(smoke, parts);
  return join(parts, "; ");
}

/// What the area looks like when nothing is wrong with it; empty when it does not apply.
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

std::string area_summary(std::string_view area, const Snapshot& s,
                         const std::vector<MergedDevice>& devices) {
  if (area == "host" && s.host) {
    const HostInfo& h = *s.host;
    std::vector<std::string> parts;
    if (h.os_pretty_name) parts.push_back(*h.os_pretty_name);
    if (h.kernel_release) parts.push_back("kernel " + *h.kernel_release);
    if (h.virtualization) parts.push_back("virtual machine (" + *h.virtualization + ")");
    if (h.container) parts.push_back("container (" + *h.container + ")");
    if (h.wsl) parts.push_back("WSL");
    return join(parts, ", ");
  }
  // A Mac has no PCI list and no kernel modules to speak of: system_profiler lists its GPUs.
  if (area == "gpu" && s.macos) return facts::macos_gpu_summary(*s.macos);
  if (area == "nvidia" && s.macos) return "";
  if (area == "gpu" && s.pci) {
    // Identical boards (an 8-GPU server) once, with a count, in bus order of their first.
    std::vector<std::pair<std::string, int>> gpus;
    for (const auto& p : s.pci->devices) {
      std::string name = p.device_name.value_or(hex(p.vendor_id, 4) + ":" + hex(p.device_id, 4)) +
                         " (" + p.driver.value_or("no driver") + ")";
      auto same =
          std::find_if(gpus.begin(), gpus.end(), [&](const auto& g) { return g.first == name; });
      if (same == gpus.end()) {
        gpus.emplace_back(std::move(name), 1);
      } else {
        ++same->second;
      }
    }
    if (gpus.empty()) {
      return "no GPU on the PCI bus (" + std::to_string(s.pci->devices_scanned) +
             " functions scanned)";
    }
    std::vector<std::string> names;
    for (const auto& [name, count] : gpus) {
      names.push_back(count > 1 ? name + " ×" + std::to_string(count) : name);
    }
    return join(names, ", ");
  }
  if (area == "nvidia" && s.nvidia) {
    const NvidiaKernel& k = s.nvidia->kernel;
    if (k.module_version) {
      return "driver " + *k.module_version + (k.module_flavor ? " (" + *k.module_flavor + ")" : "");
    }
    return "no NVIDIA kernel driver loaded";
  }
  if (area == "cuda") {
    std::vector<std::string> parts;
    if (s.cuda && s.cuda->driver_version) {
      parts.push_back("driver supports CUDA " + cuda_version_text(*s.cuda->driver_version));
    }
    if (s.cuda && !s.cuda->devices.empty()) {
      parts.push_back(plural(s.cuda->devices.size(), "device"));
    }
    if (s.cuda) add_smoke_parts(s.cuda->smoke, parts);
    if (s.nvidia) {
      for (const auto& t : s.nvidia->toolkits) parts.push_back(toolkit_summary(t));
    }
    return join(parts, "; ");
  }
  if (area == "opencl" && s.opencl) {
    std::string n = api_device_names(s, devices, false);
    const bool framework =
        !s.opencl->icds.empty() && s.opencl->icds.front().source == kOpenClAppleFramework;
    if (!s.live && framework) return "OpenCL.framework (not loaded under --sysroot)";
    if (!s.live)
      return plural(s.opencl->icds.size(), "ICD") + " registered (not loaded under --sysroot)";
    return api_summary(n, s.opencl->smoke);
  }
  if (area == "vulkan" && s.vulkan) {
    std::string n = api_device_names(s, devices, true);
    if (!s.live)
      return plural(s.vulkan->manifests.size(), "driver manifest") +
             " (not loaded under --sysroot)";
    return api_summary(n, s.vulkan->smoke);
  }
  if (area == "macos" && s.macos) return facts::macos_summary(*s.macos);
  if (area == "rocm" && s.rocm) return facts::rocm_summary(*s.rocm);
  if (area == "python" && s.python) {
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
    std::string envs = plural(s.python->envs.size(), "environment");
    return frameworks.empty() ? envs + ", no GPU framework installed"
                              : envs + "; " + join(frameworks, ", ");
  }
  return "";
}

void render_finding(std::ostringstream& os, const Finding& f, const Style& st) {
  os << "    " << mark(f.severity, st) << " " << f.title << "  " << st.dim(f.id) << "\n";
  for (const auto& e : f.evidence) {
    if (!e.empty()) os << "        " << st.dim(e) << "\n";
  }
  if (f.fix) os << "        " << st.bold("fix: ") << *f.fix << "\n";
  if (f.source) os << "        " << st.dim("source: " + *f.source) << "\n";
}

}  // namespace

std::string render_check_text(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                              const std::vector<Finding>& findings, const Style& st) {
  std::ostringstream os;
  std::size_t counts[4] = {0, 0, 0, 0};
  for (std::string_view area : kAreas) {
    Severity worst = Severity::ok;
    std::vector<const Finding*> mine;
    for (const auto& f : findings) {
      if (f.area != area) continue;
      mine.push_back(&f);
      worst = std::max(worst, f.severity);
    }
    std::string summary = area_summary(area, snap, devices);
    if (summary.empty() && mine.empty()) continue;
    std::string label(area);
    label.resize(8, ' ');
    os << mark(worst, st) << " " << st.bold(label) << summary << "\n";
    for (const Finding* f : mine) render_finding(os, *f, st);
  }
  for (const auto& f : findings) ++counts[static_cast<int>(f.severity)];
  os << "\n"
     << plural(counts[3], "failure") << ", " << plural(counts[2], "warning") << ", "
     << plural(counts[1], "note") << ".  Every device and detail: gpudoctor query\n";
  return os.str();
}

Json check_json(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                const std::vector<Finding>& findings) {
  return Json{{"schema_version", kSchemaVersion},
              {"findings", findings},
              {"snapshot", query_json(snap, devices)}};
}

std::string render_explain(const CheckSpec& spec) {
  std::ostringstream os;
  os << spec.id << "  (" << spec.area << ")\n\n"
     << "Looks at: " << spec.looks_at << "\n\n"
     << "Why: " << spec.why << "\n";
  if (!spec.source.empty()) os << "\nSource: " << spec.source << "\n";
  return os.str();
}

int check_exit_code(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.severity == Severity::fail; })
             ? 1
             : 0;
}

}  // namespace gpudoctor
