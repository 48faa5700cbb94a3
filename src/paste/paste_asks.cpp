// What a paste lacks that would decide more, as the commands to ask the person for. Apart from
// the readers because it consults the compatibility tables (the fuzz targets build without them).
#include <algorithm>

#include "compat/compat_query.hpp"
#include "paste/read_pasted.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

bool has_finding(const std::vector<Finding>& findings, std::string_view prefix) {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding& f) { return starts_with(f.id, prefix); });
}

bool has_symptom(const Snapshot& s, std::string_view id) {
  return std::any_of(s.symptoms.begin(), s.symptoms.end(),
                     [&](const Symptom& x) { return x.id == id; });
}

const PythonPackage* find_in(const Snapshot& s, std::string_view name) {
  if (!s.python) return nullptr;
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      if (p.name == name) return &p;
    }
  }
  return nullptr;
}

}  // namespace

std::vector<PasteAsk> what_would_decide(const PastedReading& reading,
                                        const std::vector<Finding>& findings) {
  const Snapshot& s = reading.snapshot;
  std::vector<PasteAsk> out;
  const bool driver_known = (s.nvml && (s.nvml->driver_version || s.nvml->cuda_driver_version)) ||
                            has_symptom(s, "torch.driver_too_old");
  const bool nvidia_gpus_known = s.nvml && !s.nvml->devices.empty();
  const bool amd_known = s.rocm && !s.rocm->nodes.empty();
  const PythonPackage* torch = find_in(s, "torch");
  const bool torch_cuda = torch && torch->torch && torch->torch->cuda;
  const bool torch_rocm = torch && torch->torch && torch->torch->hip;
  const bool mac = s.host && s.host->os_id == std::optional<std::string>("macos");
  const bool nvidia_fails = has_symptom(s, "nvidia_smi.no_driver") ||
                            has_symptom(s, "nvml.driver_library_mismatch");
  if (torch_cuda && !driver_known && !nvidia_fails) {
    out.push_back({"nvidia-smi", "the driver's version decides whether torch's CUDA " +
                                     *torch->torch->cuda + " can run"});
  }
  if ((torch_cuda || find_in(s, "jaxlib") || find_in(s, "tensorflow")) && !nvidia_gpus_known &&
      !amd_known && !mac && !nvidia_fails && driver_known) {
    out.push_back({"nvidia-smi -L", "which GPU it is decides whether the framework's kernels "
                                    "include its architecture"});
  }
  if ((torch_rocm || has_symptom(s, "rocm.tensile_missing") || has_symptom(s, "rocm.no_code_object")) &&
      !(amd_known && s.rocm->nodes.front().gfx_target)) {
    out.push_back({"rocminfo", "the GPU's gfx target decides whether ROCm and torch ship code for it"});
  }
  if ((nvidia_gpus_known || driver_known) && !s.python && !s.ollama && !nvidia_fails) {
    out.push_back({"python -m torch.utils.collect_env (or pip list)",
                   "which framework build is installed decides whether it can use this GPU"});
  }
  if (has_symptom(s, "nvidia_smi.no_driver")) {
    out.push_back({"uname -r; dkms status; mokutil --sb-state; sudo dmesg | grep -i nvidia",
                   "whether the module was built for the running kernel, and whether Secure Boot "
                   "refused it"});
  }
  // A Mac has no CUDA to ask about: collect_env says "No CUDA" there on every healthy machine.
  if (has_symptom(s, "torch.cuda_unavailable") && !mac && !has_finding(findings, "python.") &&
      !has_finding(findings, "cuda.") && !has_finding(findings, "nvidia.")) {
    out.push_back({"python -c \"import torch; torch.zeros(1).cuda()\"",
                   "torch says CUDA is not available; the error it raises names why"});
  }
  if ((has_symptom(s, "jax.cpu_fallback") || has_symptom(s, "jax.plugin_error")) && !find_in(s, "jaxlib")) {
    out.push_back({"pip list | grep -i -e jax -e nvidia",
                   "which jaxlib and CUDA plugin versions are installed decides the fix"});
  }
  // torch's CUDA build on a known NVIDIA GPU, where no arch list of that release is known: the
  // build's own list decides whether its kernels run there.
  if (torch_cuda && nvidia_gpus_known && !has_finding(findings, "python.torch_arch") &&
      !has_symptom(s, "torch.arch_unsupported")) {
    const auto v = parse_version(torch->version.value_or(""));
    const auto cuda = parse_version(*torch->torch->cuda);
    const bool windows = s.host && s.host->os_id == std::optional<std::string>("windows");
    if (v && cuda &&
        !torch_archs(builtin_compat(), *v, *cuda, windows ? "windows-x86_64" : "linux-x86_64")) {
      out.push_back({"python -c \"import torch; print(torch.cuda.get_arch_list())\"",
                     "whether torch " + torch->torch->version.value_or("") +
                         "'s kernels include this GPU's architecture (gpudoctor has no arch "
                         "list for that release)"});
    }
  }
  if (has_symptom(s, "nvidia_smi.not_installed")) {
    out.push_back({"the NVIDIA driver's installation state (nvidia-smi ships with it)",
                   "no nvidia-smi means the NVIDIA driver is not installed, or not on PATH"});
  }
  if (s.ollama && s.ollama->devices.empty() && !s.ollama->no_compatible_gpu &&
      !has_finding(findings, "ollama.")) {
    out.push_back({"journalctl -u ollama --no-pager (the server log from its start)",
                   "ollama's GPU discovery lines (\"inference compute\") say which GPU it found"});
  }
  return out;
}

}  // namespace gpudoctor

