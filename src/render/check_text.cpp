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
  const bool u = st.unicode();  // a locale that is not UTF-8 shows ASCII
  switch (s) {
    case Severity::ok:
      return st.green(u ? "✓" : "+");
    case Severity::info:
      return st.cyan(u ? "•" : "-");
    case Severity::warn:
      return st.yellow("!");
    case Severity::fail:
      return st.red(u ? "✗" : "x");
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
      for (auto i : m.vulkan) out.push_back({s.vulkan->devices[i].name.value_or(m.name), m.software});
    } else {
      for (auto [p, d] : m.opencl) {
        const auto& plat = s.opencl->platforms[p];
        out.push_back({plat.devices[d].name.value_or(m.name) + opt_text(plat.name, " on "),
                       m.software});
      }
    }
  }
  return out;
}

/// "1.9" or "1.8–2.1": the values' range, printed with `fmt`.
std::string range_text(const std::vector<double>& v, const char* fmt, const Style& st) {
  auto one = [&](double x) {
    char buf[48];
    std::snprintf(buf, sizeof buf, fmt, x);
    return std::string(buf);
  };
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  const std::string a = one(*lo);
  const std::string b = one(*hi);
  return a == b ? a : a + (st.unicode() ? "–" : "-") + b;
}

/// "smoke matmul PASS (n=256, 1.9 ms, 17.4 GFLOPS)" for one result of a device, or for several
/// of identical devices "smoke matmul PASS ×8 (n=256, 1.8–2.1 ms, 16.9–17.4 GFLOPS)";
/// " on <device>" only when `device` is given.
std::string smoke_text(const std::vector<const SmokeResult*>& rs, const std::string& device,
                       const Style& st) {
  std::vector<std::string> statuses;
  std::vector<int> sizes;
  std::vector<double> ms;
  std::vector<double> gflops;
  for (const SmokeResult* r : rs) {
    const std::string status = to_upper_ascii(r->status);
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
      return to_upper_ascii(r->status) == status;
    });
    counted.push_back(status + (rs.size() > 1 ? (st.unicode() ? " ×" : " x") + std::to_string(n)
                                              : ""));
  }
  std::vector<std::string> detail;
  if (sizes.size() == 1) detail.push_back("n=" + std::to_string(sizes[0]));
  if (!ms.empty()) detail.push_back(range_text(ms, "%.3g", st) + " ms");
  if (!gflops.empty()) detail.push_back(range_text(gflops, "%.1f", st) + " GFLOPS");
  return "smoke matmul " + join(counted, ", ") + (device.empty() ? "" : " on " + device) +
         (detail.empty() ? "" : " (" + join(detail, ", ") + ")");
}

/// The smoke results, those of one device name together.
void add_smoke_parts(const std::vector<SmokeResult>& results, std::vector<std::string>& parts,
                     const Style& st) {
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
    parts.push_back(smoke_text(mine, d, st));
  }
}

