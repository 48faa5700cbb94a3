#include "report/diff.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "render/nvidia_text.hpp"
#include "report/diff_facts.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace diff {

void Facts::add(int rank, const std::string& area, const std::string& what,
                const std::optional<std::string>& value) {
  if (value && !value->empty()) facts_.push_back({rank, area, what, *value});
}

void Facts::add_set(int rank, const std::string& area, const std::string& what,
                    const std::set<std::string>& values) {
  add(rank, area, what, join({values.begin(), values.end()}, ", "));
}

}  // namespace diff

namespace {

using namespace diff;

/// One fact per finding id, in the checks' order; a check that found several things (one per
/// Python environment) gives all of their titles, ranked by the worst.
void add_findings(Facts& f, const std::vector<Finding>& findings) {
  struct Found {
    int rank;
    std::set<std::string> titles;
  };
  std::vector<std::string> ids;
  std::map<std::string, Found> by_id;
  for (const auto& x : findings) {
    if (x.severity == Severity::ok) continue;
    const int rank = x.severity == Severity::fail   ? kFailure
                     : x.severity == Severity::warn ? kWarning
                                                    : kNote;
    auto [it, added] = by_id.try_emplace(x.id, Found{rank, {}});
    if (added) ids.push_back(x.id);
    it->second.rank = std::min(it->second.rank, rank);
    it->second.titles.insert(std::string(to_string(x.severity)) + ": " + x.title);
  }
  for (const auto& id : ids) {
    const Found& found = by_id.at(id);
    f.add(found.rank, "finding", id, join({found.titles.begin(), found.titles.end()}, "; "));
  }
}

/// The version the dynamic loader would pick: the first unshadowed file.
std::optional<std::string> picked_version(const std::vector<LibraryFile>& files) {
  for (const auto& l : files) {
    if (!l.shadowed && l.version) return *l.version + (l.stub ? " (stub)" : "");
  }
  return std::nullopt;
}

void add_nvidia(Facts& f, const Snapshot& s) {
  if (s.nvidia) {
    const auto& n = *s.nvidia;
    f.add(kDriver, "driver", "NVIDIA kernel module", n.kernel.module_version);
    f.add(kDriver, "driver", "kernel modules loaded", join(n.kernel.loaded_modules, ", "));
    f.add(kDriver, "driver", "libcuda the loader picks", picked_version(n.libcuda));
    f.add(kDriver, "driver", "libnvidia-ml the loader picks", picked_version(n.libnvidia_ml));
    std::set<std::string> toolkits, cudnn, nccl;
    for (const auto& t : n.toolkits) {
      if (t.version) toolkits.insert(*t.version);
      if (t.cudnn_version) cudnn.insert(*t.cudnn_version);
      if (t.nccl_version) nccl.insert(*t.nccl_version);
    }
    f.add_set(kToolkit, "toolkit", "CUDA toolkits", toolkits);
    f.add(kToolkit, "toolkit", "/usr/local/cuda points to", n.usr_local_cuda);
    f.add(kToolkit, "toolkit", "nvcc on PATH", n.nvcc_on_path);
    f.add_set(kCudnn, "cudnn", "cuDNN", cudnn);
    f.add_set(kCudnn, "cudnn", "NCCL", nccl);
    f.add(kVariable, "variable", "CUDA_VISIBLE_DEVICES", n.cuda_visible_devices);
    f.add(kVariable, "variable", "NVIDIA_VISIBLE_DEVICES", n.nvidia_visible_devices);
    f.add(kVariable, "variable", "LD_LIBRARY_PATH", n.ld_library_path);
  }
  if (s.nvml) f.add(kDriver, "driver", "NVML driver version", s.nvml->driver_version);
  if (s.cuda && s.cuda->driver_version) {
    f.add(kDriver, "driver", "CUDA driver API", cuda_version_text(*s.cuda->driver_version));
  }
  if (s.cuda && s.cuda->init_error) f.add(kDriver, "driver", "cuInit", "fails");
}

/// "2.5.1+cu124", with what a TensorFlow build says of its CUDA and cuDNN.
std::string package_build(const PythonPackage& p) {
  std::string v = p.torch && p.torch->version ? *p.torch->version : p.version.value_or("?");
  if (p.tensorflow) {
    const auto& t = *p.tensorflow;
    if (t.cuda_version) v += " (CUDA " + *t.cuda_version;
    if (t.cuda_version && t.cudnn_version) v += ", cuDNN " + *t.cudnn_version;
    if (t.cuda_version) v += ")";
  }
  return v;
}

void add_python(Facts& f, const Snapshot& s) {
  if (!s.python) return;
  std::set<std::string> pythons, archs;
  std::map<std::string, std::set<std::string>> builds;
  for (const auto& env : s.python->envs) {
    if (env.python_version) pythons.insert(*env.python_version);
    // An x86_64 Python on Apple silicon runs in Rosetta and cannot use Metal or MPS.
    if (env.executable_archs) archs.insert(join(*env.executable_archs, "+"));
    for (const auto& p : env.packages) builds[p.name].insert(package_build(p));
  }
  for (const auto& [name, versions] : builds) f.add_set(kFramework, "framework", name, versions);
  f.add_set(kPython, "python", "Python versions", pythons);
  f.add_set(kPython, "python", "Python interpreter architectures", archs);
}

void add_devices(Facts& f, const Snapshot& s, const std::vector<MergedDevice>& devices) {
  std::set<std::string> names;
  for (const auto& d : devices) {
    std::string name = d.name;
    for (auto c : d.cuda) {
      const auto& cd = s.cuda->devices[c];
      if (cd.cc_major && cd.cc_minor) {
        name += " (compute capability " + std::to_string(*cd.cc_major) + "." +
                std::to_string(*cd.cc_minor) + ")";
      }
    }
    names.insert(name);
  }
  f.add_set(kDevice, "devices", "devices", names);
  f.add(kDevice, "devices", "device count", std::to_string(devices.size()));
  auto add_smoke = [&f](const std::vector<SmokeResult>& results) {
    for (const auto& r : results) f.add(kSmoke, "smoke", r.api + " " + r.device, r.status);
  };
  if (s.cuda) add_smoke(s.cuda->smoke);
  if (s.opencl) add_smoke(s.opencl->smoke);
  if (s.vulkan) add_smoke(s.vulkan->smoke);
}

void add_host(Facts& f, const Snapshot& s) {
  if (!s.host) return;
  const auto& h = *s.host;
  f.add(kHost, "host", "OS", h.os_pretty_name);
  f.add(kHost, "host", "kernel", h.kernel_release);
  f.add(kHost, "host", "architecture", h.architecture);
  f.add(kHost, "host", "glibc", h.glibc_version);
  f.add(kHost, "host", "container", h.container);
  if (h.wsl) f.add(kHost, "host", "WSL", "WSL" + h.wsl_version.value_or(""));
  if (h.vm) f.add(kHost, "host", "virtual machine", h.virtualization.value_or("yes"));
}

void add_apis(Facts& f, const Snapshot& s) {
  if (s.opencl) {
    std::set<std::string> platforms;
    for (const auto& p : s.opencl->platforms) {
      platforms.insert(p.name.value_or("?") + (p.version ? " " + *p.version : ""));
    }
    f.add_set(kApi, "opencl", "OpenCL platforms", platforms);
  }
  if (s.vulkan) {
    std::set<std::string> drivers;
    for (const auto& d : s.vulkan->devices) {
      drivers.insert(d.driver_name.value_or(d.name.value_or("?")) +
                     (d.driver_version ? " " + *d.driver_version : ""));
    }
    f.add_set(kApi, "vulkan", "Vulkan drivers", drivers);
    f.add(kApi, "vulkan", "Vulkan instance", s.vulkan->instance_version);
  }
}

Facts facts_of(const DiffSide& side) {
  Facts f;
  add_findings(f, side.findings);
  add_nvidia(f, side.snap);
  add_python(f, side.snap);
  add_devices(f, side.snap, side.devices);
  add_host(f, side.snap);
  add_apis(f, side.snap);
  add_rocm(f, side.snap);
  add_macos(f, side.snap);
  return f;
}

}  // namespace

