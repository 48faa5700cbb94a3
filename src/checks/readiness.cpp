#include "checks/readiness.hpp"

#include <algorithm>

#include "backends.hpp"
#include "checks/arch_facts.hpp"
#include "checks/check_list.hpp"
#include "checks/code_targets.hpp"
#include "checks/python_facts.hpp"
#include "checks/area_status.hpp"
#include "model/access_view.hpp"
#include "model/pci.hpp"
#include "text.hpp"

namespace gpudoctor {

GpuVendor vendor_of_device(const MergedDevice& m) {
  if (!m.vendor_id) {
    return m.saw("macos") || m.saw(kBackendMetal) ? GpuVendor::apple : GpuVendor::other;
  }
  switch (*m.vendor_id) {
    case kPciVendorNvidia: return GpuVendor::nvidia;
    case kPciVendorAmd: return GpuVendor::amd;
    case kPciVendorIntel: return GpuVendor::intel;
    case kPciVendorApple: return GpuVendor::apple;
    default: return GpuVendor::other;
  }
}

std::string_view vendor_word(GpuVendor v) {
  switch (v) {
    case GpuVendor::nvidia: return "nvidia";
    case GpuVendor::amd: return "amd";
    case GpuVendor::intel: return "intel";
    case GpuVendor::apple: return "apple";
    case GpuVendor::other: return "other";
  }
  return "other";
}

std::string vendor_label(GpuVendor v) {
  switch (v) {
    case GpuVendor::nvidia: return "NVIDIA";
    case GpuVendor::amd: return "AMD";
    case GpuVendor::intel: return "Intel";
    case GpuVendor::apple: return "Apple";
    case GpuVendor::other: return "other";
  }
  return "other";
}

namespace {

bool readiness_on_macos(const Snapshot& s) {
  return (s.host && s.host->os_id == std::optional<std::string>("macos")) || s.macos.has_value();
}

/// A framework build found in an environment and the API it reaches GPUs through.
struct FrameworkBuild {
  const PythonEnv* env;
  const PythonPackage* pkg;
  std::string name;   ///< "torch", "tensorflow", "jax", "cupy"
  std::string label;  ///< "torch 2.6.0+cu124"
  std::string api;    ///< "cuda", "rocm", "xpu", "mps", "metal", "none", "unknown"
};

bool has_package(const PythonEnv& env, std::string_view name) {
  return find_package(env, name) != nullptr;
}

bool has_package_prefix(const PythonEnv& env, std::string_view prefix) {
  return std::any_of(env.packages.begin(), env.packages.end(),
                     [&](const PythonPackage& p) { return starts_with(p.name, prefix); });
}

std::string torch_api(const Snapshot& s, const PythonPackage& p) {
  const std::string local = p.torch && p.torch->local_version ? *p.torch->local_version : "";
  if (p.torch && p.torch->cuda) return "cuda";
  if (p.torch && (p.torch->hip || p.torch->rocm)) return "rocm";
  if ((p.torch && p.torch->xpu) || local == "xpu") return "xpu";
  // torch +xpu whose build files were not read (a tree with its dist-info only): its version's
  // local tag says it (PyTorch's XPU wheels are "+xpu").
  if (!p.torch && p.version) {
    if (auto v = parse_version(*p.version); v && v->local == "xpu") return "xpu";
  }
  if (starts_with(local, "cu")) return "cuda";
  if (starts_with(local, "rocm")) return "rocm";
  if (readiness_on_macos(s)) return "mps";
  if (local == "cpu") return "none";
  if (p.torch) return "none";  // build info read: no CUDA, ROCm or XPU in it
  return "unknown";
}

std::string tensorflow_api(const Snapshot& s, const PythonEnv& env, const PythonPackage& p) {
  if (p.name == "tensorflow-rocm") return "rocm";
  if (readiness_on_macos(s)) return has_package(env, "tensorflow-metal") ? "metal" : "none";
  if (p.tensorflow) {
    if (p.tensorflow->is_cuda_build == true) return "cuda";
    if (p.tensorflow->is_rocm_build == true) return "rocm";
    if (p.tensorflow->is_cuda_build == false) return "none";
  }
  if (p.name == "tensorflow-cpu") return "none";
  return "unknown";
}

std::string jax_api(const Snapshot& s, const PythonEnv& env) {
  if (has_package_prefix(env, "jax-cuda") || has_package_prefix(env, "jax_cuda")) return "cuda";
  if (const PythonPackage* lib = find_package(env, "jaxlib")) {
    if (carries_cuda(*lib) || (lib->version && lib->version->find("+cuda") != std::string::npos)) {
      return "cuda";
    }
  }
  if (has_package_prefix(env, "jax-rocm")) return "rocm";
  if (has_package(env, "jax-metal")) return "metal";
  // JAX's own device list, where it was pasted: GPU devices mean a GPU build ran.
  for (const auto& sy : s.symptoms) {
    if (sy.id != "jax.gpu_devices") continue;
    return to_lower(sy.text).find("rocm") != std::string::npos ? "rocm" : "cuda";
  }
  // A jaxlib read from its files with no CUDA in them is a CPU build; one only named in a paste
  // ("jaxlib: 0.3.15", no local tag) may be either.
  const PythonPackage* lib = find_package(env, "jaxlib");
  if (lib && lib->metadata_dir.find("(pasted") == std::string::npos) return "none";
  return lib ? "unknown" : "none";
}

std::vector<FrameworkBuild> framework_builds(const Snapshot& s) {
  std::vector<FrameworkBuild> out;
  if (!s.python) return out;
  for (const auto& env : s.python->envs) {
    bool tensorflow_seen = false;
    for (const auto& p : env.packages) {
      if (windows_wheel(p)) continue;  // WSL reading /mnt/c: Windows' Python, not this machine's
      const std::string version = p.version.value_or("?");
      if (p.name == "torch") {
        const std::string v = p.torch && p.torch->version ? *p.torch->version : version;
        out.push_back({&env, &p, "torch", "torch " + v, torch_api(s, p)});
      } else if (!tensorflow_seen &&
                 (p.name == "tensorflow" || p.name == "tensorflow-gpu" ||
                  p.name == "tensorflow-cpu" || p.name == "tensorflow-macos" ||
                  p.name == "tensorflow-rocm" || p.name == "tf-nightly")) {
        // tensorflow-macos installs the tensorflow distribution too: one pair, not two.
        const PythonPackage* main = &p;
        if (const PythonPackage* tf = find_package(env, "tensorflow"); tf && tf->tensorflow) main = tf;
        tensorflow_seen = true;
        out.push_back({&env, main, "tensorflow", main->name + " " + main->version.value_or("?"),
                       tensorflow_api(s, env, *main)});
      } else if (p.name == "vllm") {
        // vLLM runs on the environment's torch: its chain is that torch's (its CUDA or ROCm
        // build, its kernels, the driver it needs), under vLLM's name.
        if (const PythonPackage* t = find_package(env, "torch")) {
          const std::string tv = t->torch && t->torch->version ? *t->torch->version
                                                                : t->version.value_or("?");
          out.push_back({&env, t, "vllm", "vllm " + version + " (torch " + tv + ")",
                         torch_api(s, *t)});
        }
      } else if (p.name == "jax") {
        out.push_back({&env, &p, "jax", "jax " + version, jax_api(s, env)});
      } else if (p.name == "onnxruntime-gpu") {
        out.push_back({&env, &p, "onnxruntime", p.name + " " + version, "cuda"});
      } else if (starts_with(p.name, "cupy")) {
        const std::string api = starts_with(p.name, "cupy-rocm") ? "rocm" : "cuda";
        out.push_back({&env, &p, "cupy", p.name + " " + version, api});
      }
    }
  }
  return out;
}

/// Which vendor's GPUs an API reaches.
std::optional<GpuVendor> vendor_of_api(const std::string& api) {
  if (api == "cuda") return GpuVendor::nvidia;
  if (api == "rocm") return GpuVendor::amd;
  if (api == "xpu") return GpuVendor::intel;
  return std::nullopt;  // mps and metal: every GPU of a Mac; none/unknown: every GPU
}

std::vector<Stage> stages_for(const std::string& api) {
  if (api == "cuda") {
    return {Stage::hardware,          Stage::kernel_driver, Stage::access,
            Stage::user_driver,       Stage::runtime_libraries, Stage::gpu_code,
            Stage::driver_version,    Stage::smoke};
  }
  if (api == "rocm" || api == "xpu") {
    return {Stage::hardware,          Stage::kernel_driver, Stage::access, Stage::user_driver,
            Stage::runtime_libraries, Stage::gpu_code,      Stage::smoke};
  }
  if (api == "mps" || api == "metal") {
    return {Stage::hardware, Stage::user_driver, Stage::runtime_libraries, Stage::smoke};
  }
  return {Stage::hardware, Stage::gpu_code};  // a CPU-only build, or one whose build is unknown
}

/// The device a pair is about; none for "no GPU of the vendor the build needs".
struct PairDevice {
  const MergedDevice* dev = nullptr;
  GpuVendor vendor = GpuVendor::other;
  std::string label;
  std::optional<GpuCapability> cap;  ///< an NVIDIA GPU's compute capability, as the checks have it
};

std::string device_label(const MergedDevice& m) {
  return m.pci_address ? m.name + " (" + *m.pci_address + ")" : m.name;
}

bool mentions(const Finding& f, const std::string& text) {
  if (text.empty()) return false;
  if (f.title.find(text) != std::string::npos) return true;
  return std::any_of(f.evidence.begin(), f.evidence.end(),
                     [&](const std::string& e) { return e.find(text) != std::string::npos; });
}

bool in_list(std::string_view list, std::string_view word) {
  for (const std::string& w : split_words(list, ", ")) {
    if (w == word) return true;
  }
  return false;
}

/// A finding with what the chain needs of it, worked out once per run: its stage row, and the
/// GPU names (of the machine's distinct ones) its title or evidence mentions.
struct PlacedFinding {
  const Finding* finding;
  StageOfFinding row;
  std::vector<std::string> names;
};

std::vector<PlacedFinding> place_findings(const std::vector<Finding>& findings,
                                          const std::vector<MergedDevice>& devices) {
  std::vector<std::string> distinct;
  for (const auto& m : devices) {
    if (m.software || m.name.empty()) continue;
    if (std::find(distinct.begin(), distinct.end(), m.name) == distinct.end()) {
      distinct.push_back(m.name);
      if (distinct.size() >= 64) break;  // beyond, a finding naming one GPU is not told apart
    }
  }
  std::vector<PlacedFinding> out;
  for (const auto& f : findings) {
    auto row = stage_of_finding(f.id);
    if (!row) continue;
    PlacedFinding p{&f, *row, {}};
    for (const auto& name : distinct) {
      if (mentions(f, name)) p.names.push_back(name);
    }
    out.push_back(std::move(p));
  }
  return out;
}

/// Whether a finding concerns this pair: its stage row's vendor and frameworks, and, where it
/// names some of the machine's GPUs, whether this one is among them.
bool concerns(const PlacedFinding& p, const FrameworkBuild& fw, const PairDevice& d) {
  // A finding about NVIDIA's driver concerns NVIDIA GPUs, also one the input does not show.
  if (p.row.vendor != "any" && p.row.vendor != vendor_word(d.vendor)) return false;
  // vLLM's pair is its torch's: a finding about that torch concerns it.
  if (!p.row.except.empty() && in_list(p.row.except, fw.name)) return false;
  if (!p.row.frameworks.empty() && !in_list(p.row.frameworks, fw.name) &&
      !(fw.name == "vllm" && in_list(p.row.frameworks, "torch"))) {
    return false;
  }
  if (!d.dev || p.names.empty()) return true;
  return std::find(p.names.begin(), p.names.end(), d.dev->name) != p.names.end();
}

StageVerdict from_findings(Stage stage, const std::vector<const Finding*>& found) {
  StageVerdict v{stage, StageState::not_examined, "", {}};
  const Finding* decisive = nullptr;
  for (const Finding* f : found) {
    v.findings.push_back(f->id);
    const bool unexamined = starts_with(f->title, "not examined");
    if (f->severity == Severity::fail) {
      if (!decisive || decisive->severity != Severity::fail) decisive = f;
    } else if (f->severity == Severity::warn && (!decisive || decisive->severity != Severity::fail)) {
      decisive = f;
    } else if (unexamined && !decisive) {
      decisive = f;
    }
  }
  if (!decisive) {
    v.findings.clear();
    return v;
  }
  v.state = decisive->severity == Severity::fail   ? StageState::fails
            : decisive->severity == Severity::warn ? StageState::at_risk
                                                   : StageState::not_examined;
  v.fact = decisive->title;
  return v;
}

/// What a stage's facts say where no finding decided it.
class StageJudge {
 public:
  StageJudge(const CheckInput& in, const FrameworkBuild& fw, const PairDevice& d)
      : in_(in), s_(in.snap), fw_(fw), d_(d) {}