/// The API's devices, identical ones once with a count, each followed by its smoke results (the
/// device named once); then any smoke result that names no listed device.
std::string api_summary(const std::vector<ApiDevice>& devices,
                        const std::vector<SmokeResult>& smoke, const Style& st) {
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
                       (count > 1 ? (st.unicode() ? " ×" : " x") + std::to_string(count) : "");
    std::vector<const SmokeResult*> mine;
    for (const auto& r : smoke) {
      if (r.device == d.name) mine.push_back(&r);
    }
    if (!mine.empty()) text += ", " + smoke_text(mine, "", st);
    names.push_back(std::move(text));
  }
  std::vector<std::string> parts{names.empty() ? "no device" : join(names, ", ")};
  add_smoke_parts(other, parts, st);
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
                         const std::vector<MergedDevice>& devices, const Style& st) {
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
  if (area == "gpu" && s.pci) {
    // Identical boards (an 8-GPU server) once, with a count and each one's place: #index in
    // bus order (as nvidia-smi numbers them) and its address, one word each so none wraps apart.
    struct Group {
      std::string name;
      std::vector<std::size_t> index;
      std::vector<std::string> address;
    };
    std::vector<Group> gpus;
    for (std::size_t i = 0; i < s.pci->devices.size(); ++i) {
      const PciDevice& p = s.pci->devices[i];
      std::string name = p.device_name.value_or(hex(p.vendor_id, 4) + ":" + hex(p.device_id, 4)) +
                         " (" + p.driver.value_or("no driver") + ")";
      auto same =
          std::find_if(gpus.begin(), gpus.end(), [&](const Group& g) { return g.name == name; });
      if (same == gpus.end()) same = gpus.insert(gpus.end(), Group{std::move(name), {}, {}});
      same->index.push_back(i);
      same->address.push_back(p.address);
    }
    if (gpus.empty()) {
      return "no GPU on the PCI bus (" + std::to_string(s.pci->devices_scanned) +
             " functions scanned)";
    }
    std::vector<std::string> names;
    for (const auto& g : gpus) {
      if (g.index.size() == 1) {
        names.push_back(g.name);
        continue;
      }
      names.push_back(g.name + (st.unicode() ? " ×" : " x") + std::to_string(g.index.size()) +
                      " (#" + index_list(g.index) + " at " + join(g.address, ", ") + ")");
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
    if (s.cuda) add_smoke_parts(s.cuda->smoke, parts, st);
    if (s.nvidia) {
      for (const auto& t : s.nvidia->toolkits) parts.push_back(toolkit_summary(t));
    }
    return join(parts, "; ");
  }
  if (area == "opencl" && s.opencl) {
    if (!s.live)
      return plural(s.opencl->icds.size(), "ICD") + " registered (not loaded under --sysroot)";
    return api_summary(api_devices(s, devices, false), s.opencl->smoke, st);
  }
  if (area == "vulkan" && s.vulkan) {
    if (!s.live)
      return plural(s.vulkan->manifests.size(), "driver manifest") +
             " (not loaded under --sysroot)";
    return api_summary(api_devices(s, devices, true), s.vulkan->smoke, st);
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

/// A finding: its title (and id) after its mark, evidence, fix and source under the title;
/// long lines wrap under their own start.
void render_finding(std::ostringstream& os, const Finding& f, const Style& st) {
  std::string head = st.fill(f.title, 6, 6);
  // The id after the title, or under it when the title's last line has no room.
  const std::size_t last = display_width(head.substr(head.rfind('\n') + 1)) +
                           (head.find('\n') == std::string::npos ? 6 : 0);
  const bool fits = !st.width() || last + 2 + f.id.size() <= *st.width();
  head += (fits ? "  " : "\n      ") + st.dim(f.id);
  os << "    " << mark(f.severity, st) << " " << head << "\n";
  for (const auto& e : f.evidence) {
    if (!e.empty()) os << "        " << st.dim(st.fill(e, 8, 10)) << "\n";
  }
  if (f.fix) os << "        " << st.bold("fix: ") << st.fill(*f.fix, 13, 13) << "\n";
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
    std::string summary = area_summary(area, snap, devices, st);
    if (summary.empty() && mine.empty()) continue;
    std::string label(area);
    label.resize(8, ' ');
    os << mark(worst, st) << " " << st.bold(label) << st.fill(summary, 10, 10) << "\n";
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

std::string render_explain_list(const std::vector<CheckId>& ids, const Style& style) {
  std::size_t width = 0;
  for (const auto& c : ids) width = std::max(width, c.id.size());
  std::ostringstream os;
  for (const auto& c : ids) {
    os << c.id << std::string(width + 2 - c.id.size(), ' ')
       << style.fill(check_title(*c.spec), width + 2, width + 2) << "\n";
  }
  os << "\ngpudoctor explain ID says what a check looks at, why, and its source.\n";
  return os.str();
}

int check_exit_code(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.severity == Severity::fail; })
             ? 1
             : 0;
}

}  // namespace gpudoctor
