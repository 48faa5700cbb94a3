// The ML frameworks installed in each Python environment, against the GPU, the driver and the
// frameworks' own release matrices.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "checks/python_facts.hpp"
#include "compat/compat_query.hpp"

namespace gpudoctor {

std::string env_label(const PythonEnv& env) {
  return env.prefix + (env.python_version ? " (Python " + *env.python_version + ")" : "");
}

const PythonPackage* find_package(const PythonEnv& env, std::string_view name) {
  for (const auto& p : env.packages) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

bool windows_wheel(const PythonPackage& p) {
  return std::any_of(p.wheel_tags.begin(), p.wheel_tags.end(),
                     [](const std::string& t) { return t.find("win") != std::string::npos; });
}

bool usable_nvidia_gpu(const Snapshot& s) {
  for (const PciDevice* p : pci_gpus(s, kPciVendorNvidia)) {
    if (p->driver == std::optional<std::string>("nvidia")) return true;
  }
  return (s.cuda && !s.cuda->devices.empty()) || (s.nvml && !s.nvml->devices.empty());
}

std::optional<DriverNeed> driver_for_bundled_cuda(const CompatData& data, const Version& cuda) {
  auto need = minor_compat_for_cuda(data, cuda, CompatOs::kLinux);
  if (need && need->supported && need->min_driver) return DriverNeed{*need->min_driver, need->from.url};
  if (auto full = min_driver_for_cuda(data, cuda, CompatOs::kLinux)) {
    return DriverNeed{full->driver, full->from.url};
  }
  return std::nullopt;
}

namespace {

struct TorchInEnv {
  const PythonEnv* env;
  const PythonPackage* pkg;
  const TorchBuildInfo* build;
};

std::vector<TorchInEnv> torches(const Snapshot& s) {
  std::vector<TorchInEnv> out;
  if (!s.python) return out;
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      if (p.name == "torch" && p.torch) out.push_back({&env, &p, &*p.torch});
    }
  }
  return out;
}

std::string where(const PythonEnv& env) { return env_label(env); }

/// The newest CUDA build of this torch release whose major the driver runs (by the
/// minor-version-compatibility minimums), as a pip index tag: "cu124".
std::optional<std::string> best_torch_build(const CheckInput& in, const Version& torch,
                                            const std::optional<Version>& driver) {
  auto release = torch_release(in.compat, torch);
  if (!release) return std::nullopt;
  std::optional<Version> best;
  for (const auto& b : release->cuda) {
    if (!b.stable) continue;
    if (driver) {
      auto need = minor_compat_for_cuda(in.compat, b.cuda, CompatOs::kLinux);
      if (!need || !need->min_driver || *driver < *need->min_driver) continue;
    }
    if (!best || b.cuda > *best) best = b.cuda;
  }
  if (!best) return std::nullopt;
  return "cu" + std::to_string(best->parts.at(0)) +
         std::to_string(best->parts.size() > 1 ? best->parts[1] : 0);
}

std::string pip_command(const std::string& torch_version, const std::string& tag) {
  return "pip install --force-reinstall torch==" + torch_version +
         " --index-url https://download.pytorch.org/whl/" + tag;
}

}  // namespace

void check_torch_cpu_only(const CheckSpec& self, const CheckInput& in,
                          std::vector<Finding>& out) {
  if (!usable_nvidia_gpu(in.snap)) return;
  auto driver_text = installed_driver_version(in.snap);
  auto driver = driver_text ? parse_version(*driver_text) : std::nullopt;
  for (const auto& t : torches(in.snap)) {
    if (t.build->cuda || t.build->hip) continue;
    Finding f = make_finding(self, Severity::fail,
                             "torch " + t.build->version.value_or(t.pkg->version.value_or("?")) +
                                 " in " + where(*t.env) +
                                 " is a CPU-only build: torch.cuda.is_available() is False on "
                                 "this GPU machine");
    f.evidence.push_back("torch/version.py: cuda = None" +
                         std::string(t.build->local_version ? ", +" + *t.build->local_version : ""));
    auto v = parse_version(t.pkg->version.value_or(""));
    auto tag = v ? best_torch_build(in, *v, driver) : std::nullopt;
    std::string plain = v ? numeric_string(*v) : "<version>";
    f.fix = tag ? pip_command(plain, *tag) + " (the newest CUDA build your driver runs)"
                : "reinstall torch from a CUDA index: https://pytorch.org/get-started/locally/";
    out.push_back(std::move(f));
  }
}