  StageVerdict judge(Stage stage) const {
    switch (stage) {
      case Stage::hardware: return hardware();
      case Stage::kernel_driver: return kernel_driver();
      case Stage::access: return access();
      case Stage::user_driver: return user_driver();
      case Stage::runtime_libraries: return runtime_libraries();
      case Stage::gpu_code: return gpu_code();
      case Stage::driver_version: return driver_version();
      case Stage::smoke: return smoke();
    }
    return unexamined(stage, "");
  }

 private:
  static StageVerdict ok(Stage s, std::string fact) { return {s, StageState::ok, std::move(fact), {}}; }
  static StageVerdict fails(Stage s, std::string fact) {
    return {s, StageState::fails, std::move(fact), {}};
  }
  static StageVerdict unexamined(Stage s, std::string why) {
    return {s, StageState::not_examined, std::move(why), {}};
  }

  std::string origin_words() const {
    switch (s_.origin) {
      case Origin::live: return "this run";
      case Origin::sysroot: return "the --sysroot tree";
      case Origin::report: return "the report";
      case Origin::paste: return "the pasted text";
    }
    return "the input";
  }

  const std::optional<GpuCapability>& capability() const { return d_.cap; }

  std::optional<std::string> gfx_target() const {
    if (!d_.dev || !s_.rocm) return std::nullopt;
    for (auto i : d_.dev->in(kApiKfd)) {
      if (i < s_.rocm->nodes.size() && s_.rocm->nodes[i].gfx_target) return s_.rocm->nodes[i].gfx_target;
    }
    return std::nullopt;
  }