std::vector<Difference> diff_machines(const DiffSide& a, const DiffSide& b) {
  std::vector<Difference> out;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  auto merge = [&](const Facts& facts, bool is_a) {
    for (const auto& x : facts.all()) {
      auto [it, added] = index.emplace(std::make_pair(x.area, x.what), out.size());
      if (added) out.push_back({x.rank, x.area, x.what, std::nullopt, std::nullopt});
      (is_a ? out[it->second].a : out[it->second].b) = x.value;
    }
  };
  merge(facts_of(a), true);
  merge(facts_of(b), false);
  out.erase(std::remove_if(out.begin(), out.end(), [](const Difference& d) { return d.a == d.b; }),
            out.end());
  std::stable_sort(out.begin(), out.end(),
                   [](const Difference& x, const Difference& y) { return x.rank < y.rank; });
  return out;
}

std::string render_diff_text(const std::vector<Difference>& diffs, const std::string& a_name,
                             const std::string& b_name) {
  std::ostringstream os;
  os << "A: " << a_name << "\nB: " << b_name << "\n\n";
  if (diffs.empty()) {
    os << "No differences that matter.\n";
    return os.str();
  }
  for (const auto& d : diffs) {
    os << d.area << ": " << d.what << "\n"
       << "  A: " << d.a.value_or("(none)") << "\n"
       << "  B: " << d.b.value_or("(none)") << "\n";
  }
  os << "\n"
     << diffs.size() << (diffs.size() == 1 ? " difference" : " differences")
     << ", most important first.\n";
  return os.str();
}

Json diff_json(const std::vector<Difference>& diffs, const std::string& a_name,
               const std::string& b_name) {
  return {{"schema_version", kSchemaVersion}, {"a", a_name}, {"b", b_name}, {"differences", diffs}};
}

}  // namespace gpudoctor
