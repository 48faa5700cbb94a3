// Whether each framework's CUDA kernels can run on each NVIDIA GPU: first from the targets read
// in the installed libraries (src/binary), else from the framework's own build record or
// PyTorch's build table, else derived from what its CUDA version can target at all.
#include <algorithm>

#include "checks/arch_facts.hpp"
#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "checks/code_targets.hpp"
#include "checks/python_facts.hpp"
#include "compat/compat_query.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kBinaryCompat =
    "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility";
constexpr const char* kTorchIndex = "https://download.pytorch.org/whl/";

/// A framework installation that carries CUDA kernels.
struct CudaFramework {
  const PythonEnv* env;
  const PythonPackage* pkg;
  std::string id;     ///< the finding id
  std::string label;  ///< "torch 2.5.1+cu124"
  std::optional<Version> cuda;
};

/// The package as a framework that carries CUDA kernels, or nullopt. `env` may be null where
/// only the package's code is asked about (framework_code_fit).
std::optional<CudaFramework> cuda_framework_of(const PythonEnv* env, const PythonPackage& p) {
  if (wheel_platform(p) == "windows-x86_64") return std::nullopt;  // WSL reading /mnt/c: not this GPU
  const std::string label = p.name + " " + p.version.value_or("?");
  if (p.name == "torch" && p.torch && p.torch->cuda) {
    return CudaFramework{env, &p, "python.torch_arch",
                         "torch " + p.torch->version.value_or(p.version.value_or("?")),
                         parse_version(*p.torch->cuda)};
  }
  if (p.tensorflow && p.tensorflow->is_cuda_build == true) {
    auto cuda = p.tensorflow->cuda_version ? parse_version(*p.tensorflow->cuda_version)
                                           : std::nullopt;
    return CudaFramework{env, &p, "python.tensorflow_arch", label, cuda};
  }
  if (starts_with(p.name, "jax-cuda") || (p.name == "jaxlib" && carries_cuda(p))) {
    return CudaFramework{env, &p, "python.jax_arch", label, std::nullopt};
  }
  if (starts_with(p.name, "cupy") && carries_cuda(p)) {
    return CudaFramework{env, &p, "python.cupy_arch", label, std::nullopt};
  }
  return std::nullopt;
}

std::vector<CudaFramework> cuda_frameworks(const Snapshot& s) {
  std::vector<CudaFramework> out;
  if (!s.python) return out;
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      if (auto f = cuda_framework_of(&env, p)) out.push_back(std::move(*f));
    }
  }
  return out;
}

/// What the framework's own build record says (TensorFlow's build_info.py), when no library
/// could be read.
std::optional<CudaCode> build_record_code(const CudaFramework& f) {
  if (!f.pkg->tensorflow || f.pkg->tensorflow->cuda_compute_capabilities.empty()) {
    return std::nullopt;
  }
  CudaCodePart part{"from " + f.pkg->tensorflow->file + " (cuda_compute_capabilities)", {}, {}};
  for (const auto& cc : f.pkg->tensorflow->cuda_compute_capabilities) {
    (starts_with(cc, "compute_") ? part.ptx : part.sass).push_back(cc);
  }
  CudaCode code;
  code.parts.push_back(std::move(part));
  code.evidence.push_back(f.pkg->tensorflow->file + ": cuda_compute_capabilities = " +
                          join(f.pkg->tensorflow->cuda_compute_capabilities, ", "));
  return code;
}

/// PyTorch's build table row for this release, CUDA build and platform.
std::optional<CudaCode> table_code(const CheckInput& in, const CudaFramework& f) {
  if (f.pkg->name != "torch" || !f.cuda) return std::nullopt;
  auto v = parse_version(f.pkg->version.value_or(""));
  if (!v) return std::nullopt;
  const std::string platform = wheel_platform(*f.pkg);
  auto row = torch_archs(in.compat, *v, *f.cuda, platform);
  if (!row) return std::nullopt;
  CudaCodePart part{"from PyTorch's build table", {}, {}};
  for (const auto& a : row->archs) part.sass.push_back(sm_name(a));
  for (const auto& p : row->ptx) part.ptx.push_back(sm_name(p, "compute_"));
  CudaCode code;
  code.source = row->from.url;
  code.evidence.push_back("PyTorch " + numeric_string(*v) + " +cu" + sm_name(*f.cuda, "") + " " +
                          platform + " wheels carry " + join(part.sass, ", ") +
                          (part.ptx.empty() ? ", no PTX" : "; PTX " + join(part.ptx, ", ")) +
                          " (" + row->from.url + ")");
  code.parts.push_back(std::move(part));
  return code;
}