  const PciDevice* pci_device() const {
    if (!d_.dev || !d_.dev->pci || !s_.pci || *d_.dev->pci >= s_.pci->devices.size()) return nullptr;
    return &s_.pci->devices[*d_.dev->pci];
  }

  /// The API lists that only a working driver fills.
  bool driver_answered(std::string* api) const {
    for (std::string_view a : {kBackendCuda, kBackendNvml, kApiKfd, kApiHip, kBackendMetal}) {
      if (d_.dev && d_.dev->saw(a)) {
        *api = std::string(a);
        return true;
      }
    }
    return false;
  }

  StageVerdict hardware() const {
    const Stage st = Stage::hardware;
    if (!d_.dev) {
      const bool hardware_read = pci_was_read(s_) || macos_gpus_read(s_);
      if (hardware_read) {
        return fails(st, "no " + std::string(vendor_label(d_.vendor)) + " GPU was found, and " +
                             fw_.label + " reaches GPUs through " + fw_.api);
      }
      return unexamined(st, "which GPUs the machine has is not in " + origin_words());
    }
    if (d_.vendor == GpuVendor::nvidia) {
      const auto& cap = capability();
      if (cap && cap->cc && !cap->cc->parts.empty()) {
        return ok(st, d_.dev->name + ", compute capability " + cap->cc->text +
                          (cap->cc_inferred ? " (inferred from its device-id range)" : ""));
      }
      return unexamined(st, d_.dev->name + ": its compute capability is in no table and no driver "
                                           "gave it");
    }
    if (d_.vendor == GpuVendor::amd) {
      if (auto gfx = gfx_target()) return ok(st, d_.dev->name + ", " + *gfx);
      if (fw_.api == "rocm") {
        return unexamined(st, d_.dev->name + ": its gfx target was not read (no KFD topology in " +
                                  origin_words() + ")");
      }
    }
    if (d_.dev->name_source == "none") {
      return unexamined(st, "a GPU whose id no table names");
    }
    return ok(st, d_.dev->name);
  }

