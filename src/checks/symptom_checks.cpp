// What programs printed (Snapshot::symptoms, read from a pasted dump or log) as evidence: each
// message names its cause. A symptom whose cause another check already reported from the
// installed facts adds nothing (one cause, one finding); these checks run last for that reason.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "checks/python_facts.hpp"
#include "checks/symptom_util.hpp"
#include "compat/compat_query.hpp"

namespace gpudoctor {

namespace {

using namespace symptom_util;

constexpr const char* kPytorchLocally = "https://pytorch.org/get-started/locally/";

struct TorchSeen {
  const PythonPackage* pkg = nullptr;
  std::optional<std::string> version;  ///< "2.1.0+cu121"
  std::optional<std::string> cuda;     ///< torch.version.cuda
};
TorchSeen torch_seen(const Snapshot& s) {
  TorchSeen t;
  if (!s.python) return t;
  for (const auto& env : s.python->envs) {
    if (const PythonPackage* p = find_package(env, "torch")) {
      t.pkg = p;
      t.version = p->torch && p->torch->version ? p->torch->version : p->version;
      if (p->torch) t.cuda = p->torch->cuda;
    }
  }
  return t;
}

/// "11040" (cudaDriverGetVersion) → "11.4".
std::string cuda_text(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

/// The oldest torch whose CUDA wheels carry sm_`sm` ("120"), from PyTorch's arch lists.
std::optional<TorchArchs> first_torch_with(const CompatData& data, const std::string& sm,
                                           const std::string& platform) {
  auto cc = parse_version(sm.size() >= 2 ? sm.substr(0, sm.size() - 1) + "." + sm.substr(sm.size() - 1)
                                         : sm);
  if (!cc) return std::nullopt;
  std::optional<TorchArchs> best;
  for (const auto& row : data.torch_archs) {
    if (row.platform != platform || !row.torch.min) continue;
    const bool has = std::any_of(row.archs.begin(), row.archs.end(),
                                 [&](const Version& a) { return a == *cc; });
    if (!has) continue;
    if (!best || *row.torch.min < *best->torch.min ||
        (*row.torch.min == *best->torch.min && row.cuda < best->cuda)) {
      best = row;
    }
  }
  return best;
}

std::string platform_of(const Snapshot& s) {
  return s.host && s.host->os_id == std::optional<std::string>("windows") && !s.host->wsl
             ? "windows-x86_64"
             : "linux-x86_64";
}

/// A torch the input names as a CPU build in so many words (its "+cpu" tag, a conda build
/// string "py3.8_cpu_0", conda's `cpuonly` package beside it), where no listing shows the machine
/// without an NVIDIA GPU: a paste of a package list in a GPU ticket whose torch is the CPU build
/// (a solver that picked `cpuonly`) says the cause even when nothing of the hardware was pasted.
bool cpu_pinned_beside_a_gpu_or_unknown(const Snapshot& s, const PythonPackage& torch) {
  bool pinned = torch.torch && torch.torch->local_version == std::optional<std::string>("cpu");
  if (!pinned && s.python) {
    for (const auto& env : s.python->envs) pinned = pinned || find_package(env, "cpuonly");
  }
  if (!pinned) return false;
  const bool listed_without_nvidia = s.pci && !s.pci->devices.empty() &&
                                     pci_gpus(s, kPciVendorNvidia).empty();
  return !listed_without_nvidia;
}

void torch_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  const TorchSeen torch = torch_seen(s);
  const std::string label = "torch" + (torch.version ? " " + *torch.version : std::string());
  const Symptom* old_driver = seen(s, "torch.driver_too_old");
  std::optional<int> driver_cuda;
  if (s.nvml) driver_cuda = s.nvml->cuda_driver_version;
  if (old_driver) {
    if (auto v = parse_int(value(*old_driver, "found_version"))) driver_cuda = static_cast<int>(*v);
  }
  // The driver's own CUDA version against torch's, when no driver version was given.
  const bool driver_known = installed_driver_version(s).has_value();
  std::optional<Version> torch_cuda = torch.cuda ? parse_version(*torch.cuda) : std::nullopt;
  const bool major_too_new = !driver_known && driver_cuda && torch_cuda &&
                             torch_cuda->parts.at(0) > static_cast<std::uint32_t>(*driver_cuda / 1000);
  if ((old_driver || major_too_new) && !reported(out, "python.torch_cuda_driver")) {
    Finding f = make_finding(self, Severity::fail, "");
    f.id = "python.torch_cuda_driver";
    f.area = "python";
    f.title = label + (torch.cuda ? " bundles CUDA " + *torch.cuda + ", but" : ":") +
              " the NVIDIA driver is too old for it" +
              (driver_cuda ? " (the driver supports CUDA up to " + cuda_text(*driver_cuda) + ")" : "") +
              ": torch.cuda.is_available() is False";
    if (old_driver) f.evidence.push_back("torch printed: " + old_driver->text);
    if (torch.cuda) f.evidence.push_back("CUDA used to build PyTorch: " + *torch.cuda);
    std::optional<DriverNeed> need = torch_cuda ? driver_for_bundled_cuda(in.compat, *torch_cuda)
                                                : std::nullopt;
    f.fix = need ? "install NVIDIA driver " + need->driver.text + " or newer, or keep the driver "
                                                                  "and install a torch build for CUDA " +
                       (driver_cuda ? cuda_text(*driver_cuda) + " or older" : "it supports") +
                       " (https://pytorch.org/get-started/previous-versions/)"
                 : "install a newer NVIDIA driver, or a torch build for the CUDA it supports "
                   "(https://pytorch.org/get-started/previous-versions/)";
    f.source = need ? need->source : std::string(kPytorchLocally);
    out.push_back(std::move(f));
  }
  for (const char* id : {"torch.arch_unsupported", "torch.gpu_too_old"}) {
    const Symptom* arch = seen(s, id);
    if (!arch || reported(out, "python.torch_arch")) continue;
    const std::string gpu = value(*arch, "gpu");
    std::string sm = value(*arch, "sm");
    if (sm.empty() && !value(*arch, "cc").empty()) {  // "3.5" → "35"
      std::string cc = value(*arch, "cc");
      cc.erase(std::remove(cc.begin(), cc.end(), '.'), cc.end());
      sm = cc;
    }
    Finding f = from_symptom(self, "python.torch_arch", Severity::fail,
                             gpu + (sm.empty() ? "" : " (sm_" + sm + ")") + " is not among " + label +
                                 "'s CUDA architectures: kernels fail with \"no kernel image is "
                                 "available for execution on the device\"",
                             *arch);
    if (!value(*arch, "supported").empty()) {
      f.evidence.push_back("this torch has: " + value(*arch, "supported"));
    }
    const auto row = sm.empty() ? std::nullopt : first_torch_with(in.compat, sm, platform_of(s));
    if (row) {
      const std::string tag = "cu" + std::to_string(row->cuda.parts.at(0)) +
                              std::to_string(row->cuda.parts.size() > 1 ? row->cuda.parts[1] : 0);
      f.fix = "install torch " + row->torch.min->text + " or newer built with CUDA " + row->cuda.text +
              ", whose kernels include sm_" + sm + ": pip install --force-reinstall torch "
              "--index-url https://download.pytorch.org/whl/" + tag;
      f.source = row->from.url;
    } else {
      f.fix = "install a torch build whose CUDA kernels include this GPU's architecture "
              "(newer GPUs need a newer CUDA build, older ones an older torch)";
      f.source = kPytorchLocally;
    }
    out.push_back(std::move(f));
  }
  if (const Symptom* k = seen(s, "cuda.no_kernel_image");
      k && !reported(out, "python.torch_arch") && !reported(out, "cuda.arch_unsupported")) {
    Finding f = from_symptom(self, torch.pkg ? "python.torch_arch" : "cuda.arch_unsupported",
                             Severity::fail,
                             "A CUDA program has no kernel for this GPU's architecture", *k);
    f.fix = "install a build compiled for this GPU's compute capability (for torch: a wheel "
            "whose arch list includes it)";
    f.source = kPytorchLocally;
    out.push_back(std::move(f));
  }
  if (const Symptom* n = seen(s, "torch.not_compiled_with_cuda");
      n && !reported(out, "python.torch_cpu_only")) {
    Finding f = from_symptom(self, "python.torch_cpu_only", Severity::fail,
                             label + " is a CPU-only build: it cannot use the GPU", *n);
    f.fix = "reinstall torch from a CUDA index: pip install --force-reinstall torch --index-url "
            "https://download.pytorch.org/whl/cu<version> (" + std::string(kPytorchLocally) + ")";
    f.source = kPytorchLocally;
    out.push_back(std::move(f));
  }
  // A CPU-only torch where the paste shows the person means to use CUDA (a toolkit, conda's
  // cudatoolkit, or torch saying CUDA is not available) but no GPU was listed.
  if (!s.live && torch.pkg && torch.pkg->torch && !torch.pkg->torch->cuda && !torch.pkg->torch->hip &&
      !torch.pkg->torch->xpu && !reported(out, "python.torch_cpu_only") &&
      !(s.host && s.host->os_id == std::optional<std::string>("macos"))) {
    const bool wants_cuda = (s.nvidia && !s.nvidia->toolkits.empty()) ||
                            seen(s, "torch.cuda_unavailable") != nullptr ||
                            [&] {
                              if (!s.python) return false;
                              for (const auto& env : s.python->envs) {
                                if (find_package(env, "cudatoolkit")) return true;
                              }
                              return false;
                            }() ||
                            cpu_pinned_beside_a_gpu_or_unknown(s, *torch.pkg);
    if (wants_cuda) {
      Finding f = make_finding(self, usable_nvidia_gpu(s) ? Severity::fail : Severity::warn,
                               label + " is a CPU-only build: it never uses a GPU, whatever CUDA "
                                       "is installed beside it");
      f.id = "python.torch_cpu_only";
      f.area = "python";
      f.evidence.push_back("CUDA used to build PyTorch: None" +
                           std::string(torch.pkg->torch->local_version
                                           ? " (+" + *torch.pkg->torch->local_version + ")"
                                           : ""));
      f.fix = "reinstall torch from a CUDA index: pip install --force-reinstall torch "
              "--index-url https://download.pytorch.org/whl/cu<version> (" +
              std::string(kPytorchLocally) + ")";
      f.source = kPytorchLocally;
      out.push_back(std::move(f));
    }
  }
}

/// The paste shows JAX (its packages or its own messages) and no TensorFlow.
bool jax_without_tensorflow(const Snapshot& s) {
  // JAX's own messages, or an XLA message raised as jaxlib's exception
  // ("jaxlib.xla_extension.XlaRuntimeError: …"; TensorFlow raises its own error types).
  bool jax = std::any_of(s.symptoms.begin(), s.symptoms.end(), [](const Symptom& x) {
    return starts_with(x.id, "jax.") || x.text.find("jaxlib") != std::string::npos ||
           x.text.find("XlaRuntimeError") != std::string::npos;
  });
  if (s.python) {
    for (const auto& env : s.python->envs) {
      if (find_package(env, "tensorflow") || find_package(env, "tensorflow-gpu") ||
          find_package(env, "tf-nightly")) {
        return false;
      }
      jax = jax || find_package(env, "jax") || find_package(env, "jaxlib");
    }
  }
  return jax;
}

void framework_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  const Symptom* jax = seen(s, "jax.cpu_fallback");
  if (!jax && seen(s, "jax.cpu_devices_only") && usable_nvidia_gpu(s)) jax = seen(s, "jax.cpu_devices_only");
  if (jax && !reported(out, "python.jax_cpu_only") && !reported(out, "python.jax_cuda")) {
    Finding f = from_symptom(self, "python.jax_cpu_only", Severity::warn,
                             "JAX has no CUDA-enabled jaxlib plugin here and runs on the CPU", *jax);
    f.fix = "pip install -U 'jax[cuda12]' (the CUDA plugin and its CUDA wheels; jax[cuda13] for a "
            "driver of 580 or newer)";
    f.source = "https://docs.jax.dev/en/latest/installation.html";
    out.push_back(std::move(f));
  }
  for (const char* id : {"jax.plugin_error", "jax.library_too_old"}) {
    const Symptom* p = seen(s, id);
    if (!p || reported(out, "python.jax_cuda")) continue;
    const bool too_old = std::string_view(id) == "jax.library_too_old";
    Finding f = from_symptom(self, "python.jax_cuda", Severity::fail,
                             too_old ? "JAX found a CUDA library older than it was built against (" +
                                           value(*p, "found") + ", built with " + value(*p, "built") +
                                           "): it cannot use the GPU"
                                     : "JAX's CUDA plugin failed to initialize: JAX cannot use the GPU",
                             *p);
    f.fix = too_old ? "pip install -U 'jax[cuda12]' so the CUDA and cuDNN wheels match jaxlib, and "
                      "take older CUDA/cuDNN directories out of LD_LIBRARY_PATH"
                    : "the lines after the message name the cause (commonly a driver older than the "
                      "plugin needs, or a plugin of another version than jaxlib): pip install -U "
                      "'jax[cuda12]'";
    f.source = "https://docs.jax.dev/en/latest/installation.html";
    out.push_back(std::move(f));
  }
  // XLA prints the cuDNN mismatch in the same words under JAX: where the paste shows JAX and no
  // TensorFlow, it is JAX's, with JAX's fix.
  if (const Symptom* t = seen(s, "tensorflow.cudnn_mismatch");
      t && jax_without_tensorflow(s) && !reported(out, "python.jax_cuda")) {
    Finding f = from_symptom(self, "python.jax_cuda", Severity::fail,
                             "JAX loaded cuDNN " + value(*t, "loaded") + " but its jaxlib was built "
                             "with " + value(*t, "compiled") + ": its GPU kernels fail",
                             *t);
    f.fix = "pip install -U 'jax[cuda12]' (the CUDA plugin with the cuDNN wheel jaxlib was built "
            "with), and take directories of another cuDNN out of LD_LIBRARY_PATH";
    f.source = "https://docs.jax.dev/en/latest/installation.html";
    out.push_back(std::move(f));
  }
  for (const char* id : {"tensorflow.gpu_libraries_missing", "tensorflow.dlopen_failed",
                         "tensorflow.cudnn_mismatch"}) {
    const Symptom* t = seen(s, id);
    if (!t || reported(out, "python.tensorflow_cudnn") || reported(out, "python.jax_cuda")) continue;
    const bool mismatch = std::string_view(id) == "tensorflow.cudnn_mismatch";
    Finding f = from_symptom(
        self, "python.tensorflow_cudnn", Severity::fail,
        mismatch ? "TensorFlow loaded cuDNN " + value(*t, "loaded") + " but was built with " +
                       value(*t, "compiled") + ": its GPU kernels fail"
                 : "TensorFlow cannot load its CUDA libraries" +
                       (value(*t, "library").empty() ? std::string()
                                                     : " (" + value(*t, "library") + ")") +
                       ": it runs on the CPU",
        *t);
    f.fix = "install the CUDA and cuDNN this TensorFlow release was built with: on Linux "
            "pip install 'tensorflow[and-cuda]' (2.14 and later); older releases need the "
            "matching toolkit and cuDNN on the library path (https://www.tensorflow.org/install/"
            "source#gpu)";
    f.source = "https://www.tensorflow.org/install/pip";
    out.push_back(std::move(f));
  }
  if (const Symptom* g = seen(s, "tensorflow.gpu_too_old"); g && !reported(out, "python.tensorflow_arch")) {
    Finding f = from_symptom(self, "python.tensorflow_arch", Severity::fail,
                             "TensorFlow ignores the " + value(*g, "gpu") + " (compute capability " +
                                 value(*g, "cc") + "): this build needs compute capability " +
                                 value(*g, "min") + " or newer, so it runs on the CPU",
                             *g);
    f.fix = "build TensorFlow from source with compute capability " + value(*g, "cc") +
            " among its CUDA compute capabilities (TF_CUDA_COMPUTE_CAPABILITIES in ./configure), "
            "or use a GPU of compute capability " + value(*g, "min") + " or newer";
    f.source = "https://www.tensorflow.org/install/source";
    out.push_back(std::move(f));
  }
  if (const Symptom* c = seen(s, "cupy.nvrtc_arch"); c && !reported(out, "python.cupy_arch")) {
    const std::string arch = value(*c, "arch");
    Finding f = from_symptom(self, "python.cupy_arch", Severity::fail,
                             "CuPy cannot compile its kernels for this GPU: the NVRTC of its CUDA "
                             "rejects -arch=compute_" + (arch.empty() ? std::string("?") : arch) +
                                 ", the GPU's architecture",
                             *c);
    f.fix = "for a GPU newer than that CUDA, install a newer CuPy (it passes NVRTC only an -arch "
            "it knows since cupy/cupy#1055) or the CuPy package for a newer CUDA; for a GPU older "
            "than that CUDA supports, use an older CUDA with a CuPy built for it";
    f.source = "https://github.com/cupy/cupy/issues/1048";
    out.push_back(std::move(f));
  }
  if (const Symptom* t = seen(s, "tensorflow.no_cuda_driver");
      t && !reported(out, "cuda.no_driver") && !reported(out, "python.tensorflow_cudnn")) {
    Finding f = from_symptom(self, "cuda.no_driver", Severity::fail,
                             "TensorFlow found no CUDA driver (libcuda.so.1): GPU will not be used",
                             *t);
    f.fix = "install the NVIDIA driver; in a container, start it with --gpus all (NVIDIA Container "
            "Toolkit); under WSL2, use the Windows driver and keep /usr/lib/wsl/lib on the path";
    out.push_back(std::move(f));
  }
}

/// Libraries built against one torch and loaded with another.
void library_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  if (const Symptom* b = seen(s, "vllm.bfloat16_unsupported"); b && !reported(out, "python.vllm_dtype")) {
    Finding f = from_symptom(self, "python.vllm_dtype", Severity::fail,
                             "The " + value(*b, "gpu") + " (compute capability " + value(*b, "cc") +
                                 ") has no bfloat16, the dtype the model asks for: vLLM refuses to "
                                 "start",
                             *b);
    f.area = "python";
    f.fix = "start vLLM with --dtype half (float16), or use a GPU of compute capability 8.0 or newer";
    out.push_back(std::move(f));
  }
  if (const Symptom* x = seen(s, "xformers.torch_mismatch"); x && !reported(out, "python.xformers_torch")) {
    Finding f = from_symptom(self, "python.xformers_torch", Severity::fail,
                             "xFormers was built for another torch than the one installed (" +
                                 value(*x, "have") + "): its CUDA kernels do not load",
                             *x);
    f.area = "python";
    f.fix = "pip install the xformers release built for this torch (the same index as torch, e.g. "
            "pip install -U xformers --index-url https://download.pytorch.org/whl/cu121), or "
            "uninstall xformers";
    out.push_back(std::move(f));
  }
}

}  // namespace