void check_torch_gpu_vendor(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  // Which vendors' GPUs the PCI list holds; a machine whose list was not read is not judged.
  struct Vendor {
    std::uint16_t id;
    const char* name;
    const char* build;  ///< the torch build that reaches it
    const char* index;  ///< where that build comes from
  };
  static constexpr Vendor kVendors[] = {
      {kPciVendorNvidia, "NVIDIA", "CUDA",
       "pip install torch --index-url https://download.pytorch.org/whl/cuXYZ (the CUDA your "
       "driver runs; https://pytorch.org/get-started/locally/)"},
      {kPciVendorAmd, "AMD", "ROCm",
       "pip install torch --index-url https://download.pytorch.org/whl/rocmX.Y (the ROCm "
       "releases https://pytorch.org/get-started/locally/ lists; Linux only)"},
      {kPciVendorIntel, "Intel", "XPU",
       "pip install torch --index-url https://download.pytorch.org/whl/xpu "
       "(https://pytorch.org/get-started/locally/)"},
  };
  for (const auto& t : torches(in.snap)) {
    const bool cuda = t.build->cuda && !t.build->hip;
    const bool rocm = t.build->hip.has_value();
    if (!cuda && !rocm) continue;  // a CPU, XPU or MPS build: other checks
    const std::uint16_t needs = cuda ? kPciVendorNvidia : kPciVendorAmd;
    if (!pci_shows_no_gpu_of(in.snap, needs)) continue;
    const Vendor* other = nullptr;
    for (const auto& v : kVendors) {
      if (v.id != needs && !pci_gpus(in.snap, v.id).empty()) {
        other = &v;
        break;
      }
    }
    if (!other) continue;  // no GPU at all: gpu.none says it
    const std::string label = "torch " + t.build->version.value_or(t.pkg->version.value_or("?"));
    const std::string built = cuda ? "CUDA " + *t.build->cuda : "ROCm (HIP " + *t.build->hip + ")";
    // An Intel iGPU beside the default (CUDA) wheel is often a CPU-only setup by intent, and
    // few iGPUs run torch's XPU build: a warning there, a failure on an AMD or NVIDIA GPU.
    Finding f = make_finding(
        self, other->id == kPciVendorIntel ? Severity::warn : Severity::fail,
        label + " in " + where(*t.env) + " is a " + built + " build, and this machine's GPU is " +
            other->name + "'s: " +
            (cuda ? "torch.cuda.is_available() is False (\"Found no NVIDIA driver on your system\")"
                  : "torch finds no AMD GPU (\"No HIP GPUs are available\")") +
            " and everything runs on the CPU");
    f.evidence.push_back(std::string("torch/version.py: ") +
                         (cuda ? "cuda = " + *t.build->cuda : "hip = " + *t.build->hip));
    for (const PciDevice* p : pci_gpus(in.snap, other->id)) f.evidence.push_back("GPU " + pci_label(*p));
    f.fix = std::string("install torch's ") + other->build + " build in this environment: " +
            other->index;
    out.push_back(std::move(f));
  }
}

void check_torch_cuda_vs_driver(const CheckSpec& self, const CheckInput& in,
                                std::vector<Finding>& out) {
  auto driver_text = installed_driver_version(in.snap);
  auto driver = driver_text ? parse_version(*driver_text) : std::nullopt;
  if (!driver) return;
  for (const auto& t : torches(in.snap)) {
    if (!t.build->cuda) continue;
    auto cuda = parse_version(*t.build->cuda);
    if (!cuda) continue;
    auto need = driver_for_bundled_cuda(in.compat, *cuda);
    if (!need || *driver >= need->driver) continue;
    const Version* min = &need->driver;
    const std::string& url = need->source;
    std::string label = t.build->version.value_or("torch");
    Finding f = make_finding(self, Severity::fail,
                             "torch " + label + " in " + where(*t.env) + " bundles CUDA " +
                                 *t.build->cuda + ", which needs driver ≥ " + min->text +
                                 "; this driver is " + *driver_text +
                                 ": torch.cuda.is_available() is False");
    f.evidence.push_back("torch.version.cuda = " + *t.build->cuda);
    f.evidence.push_back("NVIDIA driver " + *driver_text);
    if (auto branch = max_cuda_for_driver(in.compat, *driver)) {
      f.evidence.push_back("driver " + *driver_text + " supports CUDA up to " +
                           branch->max_cuda.text);
    }
    auto v = parse_version(t.pkg->version.value_or(""));
    auto tag = v ? best_torch_build(in, *v, driver) : std::nullopt;
    f.fix = "install NVIDIA driver " + min->text + " or newer" +
            (tag ? ", or keep the driver and install the build it runs: " +
                       pip_command(numeric_string(*v), *tag)
                 : "");
    f.source = url;
    out.push_back(std::move(f));
  }
}