  StageVerdict kernel_driver() const {
    const Stage st = Stage::kernel_driver;
    std::vector<std::string> wanted;
    switch (d_.vendor) {
      case GpuVendor::nvidia: wanted = {"nvidia"}; break;
      case GpuVendor::amd: wanted = {"amdgpu"}; break;
      case GpuVendor::intel: wanted = {"i915", "xe"}; break;
      default: break;
    }
    if (const PciDevice* p = pci_device(); p && !wanted.empty()) {
      if (!p->driver) return fails(st, "no kernel driver is bound to " + d_.label);
      if (std::find(wanted.begin(), wanted.end(), *p->driver) != wanted.end()) {
        return ok(st, *p->driver + " is bound");
      }
      return fails(st, d_.label + " is bound to " + *p->driver + ", not " + join(wanted, " or "));
    }
    std::string api;
    if (driver_answered(&api)) return ok(st, "the driver answered through " + api);
    return unexamined(st, "the kernel driver bound to it is not in " + origin_words());
  }

  StageVerdict access() const {
    const Stage st = Stage::access;
    std::string api;
    if (s_.origin == Origin::live && driver_answered(&api)) {
      return ok(st, "this run opened it through " + api);
    }
    const HostAccess& a = host_access(s_);
    if (!a.device_nodes.empty()) {
      const std::string node = d_.vendor == GpuVendor::nvidia ? "/dev/nvidiactl"
                               : d_.vendor == GpuVendor::amd  ? "/dev/kfd"
                               : d_.vendor == GpuVendor::intel ? "/dev/dri/renderD"  // Level Zero's
                                                              : "/dev/dri";
      for (const auto& n : a.device_nodes) {
        if (starts_with(n.path, node)) {
          return ok(st, node + " is there and no access check found a problem");
        }
      }
      return unexamined(st, "no " + node + " in " + origin_words());
    }
    if (d_.vendor == GpuVendor::nvidia && s_.nvml && d_.dev && d_.dev->saw(kBackendNvml)) {
      return ok(st, "nvidia-smi (NVML) opened it");
    }
    return unexamined(st, "the device files and groups are not in " + origin_words());
  }