std::string where(const CudaFramework& f) { return f.label + " in " + env_label(*f.env); }

/// "torch 2.5.1+cu121 (read from torch/lib/libtorch_cuda.so) in /home/u/venv (Python 3.10)"
std::string where(const CudaFramework& f, const std::string& how) {
  return f.label + " (" + how + ") in " + env_label(*f.env);
}

ComputeCapability gpu_cc(const Version& cc) {
  return {static_cast<int>(cc.parts.at(0)), static_cast<int>(cc.parts.size() > 1 ? cc.parts[1] : 0),
          ""};
}

/// "sm_120" for compute capability 12.0.
std::string sm_of(const ComputeCapability& cc) {
  return "sm_" + std::to_string(cc.major) + std::to_string(cc.minor);
}

/// The newest PyTorch wheel whose kernels cover `gpu` natively: the same release in another
/// CUDA build where there is one, else one the installed driver can run (advice that needs no
/// driver upgrade first), else the newest release; a driver too old for it is said.
std::string torch_fix(const CheckInput& in, const CudaFramework& f, const ComputeCapability& gpu) {
  auto installed = parse_version(f.pkg->version.value_or(""));
  const std::string platform = wheel_platform(*f.pkg);
  auto driver_text = installed_driver_version(in.snap);
  auto driver = driver_text ? parse_version(*driver_text) : std::nullopt;
  auto runs_here = [&](const TorchArchs& row) {
    auto need = driver_for_bundled_cuda(in.compat, row.cuda);
    return !driver || !need || *driver >= need->driver;
  };
  const TorchArchs* pick = nullptr;
  bool same_release = false;
  bool pick_runs = false;
  for (const auto& row : in.compat.torch_archs) {
    if (row.platform != platform || !row.torch.max) continue;
    std::vector<std::string> sass;
    for (const auto& a : row.archs) sass.push_back(sm_name(a));
    if (cuda_fit(gpu, sass, {}).fit != CudaFit::native) continue;
    const bool same = installed && in_range(*installed, row.torch);
    const bool runs = runs_here(row);
    // Ranked: the same release, then one this driver runs, then the newest torch and CUDA.
    const auto rank = [](bool a, bool b) { return std::pair<int, int>(a ? 1 : 0, b ? 1 : 0); };
    if (pick) {
      const auto mine = rank(same, runs);
      const auto theirs = rank(same_release, pick_runs);
      if (mine < theirs) continue;
      if (mine == theirs && !(*row.torch.max > *pick->torch.max ||
                              (*row.torch.max == *pick->torch.max && row.cuda > pick->cuda))) {
        continue;
      }
    }
    pick = &row;
    same_release = same;
    pick_runs = runs;
  }
  if (!pick) {
    return "no PyTorch wheel in gpudoctor's table carries " + sm_of(gpu) +
           ": build PyTorch from source with TORCH_CUDA_ARCH_LIST=" + to_string(gpu) +
           " and a CUDA toolkit that can target it";
  }
  const std::string tag = "cu" + sm_name(pick->cuda, "");
  const std::string release =
      same_release ? numeric_string(*installed) : numeric_string(*pick->torch.max) + ".*";
  std::string fix = "pip install --force-reinstall 'torch==" + release + "' --index-url " +
                    kTorchIndex + tag + " (its kernels include " + sm_of(gpu) + ")";
  auto need = driver_for_bundled_cuda(in.compat, pick->cuda);
  if (driver && need && *driver < need->driver) {
    fix += "; it needs NVIDIA driver ≥ " + need->driver.text + ", this one is " + *driver_text;
  }
  return fix;
}