void check_runtime_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (in.snap.live && in.snap.symptoms.empty()) return;
  plain_symptoms(self, in, out);
  torch_symptoms(self, in, out);
  framework_symptoms(self, in, out);
  library_symptoms(self, in, out);
  platform_symptoms(self, in, out);
}

void check_tensorflow_windows(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  if (!s.host || s.host->os_id != std::optional<std::string>("windows") || s.host->wsl || !s.python) return;
  const bool nvidia = usable_nvidia_gpu(s);
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      if (!p.tensorflow || p.name == "tensorflow-cpu" || !p.version) continue;
      auto v = parse_version(*p.version);
      if (!v || *v < *parse_version("2.11")) continue;
      // With an NVIDIA GPU in view this is the cause; without one it is what the person will
      // meet when they add one.
      Finding f = make_finding(self, nvidia ? Severity::fail : Severity::warn,
                               p.name + " " + *p.version + " on native Windows has no GPU support "
                               "(TensorFlow 2.10 was the last release with it): it runs on the CPU");
      f.evidence.push_back("OS: " + s.host->os_pretty_name.value_or("Windows"));
      f.fix = "run TensorFlow in WSL2 (pip install 'tensorflow[and-cuda]' there), or on native "
              "Windows use tensorflow<2.11 with CUDA 11.2 and cuDNN 8.1";
      out.push_back(std::move(f));
    }
  }
}

}  // namespace gpudoctor