  StageVerdict user_driver() const {
    const Stage st = Stage::user_driver;
    if (d_.vendor == GpuVendor::nvidia) {
      if (s_.cuda && s_.cuda->driver_version && d_.dev && d_.dev->saw(kBackendCuda)) {
        return ok(st, "libcuda answered (driver API " + std::to_string(*s_.cuda->driver_version / 1000) +
                          "." + std::to_string(*s_.cuda->driver_version % 1000 / 10) + ")");
      }
      if (s_.nvml && s_.nvml->driver_version && d_.dev && d_.dev->saw(kBackendNvml)) {
        return ok(st, "NVML answered: driver " + *s_.nvml->driver_version);
      }
      if (s_.nvidia && s_.nvidia->kernel.module_version) {
        for (const auto& lib : s_.nvidia->libcuda) {
          if (lib.stub || lib.shadowed || !lib.version) continue;
          if (*lib.version == *s_.nvidia->kernel.module_version) {
            return ok(st, "libcuda " + *lib.version + " matches the kernel module");
          }
        }
      }
      return unexamined(st, "which libcuda the loader finds, and its version, is not in " +
                                origin_words());
    }
    if (d_.vendor == GpuVendor::amd) {
      if (d_.dev && d_.dev->saw(kApiHip)) return ok(st, "the HIP runtime saw it");
      if (s_.rocm && d_.dev && d_.dev->saw(kApiKfd)) return ok(st, "KFD lists it");
      return unexamined(st, "the ROCm runtime is not in " + origin_words());
    }
    if (d_.vendor == GpuVendor::apple || fw_.api == "mps" || fw_.api == "metal") {
      if (s_.macos && s_.macos->product_version) return ok(st, "macOS " + *s_.macos->product_version);
      return unexamined(st, "the macOS version is not in " + origin_words());
    }
    if (d_.vendor == GpuVendor::intel) return intel_user_driver(st);
    return unexamined(st, "the " + std::string(vendor_label(d_.vendor)) +
                              " user-space driver is not read by gpudoctor yet");
  }