std::string generic_fix(const CudaFramework& f, const ComputeCapability& gpu) {
  return "install a " + f.pkg->name + " build whose CUDA kernels include " + sm_of(gpu) +
         " (or PTX for compute capability " + to_string(gpu) + " or lower)";
}

void judge(const CheckSpec& self, const CheckInput& in, const CudaFramework& f,
           const CudaCode& code, const GpuCapability& g, std::vector<Finding>& out) {
  const ComputeCapability gpu = gpu_cc(*g.cc);
  // The part that runs worst decides, a library holding only some of the kernels (torch
  // 2.11's libtorch_cuda_linalg.so starts at sm_80 where libtorch_cuda.so has sm_75) failing
  // only the operations it holds.
  const CudaCodePart* main = &code.parts.front();
  for (const auto& part : code.parts) {
    if (part.containers > main->containers) main = &part;
  }
  const CudaCodePart* worst = nullptr;
  CudaFitResult fit{CudaFit::native, std::nullopt};
  for (const auto& part : code.parts) {
    auto f_part = cuda_fit(gpu, part.sass, part.ptx);
    const int badness = static_cast<int>(f_part.fit);
    if (!worst || badness > static_cast<int>(fit.fit) ||
        (badness == static_cast<int>(fit.fit) && &part == main)) {
      worst = &part;
      fit = f_part;
    }
  }
  if (!worst || fit.fit == CudaFit::native) return;
  const bool partial =
      worst != main && cuda_fit(gpu, main->sass, main->ptx).fit == CudaFit::native;
  const std::string gpu_label = g.name + " (compute capability " + g.cc->text + ")";
  Finding fd = make_finding(self, Severity::fail, "");
  fd.id = f.id;
  fd.evidence = code.evidence;
  fd.evidence.push_back(gpu_label + (g.cc_source ? " per " + *g.cc_source : ""));
  fd.source = code.source.value_or(kBinaryCompat);
  if (fit.fit == CudaFit::ptx_jit) {
    fd.severity = Severity::warn;
    fd.title = gpu_label + " has no native kernels in " + where(f, worst->how) +
               ": it runs only through " +
               "the driver's JIT of " + *fit.via + " PTX, which compiles every kernel at the " +
               "first start (minutes; cached in ~/.nv/ComputeCache) and is not tuned for it";
  } else if (partial) {
    fd.severity = Severity::warn;
    fd.title = gpu_label + " has no kernels in " + where(f, worst->how) + ", while its main " +
               "library has: the operations that library holds fail with \"no kernel image " +
               "is available for execution on the device\"";
  } else {
    fd.title = gpu_label + " has no kernels in " + where(f, worst->how) +
               ": \"no kernel image is available for execution on the device\"";
  }
  fd.fix = f.pkg->name == "torch" ? torch_fix(in, f, gpu) : generic_fix(f, gpu);
  out.push_back(std::move(fd));
}

/// No code list at all: what the CUDA version the framework was built with can target says for
/// certain below and above its range, and the finding says the table was not enough.
void judge_by_cuda_range(const CheckSpec& self, const CheckInput& in, const CudaFramework& f,
                         const GpuCapability& g, std::vector<Finding>& out) {
  if (!f.cuda) return;
  auto range = arch_range_for_cuda(in.compat, *f.cuda);
  Finding fd = make_finding(self, Severity::info, "");
  fd.id = f.id;
  const std::string gpu_label = g.name + " (compute capability " + g.cc->text + ")";
  if (!range) {
    fd.title = "the kernels of " + where(f) + " were not read and CUDA " + f.cuda->text +
               " is not in gpudoctor's tables: whether " + gpu_label + " runs it was not checked";
    out.push_back(std::move(fd));
    return;
  }
  const ComputeCapability gpu = gpu_cc(*g.cc);
  const std::string span = to_string(range->min) + "–" + to_string(range->max);
  fd.evidence.push_back("CUDA " + f.cuda->text + " compiles for compute capability " + span);
  fd.evidence.push_back("no CUDA library of " + f.label + " was read, and no build table row " +
                        "covers it");
  for (auto& line : unread_libraries(*f.pkg)) fd.evidence.push_back(std::move(line));
  fd.source = in.compat.cuda_arch_range.empty() ? std::string(kBinaryCompat)
                                                : in.compat.cuda_arch_range.front().from.url;
  if (compare_cc(gpu, range->min) < 0) {
    fd.severity = Severity::fail;
    fd.title = gpu_label + " is older than anything CUDA " + f.cuda->text + " compiles for (" +
               span + "), so " + where(f) + " has no kernels for it: \"no kernel image is " +
               "available for execution on the device\"";
    fd.fix = f.pkg->name == "torch" ? torch_fix(in, f, gpu) : generic_fix(f, gpu);
  } else if (compare_cc(gpu, range->max) > 0) {
    fd.severity = Severity::warn;
    fd.title = gpu_label + " is newer than anything CUDA " + f.cuda->text + " compiles for (" +
               span + "): " + where(f) + " can run on it only through PTX JIT, if it ships PTX";
    fd.fix = f.pkg->name == "torch" ? torch_fix(in, f, gpu) : generic_fix(f, gpu);
  } else {
    fd.title = "the arch list of " + where(f) + " is not in gpudoctor's tables and its " +
               "libraries were not read: only CUDA " + f.cuda->text + "'s range (" + span +
               ") was checked, which includes " + gpu_label;
  }
  out.push_back(std::move(fd));
}