void check_framework_python(const CheckSpec& self, const CheckInput& in,
                            std::vector<Finding>& out) {
  for (const auto& t : torches(in.snap)) {
    if (!t.env->python_version) continue;
    auto py = parse_version(*t.env->python_version);
    auto v = parse_version(t.pkg->version.value_or(""));
    if (!py || !v) continue;
    auto release = torch_release(in.compat, *v);
    if (!release || in_range(*py, release->python)) continue;
    // The release matrix lists some Pythons as experimental (torch 2.2 and 2.3: 3.12): wheels
    // exist, so "not released" would be wrong; a note says what the matrix says.
    // "3.13t" (free-threaded) is another build than "3.13": only an entry without a suffix fits.
    const auto& experimental = release->python_experimental;
    const auto listed = std::find_if(experimental.begin(), experimental.end(),
                                     [&](const std::string& e) {
                                       const auto entry = parse_version(e);
                                       return entry && entry->suffix.empty() &&
                                              same_minor(*py, *entry);
                                     });
    if (listed != experimental.end()) {
      const std::string& minor = *listed;
      Finding f = make_finding(self, Severity::info,
                               "torch " + t.pkg->version.value_or("") + " supports Python " +
                                   minor + " only as experimental (" + where(*t.env) + ")");
      f.evidence.push_back("torch " + release->torch.text + " supports Python " +
                           (release->python.min ? release->python.min->text : "?") + " to " +
                           (release->python.max ? release->python.max->text : "?") +
                           ", and " + minor + " experimentally");
      f.fix = "if something in this environment fails without a reason, try a Python in the "
              "supported range or a newer torch";
      f.source = release->from.url;
      out.push_back(std::move(f));
      continue;
    }
    Finding f = make_finding(self, Severity::warn,
                             "torch " + t.pkg->version.value_or("") + " is not released for Python " +
                                 *t.env->python_version + " (" + where(*t.env) + ")");
    f.evidence.push_back("torch " + release->torch.text + " supports Python " +
                         (release->python.min ? release->python.min->text : "?") + " to " +
                         (release->python.max ? release->python.max->text : "?"));
    f.fix = "use a Python in that range for this environment, or a torch release that supports "
            "Python " + *t.env->python_version;
    f.source = release->from.url;
    out.push_back(std::move(f));
  }
  check_tensorflow_python(self, in, out);
}

void check_tensorflow_python(const CheckSpec& self, const CheckInput& in,
                             std::vector<Finding>& out) {
  if (!in.snap.python) return;
  for (const auto& env : in.snap.python->envs) {
    for (const auto& p : env.packages) {
      if (!p.tensorflow || !env.python_version) continue;
      auto py = parse_version(*env.python_version);
      auto v = parse_version(p.version.value_or(""));
      if (!py || !v) continue;
      auto tested = tensorflow_tested_build(in.compat, *v, CompatOs::kLinux,
                                            p.tensorflow->is_cuda_build == true);
      if (!tested || tested->python.empty()) continue;
      std::string ranges;
      bool inside = false;
      for (const auto& r : tested->python) {
        inside = inside || in_range(*py, r);
        ranges += (ranges.empty() ? "" : ", ") + (r.min ? r.min->text : "?") + "–" +
                  (r.max ? r.max->text : "?");
      }
      if (inside) continue;
      Finding f = make_finding(self, Severity::warn,
                               p.name + " " + p.version.value_or("") +
                                   " was not tested with Python " + *env.python_version + " (" +
                                   env_label(env) + ")");
      f.evidence.push_back("TensorFlow " + tested->version.text + " tested build: Python " + ranges);
      f.fix = "use a Python in " + ranges + " for this environment, or a TensorFlow release "
              "tested with Python " + *env.python_version;
      f.source = tested->from.url;
      out.push_back(std::move(f));
    }
  }
}

/// Two CuPy distributions in one environment (cupy, cupy-cuda12x, cupy-cuda13x, cupy-rocm-…)
/// install the same cupy/ package: the files of whichever came last win, so a CUDA 12 build can
/// import in a CUDA 13 environment. CuPy warns about it itself ("CuPy may not function correctly
/// because multiple CuPy packages are installed", cupy/_environment.py).
void check_cupy_packages(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.python) return;
  for (const auto& env : in.snap.python->envs) {
    std::vector<std::string> cupys;
    for (const auto& p : env.packages) {
      if (p.name == "cupy" || starts_with(p.name, "cupy-cuda") ||
          starts_with(p.name, "cupy-rocm")) {
        cupys.push_back(p.name + (p.version ? " " + *p.version : ""));
      }
    }
    if (cupys.size() < 2) continue;
    Finding f = make_finding(self, Severity::warn,
                             plural(cupys.size(), "CuPy package") + " in " + where(env) + " (" +
                                 join(cupys, ", ") + "): they install the same cupy package, so "
                                 "the build that imports is whichever was installed last, whatever "
                                 "CUDA the machine has");
    for (const auto& c : cupys) f.evidence.push_back(env.site_packages.empty()
                                                         ? c
                                                         : c + " in " + env.site_packages.front());
    f.fix = "pip uninstall every one of them, then install only the package for the CUDA (or "
            "ROCm) you run: cupy-cuda12x for CUDA 12, cupy-cuda13x for CUDA 13";
    out.push_back(std::move(f));
  }
}

}  // namespace gpudoctor