  /// Intel's compute runtime: its Level Zero driver (libze_intel_gpu) listed the GPU, else what
  /// its OpenCL ICD (libigdrcl) says; the ICD alone does not show the Level Zero half that
  /// torch's XPU build and SYCL use (Intel ships them as separate packages).
  StageVerdict intel_user_driver(Stage st) const {
    if (d_.dev && d_.dev->saw("level_zero")) return ok(st, "Level Zero (libze_intel_gpu) listed it");
    std::optional<std::string> icd;
    bool answered = false;
    if (s_.opencl) {
      for (const auto& i : s_.opencl->icds) {
        if (to_lower(i.library).find("igdrcl") == std::string::npos) continue;
        icd = i.library;
        answered = answered || i.loads == std::optional<bool>(true);
      }
    }
    if (!icd) {
      return unexamined(st, "no Intel compute-runtime ICD (libigdrcl) in " + origin_words() +
                                ", and its Level Zero driver is not read there");
    }
    const bool opencl_saw = answered && d_.dev && d_.dev->saw(kBackendOpenCl);
    return unexamined(st, std::string(opencl_saw ? "Intel's compute runtime answered through "
                                                   "OpenCL ("
                                                 : "Intel's compute runtime's OpenCL ICD is "
                                                   "installed (") +
                              *icd + "); its Level Zero driver (libze_intel_gpu.so.1), which " +
                              fw_.name + "'s XPU build uses, was not read");
  }

  StageVerdict runtime_libraries() const {
    const Stage st = Stage::runtime_libraries;
    if (s_.origin == Origin::paste) {
      return unexamined(st, "which library files " + fw_.name + "'s loader finds is not in " +
                                origin_words());
    }
    if (fw_.pkg->metadata_dir.empty()) {
      return unexamined(st, fw_.label + "'s installed files were not read");
    }
    return ok(st, "read in " + env_label(*fw_.env) + ": no missing or conflicting library found");
  }

  StageVerdict gpu_code() const {
    const Stage st = Stage::gpu_code;
    if (fw_.api == "none") {
      return fails(st, fw_.label + " is a CPU-only build: it carries no GPU code");
    }
    if (fw_.api == "unknown") {
      return unexamined(st, "which build " + fw_.label + " is (CUDA, ROCm, CPU) was not read");
    }
    if (d_.vendor == GpuVendor::nvidia && fw_.api == "cuda") {
      const auto& cap = capability();
      if (!cap || !cap->cc || cap->cc->parts.empty()) {
        return unexamined(st, "the GPU's compute capability is unknown");
      }
      // JAX's kernels live in its CUDA plugin wheels (jax-cuda13-pjrt, jax-cuda13-plugin; on a
      // real H200 the pjrt plugin carries sm_75…sm_120) or, before 0.4.26, in jaxlib itself:
      // the pair is as good as the worst of them.
      std::vector<const PythonPackage*> carriers{fw_.pkg};
      if (fw_.name == "jax" && fw_.env) {
        carriers.clear();
        for (const auto& p : fw_.env->packages) {
          if (starts_with(p.name, "jax-cuda") || starts_with(p.name, "jax_cuda") ||
              p.name == "jaxlib") {
            carriers.push_back(&p);
          }
        }
      }
      std::optional<FrameworkCodeFit> fit;
      for (const PythonPackage* p : carriers) {
        auto one = framework_code_fit(in_, *p, *cap->cc);
        if (one && (!fit || static_cast<int>(one->fit) > static_cast<int>(fit->fit))) fit = one;
      }
      if (!fit) {
        return unexamined(st, "the architectures " + fw_.label +
                                  "'s libraries carry were not read, and no table gives them");
      }
      if (fit->fit == CudaFit::native) return ok(st, "SASS " + fit->fact);
      if (fit->fit == CudaFit::ptx_jit) {
        return {st, StageState::at_risk, "only PTX JIT: " + fit->fact, {}};
      }
      return fails(st, "no kernels: " + fit->fact);
    }
    if (d_.vendor == GpuVendor::amd && fw_.api == "rocm") {
      auto gfx = gfx_target();
      auto code = files_amdgpu(*fw_.pkg);
      if (!gfx) return unexamined(st, "the GPU's gfx target is unknown");
      if (!code) return unexamined(st, "the gfx targets of " + fw_.label + " were not read");
      if (auto hit = amdgpu_match(*gfx, code->targets)) return ok(st, *hit + " code objects");
      return fails(st, fw_.label + " carries no code object for " + *gfx);
    }
    if (fw_.api == "mps" || fw_.api == "metal") {
      return ok(st, "Metal compiles its kernels for the GPU at run time");
    }
    return unexamined(st, "the device code of " + fw_.api + " builds is not read by gpudoctor yet");
  }