/// A GPU whose compute capability no table and no driver gave (an id newer than every table and
/// outside every known range): whether the framework runs there is not examined, and says so,
/// rather than passing as fine.
void not_examined(const CheckSpec& self, const CudaFramework& f, const GpuCapability& g,
                  std::vector<Finding>& out) {
  Finding fd = make_finding(self, Severity::info,
                            "not examined: the compute capability of " + g.name + " is unknown " +
                                "(no driver answered, and neither gpudoctor's tables nor its " +
                                "device id range give it), so whether " + where(f) +
                                " has kernels for it was not checked");
  fd.id = f.id;
  fd.source = kBinaryCompat;
  out.push_back(std::move(fd));
}

}  // namespace

std::optional<FrameworkCodeFit> framework_code_fit(const CheckInput& in, const PythonPackage& pkg,
                                                   const Version& cc) {
  if (cc.parts.empty()) return std::nullopt;
  // This package alone, not every framework of every environment: readiness asks once a
  // (framework, GPU) pair, and 3,000 environments made that 3,000 x 3,000 (issue 29 §3).
  if (const auto found = cuda_framework_of(nullptr, pkg)) {
    const CudaFramework& f = *found;
    auto code = files_code(pkg);
    if (!code) code = build_record_code(f);
    if (!code) code = table_code(in, f);
    if (!code) return std::nullopt;
    const ComputeCapability gpu = gpu_cc(cc);
    FrameworkCodeFit out{CudaFit::native, ""};
    const CudaCodePart* worst = nullptr;
    for (const auto& part : code->parts) {
      auto fit = cuda_fit(gpu, part.sass, part.ptx);
      if (!worst || static_cast<int>(fit.fit) > static_cast<int>(out.fit)) {
        worst = &part;
        out.fit = fit.fit;
        out.fact = (fit.via ? *fit.via : std::string("nothing")) + " for " + sm_of(gpu) + " (" +
                   part.how + ")";
      }
    }
    return out;
  }
  return std::nullopt;
}

void check_framework_arch(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  auto gpus = nvidia_capabilities(in);
  if (gpus.empty()) return;
  for (const auto& f : cuda_frameworks(in.snap)) {
    auto code = files_code(*f.pkg);
    if (!code) code = build_record_code(f);
    if (!code) code = table_code(in, f);
    if (code && code->parts.front().how.rfind("read from", 0) != 0) {
      for (auto& line : unread_libraries(*f.pkg)) code->evidence.push_back(std::move(line));
    }
    for (const auto& g : gpus) {
      if (!g.cc || g.cc->parts.empty()) {
        not_examined(self, f, g, out);
        continue;
      }
      if (code) {
        judge(self, in, f, *code, g, out);
      } else if (f.pkg->name == "torch") {
        judge_by_cuda_range(self, in, f, g, out);
      }
    }
  }
}

}  // namespace gpudoctor