namespace gpudoctor {

PasteAsk first_ask(std::string_view text) {
  // The words that point at one stack, first match wins: the command whose output is that
  // stack's whole picture. The order puts the specific (a Mac, ROCm) before the general (torch).
  struct Pointer {
    std::vector<std::string_view> words;
    PasteAsk ask;
  };
  static const std::vector<Pointer> pointers = {
      {{"macOS", "Metal", "Apple M", "MPS"},
       {"system_profiler SPDisplaysDataType; python -m torch.utils.collect_env",
        "the Mac's GPUs, Metal support and the Python frameworks"}},
      {{"ROCm", "rocm", "HIP", "gfx", "amdgpu", "Radeon"},
       {"rocminfo; python -m torch.utils.collect_env",
        "the GPU's gfx target as ROCm sees it, and the framework's build"}},
      {{"torch", "Torch", "CUDA", "cuda", "cuDNN", "cudnn"},
       {"python -m torch.utils.collect_env", "torch's build, the driver, the GPUs and the libraries"}},
      {{"tensorflow", "TensorFlow", "keras"},
       {"python -c \"import tensorflow as tf; print(tf.__version__, tf.sysconfig.get_build_info(), "
        "tf.config.list_physical_devices())\"; nvidia-smi",
        "TensorFlow's build, the CUDA/cuDNN it wants, the GPUs it sees"}},
      {{"jax", "JAX", "XLA"},
       {"python -c \"import jax; jax.print_environment_info()\"",
        "jax, jaxlib and their plugins, and nvidia-smi"}},
      {{"NVIDIA", "nvidia", "GeForce", "RTX", "Tesla"},
       {"nvidia-smi", "the driver and the GPUs it sees"}},
  };
  for (const auto& p : pointers) {
    for (const auto word : p.words) {
      if (text.find(word) != std::string_view::npos) return p.ask;
    }
  }
  return {"nvidia-smi (NVIDIA), rocminfo (AMD), system_profiler SPDisplaysDataType (Mac), or "
          "python -m torch.utils.collect_env",
          "which GPU, driver and framework the machine has"};
}

}  // namespace gpudoctor