  StageVerdict driver_version() const {
    const Stage st = Stage::driver_version;
    std::optional<Version> cuda;
    if (fw_.pkg->torch && fw_.pkg->torch->cuda) cuda = parse_version(*fw_.pkg->torch->cuda);
    if (!cuda && fw_.pkg->tensorflow && fw_.pkg->tensorflow->cuda_version) {
      cuda = parse_version(*fw_.pkg->tensorflow->cuda_version);
    }
    if (!cuda && fw_.pkg->cuda_series) cuda = parse_version(*fw_.pkg->cuda_series);
    // JAX names its CUDA in its plugin wheels (jax-cuda13-pjrt: series 13).
    if (!cuda && fw_.name == "jax" && fw_.env) {
      for (const auto& p : fw_.env->packages) {
        if (starts_with(p.name, "jax-cuda") && p.cuda_series) {
          cuda = parse_version(*p.cuda_series);
          break;
        }
      }
    }
    auto driver_text = installed_driver_version(s_);
    if (!cuda) return unexamined(st, "the CUDA version " + fw_.label + " carries was not read");
    if (!driver_text) return unexamined(st, "the NVIDIA driver's version is not in " + origin_words());
    auto driver = parse_version(*driver_text);
    auto need = driver_for_bundled_cuda(in_.compat, *cuda);
    if (!driver || !need) {
      return unexamined(st, "CUDA " + cuda->text + " is not in gpudoctor's driver table");
    }
    if (*driver >= need->driver) {
      return ok(st, "driver " + *driver_text + " ≥ " + need->driver.text + " for CUDA " + cuda->text);
    }
    return fails(st, "driver " + *driver_text + " < " + need->driver.text + ", which CUDA " +
                         cuda->text + " needs");
  }

  StageVerdict smoke() const {
    const Stage st = Stage::smoke;
    const std::vector<SmokeResult>* results = nullptr;
    if (fw_.api == "cuda" && s_.cuda) results = &s_.cuda->smoke;
    if ((fw_.api == "mps" || fw_.api == "metal") && s_.metal) results = &s_.metal->smoke;
    if (results && d_.dev) {
      for (const auto& r : *results) {
        if (r.device != d_.dev->name) continue;
        if (r.status == "pass") return ok(st, "verified " + r.api + " matmul" + (r.n ? " n=" + std::to_string(*r.n) : ""));
        if (r.status == "fail") return fails(st, r.reason.value_or("the matmul gave wrong results"));
      }
    }
    if (s_.origin != Origin::live) return unexamined(st, "nothing runs on " + origin_words());
    return unexamined(st, "no matmul ran through " + fw_.api + " on it (--no-smoke, or " +
                              fw_.api + " has no smoke test)");
  }

  const CheckInput& in_;
  const Snapshot& s_;
  const FrameworkBuild& fw_;
  const PairDevice& d_;
};

ReadinessPair judge_pair(const CheckInput& in, const std::vector<PlacedFinding>& placed,
                         const FrameworkBuild& fw, const PairDevice& d) {
  ReadinessPair pair;
  pair.framework = fw.label;
  pair.environment = env_label(*fw.env);
  pair.api = fw.api;
  pair.device = d.label;
  const StageJudge facts(in, fw, d);
  for (Stage stage : stages_for(fw.api)) {
    if (pair.first_failure) {
      pair.stages.push_back({stage, StageState::not_judged, "", {}});
      continue;
    }
    std::vector<const Finding*> found;
    for (const auto& p : placed) {
      if (p.row.stage == stage && concerns(p, fw, d)) found.push_back(p.finding);
    }
    StageVerdict v = from_findings(stage, found);
    if (v.findings.empty()) v = facts.judge(stage);
    if (v.state == StageState::fails) pair.first_failure = stage;
    pair.stages.push_back(std::move(v));
  }
  if (pair.first_failure) {
    pair.verdict = std::string("fails at ") + to_string(*pair.first_failure);
  } else {
    // The first stage that is not ok says why the pair is not confirmed; the count of the
    // others follows.
    const StageVerdict* first = nullptr;
    std::size_t more = 0;
    for (const auto& v : pair.stages) {
      if (v.state == StageState::ok) continue;
      if (!first) {
        first = &v;
      } else {
        ++more;
      }
    }
    if (!first) {
      pair.verdict = "ready";
    } else {
      pair.verdict = std::string(first->state == StageState::at_risk ? "at risk: " : "not confirmed: ") +
                     to_string(first->stage) + " " + to_string(first->state) +
                     (first->fact.empty() ? "" : " (" + first->fact + ")") +
                     (more ? "; " + plural(more, "more stage") +
                                 " not confirmed"
                           : "");
    }
  }
  return pair;
}

}  // namespace

std::vector<ReadinessPair> readiness(const CheckInput& in, const std::vector<Finding>& findings) {
  std::vector<ReadinessPair> out;
  for_each_readiness_pair(in, findings, [&](ReadinessPair&& p) { out.push_back(std::move(p)); });
  return out;
}

void for_each_readiness_pair(const CheckInput& in, const std::vector<Finding>& findings,
                             const std::function<void(ReadinessPair&&)>& each) {
  const auto builds = framework_builds(in.snap);
  // Runtimes (ollama, llama.cpp, OpenCL, Vulkan) are judged after the frameworks, one pair each
  // GPU they could run on: a few, handed on like the others.
  if (builds.empty()) {
    for (auto& p : runtime_readiness(in, findings)) each(std::move(p));
    return;
  }
  const bool mac = readiness_on_macos(in.snap);
  const auto placed = place_findings(findings, in.devices);
  // nvidia_capabilities lists the NVIDIA GPUs in device order: once for every pair, by position
  // (a device's index into that list, 4 bytes a device, not a copy of its capability).
  const auto caps = nvidia_capabilities(in);
  constexpr std::uint32_t kNoCap = 0xffffffffu;
  std::vector<std::uint32_t> cap_at(in.devices.size(), kNoCap);
  {
    std::uint32_t i = 0;
    for (std::size_t k = 0; k < in.devices.size(); ++k) {
      const auto& m = in.devices[k];
      if (m.vendor_id != std::optional<std::uint32_t>(kPciVendorNvidia) || m.software) continue;
      if (i < caps.size()) cap_at[k] = i;
      ++i;
    }
  }
  auto cap_of = [&](const MergedDevice* m) -> std::optional<GpuCapability> {
    const std::uint32_t at = cap_at[static_cast<std::size_t>(m - in.devices.data())];
    if (at == kNoCap) return std::nullopt;
    return caps[at];
  };
  for (const FrameworkBuild& fw : builds) {
    const auto want = vendor_of_api(fw.api);
    // Each GPU's pair is judged and handed on at once: no list of every target is kept.
    bool any_target = false;
    for (const auto& m : in.devices) {
      if (m.software || m.kind == DeviceKind::cpu) continue;
      const GpuVendor v = vendor_of_device(m);
      if (v == GpuVendor::other) continue;
      if (want && v != *want) continue;
      if ((fw.api == "mps" || fw.api == "metal") && !mac) continue;
      any_target = true;
      PairDevice d{&m, v, device_label(m), std::nullopt};
      if (v == GpuVendor::nvidia) d.cap = cap_of(&m);
      each(judge_pair(in, placed, fw, d));
    }
    if (any_target) continue;
    // A GPU build with no GPU of its vendor; a CPU-only build with no GPU needs nothing.
    if (!want && fw.api != "mps" && fw.api != "metal") continue;
    const GpuVendor v = want ? *want : GpuVendor::apple;
    // Hardware read and none there: "no NVIDIA GPU", and the chain fails at hardware. Not
    // read (a paste without it): the GPU the build is for, its stages judged from findings.
    const bool read = pci_was_read(in.snap) || macos_gpus_read(in.snap);
    // Metal and MPS run on an Intel Mac's AMD or Intel GPU too: "Apple GPU" only where the
    // Mac is known to be Apple silicon.
    const bool apple_silicon = in.snap.macos && in.snap.macos->arm64 == std::optional<bool>(true);
    const std::string unread = !want && !apple_silicon
                                   ? std::string("the Mac's GPU (not in the input)")
                                   : "its " + std::string(vendor_label(v)) + " GPU (not in the input)";
    const PairDevice d{nullptr, v, read ? "no " + std::string(vendor_label(v)) + " GPU" : unread,
                       std::nullopt};
    each(judge_pair(in, placed, fw, d));
  }
  for (auto& p : runtime_readiness(in, findings)) each(std::move(p));
}

}  // namespace gpudoctor
