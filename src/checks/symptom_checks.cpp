// What programs printed (Snapshot::symptoms, read from a pasted dump or log) as evidence: each
// message names its cause. A symptom whose cause another check already reported from the
// installed facts adds nothing (one cause, one finding); these checks run last for that reason.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "checks/python_facts.hpp"
#include "compat/compat_query.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kPytorchLocally = "https://pytorch.org/get-started/locally/";
constexpr const char* kTensorflowWindows = "https://www.tensorflow.org/install/pip#windows-native";
constexpr const char* kOllamaGpu = "https://github.com/ollama/ollama/blob/main/docs/gpu.md";
constexpr const char* kRocmPermissions =
    "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/prerequisites.html";

bool reported(const std::vector<Finding>& out, std::string_view id) {
  return std::any_of(out.begin(), out.end(), [&](const Finding& f) { return f.id == id; });
}

const Symptom* seen(const Snapshot& s, std::string_view id) {
  for (const auto& x : s.symptoms) {
    if (x.id == id) return &x;
  }
  return nullptr;
}

std::string value(const Symptom& s, const std::string& key) {
  auto it = s.values.find(key);
  return it == s.values.end() ? "" : it->second;
}

/// A finding that a symptom stands on, with the message as its first evidence; its area is its
/// id's ("rocm.not_in_group" → rocm).
Finding from_symptom(const CheckSpec& self, std::string id, Severity sev, std::string title,
                     const Symptom& s) {
  Finding f = make_finding(self, sev, std::move(title));
  f.area = id.substr(0, id.find('.'));
  f.id = std::move(id);
  f.evidence.push_back(s.tool + " printed: " + s.text);
  return f;
}

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
                            }();
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
  if (const Symptom* n = seen(s, "torch.no_driver"); n && !reported(out, "cuda.no_driver")) {
    Finding f = from_symptom(self, "cuda.no_driver", Severity::fail,
                             "torch found no NVIDIA driver: nothing can use the GPU through CUDA", *n);
    f.fix = "install the NVIDIA driver (and on Linux check that its kernel module is loaded: "
            "nvidia-smi must print the GPU table)";
    out.push_back(std::move(f));
  }
  if (const Symptom* m = seen(s, "torch.mps_unavailable"); m && !reported(out, "macos.mps")) {
    Finding f = from_symptom(self, "macos.mps", Severity::fail,
                             "torch's MPS backend is not available: it runs on the CPU", *m);
    f.fix = "use macOS 12.3 or newer on Apple silicon or an AMD GPU, with an arm64 Python and "
            "torch 1.12 or newer";
    f.source = "https://pytorch.org/docs/stable/notes/mps.html";
    out.push_back(std::move(f));
  }
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
  for (const char* id : {"tensorflow.gpu_libraries_missing", "tensorflow.dlopen_failed",
                         "tensorflow.cudnn_mismatch"}) {
    const Symptom* t = seen(s, id);
    if (!t || reported(out, "python.tensorflow_cudnn")) continue;
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
  if (const Symptom* v = seen(s, "vllm.torch_abi_mismatch"); v && !reported(out, "python.vllm_torch")) {
    Finding f = from_symptom(self, "python.vllm_torch", Severity::fail,
                             "vLLM's compiled extension was built against another torch than the "
                             "one installed (undefined symbol)",
                             *v);
    f.area = "python";
    f.fix = "reinstall the vllm wheel together with the torch it pins (pip install --force-reinstall "
            "vllm), or build vLLM from source against this torch";
    out.push_back(std::move(f));
  }
}

void nvidia_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  if (const Symptom* n = seen(s, "nvidia_smi.no_driver");
      n && !reported(out, "nvidia.module_not_loaded")) {
    Finding f = from_symptom(self, "nvidia.module_not_loaded", Severity::fail,
                             "The NVIDIA kernel module is not loaded (nvidia-smi cannot reach the "
                             "driver): nothing can use the GPU",
                             *n);
    f.fix = "most often the module was not built for the running kernel or Secure Boot refused "
            "it: sudo dkms autoinstall (or reinstall the driver package for `uname -r`), check "
            "mokutil --sb-state and enroll the module's key or disable Secure Boot, then reboot";
    f.source = "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html";
    out.push_back(std::move(f));
  }
  if (const Symptom* n = seen(s, "nvml.unknown_error"); n && !reported(out, "nvidia.nvml_unknown_error")) {
    Finding f = from_symptom(self, "nvidia.nvml_unknown_error", Severity::fail,
                             "NVML cannot initialize (\"Unknown Error\"): in a container this is "
                             "the GPU access lost after the host reloaded systemd's cgroups",
                             *n);
    f.fix = "restart the container; for good, let the NVIDIA Container Toolkit manage devices "
            "through CDI (nvidia-ctk cdi generate) or set the cgroup driver as its "
            "troubleshooting page says; outside a container, reboot";
    f.source = "https://github.com/NVIDIA/nvidia-container-toolkit/issues/48";
    out.push_back(std::move(f));
  }
  if (const Symptom* n = seen(s, "nvidia_smi.no_devices"); n && !reported(out, "nvidia.no_devices")) {
    Finding f = from_symptom(self, "nvidia.no_devices", Severity::fail,
                             "The NVIDIA driver is loaded but sees no GPU", *n);
    f.fix = "check `lspci -nn | grep -i nvidia` (is the GPU on the bus?), `sudo dmesg | grep -i "
            "-e NVRM -e xid` (a GPU too old for this driver branch, or one that fell off the bus), "
            "and in a container the --gpus option";
    out.push_back(std::move(f));
  }
  if (const Symptom* n = seen(s, "nvidia_smi.gpu_lost"); n && !reported(out, "nvidia.gpu_lost")) {
    Finding f = from_symptom(self, "nvidia.gpu_lost", Severity::fail,
                             "A GPU has fallen off the bus: the driver lost contact with it", *n);
    f.fix = "reboot; if it recurs, check power, cooling and the slot, and `sudo dmesg | grep -i "
            "xid` (Xid 79)";
    out.push_back(std::move(f));
  }
}

std::optional<RocmOverride> override_for(const CompatData& data, const std::string& gfx) {
  if (gfx.empty()) return std::nullopt;
  return rocm_override(data, gfx);
}

void rocm_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  const Symptom* perm = seen(s, "rocm.not_in_render_group");
  if (!perm) perm = seen(s, "rocm.kfd_permission");
  if (perm && !reported(out, "rocm.not_in_group") && !reported(out, "rocm.group_not_active")) {
    Finding f = from_symptom(self, "rocm.not_in_group", Severity::fail,
                             "This user cannot open /dev/kfd: not in the render group, so ROCm "
                             "cannot use the GPU",
                             *perm);
    f.fix = "sudo usermod -aG render,video $USER, then log out and back in (in a container: "
            "--device /dev/kfd --device /dev/dri --group-add render)";
    f.source = kRocmPermissions;
    out.push_back(std::move(f));
  }
  if (const Symptom* m = seen(s, "rocm.module_not_loaded"); m && !reported(out, "rocm.amdgpu_not_loaded")) {
    Finding f = from_symptom(self, "rocm.amdgpu_not_loaded", Severity::fail,
                             "The amdgpu kernel driver (with KFD) is not loaded: ROCm finds no GPU", *m);
    f.fix = "sudo modprobe amdgpu and read `sudo dmesg | grep -i amdgpu`; install the kernel "
            "driver ROCm's install guide names for your distribution (amdgpu-dkms), then reboot";
    f.source = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/";
    out.push_back(std::move(f));
  }
  if (const Symptom* k = seen(s, "rocm.kfd_open_failed"); k && !perm && !reported(out, "rocm.kfd_open_failed")) {
    Finding f = from_symptom(self, "rocm.kfd_open_failed", Severity::fail,
                             "/dev/kfd exists but cannot be opened (" + value(*k, "error") +
                                 "): the kernel's KFD does not drive this GPU, or the device file is "
                                 "not this kernel's",
                             *k);
    f.fix = "read `sudo dmesg | grep -i kfd`: \"not supported in kfd\" means the GPU is too old for "
            "ROCm; in a container, pass the host's /dev/kfd and /dev/dri (--device) rather than "
            "creating them";
    f.source = "https://github.com/ROCm/ROCT-Thunk-Interface";
    out.push_back(std::move(f));
  }
  if (const Symptom* h = seen(s, "rocm.hsa_error");
      h && !perm && !seen(s, "rocm.kfd_open_failed") && !reported(out, "rocm.device_access") && !reported(out, "rocm.not_in_group")) {
    Finding f = from_symptom(self, "rocm.device_access", Severity::fail,
                             "The ROCm runtime could not open the GPU (" + value(*h, "status") + ")",
                             *h);
    f.fix = "check that this user is in the render and video groups (sudo usermod -aG "
            "render,video $USER, then log in again) and, in a container, that /dev/kfd and "
            "/dev/dri were passed in (--device /dev/kfd --device /dev/dri)";
    f.source = kRocmPermissions;
    out.push_back(std::move(f));
  }
  for (const char* id : {"rocm.tensile_missing", "rocm.no_code_object"}) {
    const Symptom* t = seen(s, id);
    if (!t || reported(out, "rocm.gfx_unsupported") || reported(out, "rocm.torch_gfx_unsupported")) {
      continue;
    }
    std::string gfx = value(*t, "gfx");
    if (gfx.empty() && s.rocm) {
      for (const auto& n : s.rocm->nodes) {
        if (n.gfx_target) gfx = *n.gfx_target;
      }
    }
    Finding f = from_symptom(self, "rocm.gfx_unsupported", Severity::fail,
                             "The ROCm libraries ship no code for " + (gfx.empty() ? "this GPU" : gfx),
                             *t);
    if (auto ov = override_for(in.compat, gfx)) {
      f.fix = "export HSA_OVERRIDE_GFX_VERSION=" + ov->value + " (runs the GPU as " + ov->runs_as +
              "; AMD does not support this)";
      f.source = ov->from.url;
    } else {
      f.fix = "use a GPU the ROCm release supports, or a ROCm release whose matrix lists it";
      f.source = "https://rocm.docs.amd.com/en/latest/compatibility/compatibility-matrix.html";
    }
    out.push_back(std::move(f));
  }
}

void ollama_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  for (const char* id : {"ollama.gfx_unsupported", "ollama.amd_too_old"}) {
    const Symptom* g = seen(s, id);
    if (!g || reported(out, "ollama.gfx_unsupported")) continue;
    const std::string gfx = value(*g, "gfx");
    Finding f = from_symptom(self, "ollama.gfx_unsupported", Severity::fail,
                             "ollama's ROCm build has no code for " + (gfx.empty() ? "this AMD GPU" : gfx) +
                                 ": it runs models on the CPU",
                             *g);
    if (!value(*g, "supported").empty()) f.evidence.push_back("ollama supports: " + value(*g, "supported"));
    if (s.rocm && s.rocm->hsa_override_gfx_version) {
      f.evidence.push_back("HSA_OVERRIDE_GFX_VERSION=" + *s.rocm->hsa_override_gfx_version);
    }
    const bool windows = s.host && s.host->os_id == std::optional<std::string>("windows");
    if (windows) {
      // ollama documents the override for Linux only; its Windows build runs the targets it
      // ships.
      f.fix = "ollama on Windows runs only the targets its ROCm libraries list: use a listed GPU, "
              "or run ollama on Linux" +
              (override_for(in.compat, gfx)
                   ? " with HSA_OVERRIDE_GFX_VERSION=" + override_for(in.compat, gfx)->value
                   : std::string());
    } else if (auto ov = override_for(in.compat, gfx)) {
      f.fix = "set HSA_OVERRIDE_GFX_VERSION=" + ov->value + " in ollama's environment (sudo "
              "systemctl edit ollama: [Service] Environment=\"HSA_OVERRIDE_GFX_VERSION=" +
              ov->value + "\", then restart it); the GPU then runs as " + ov->runs_as +
              ", which AMD does not support";
      f.evidence.push_back("override named in " + ov->from.url);
    } else {
      f.fix = "no override is known for " + (gfx.empty() ? std::string("this target") : gfx) +
              ": use a GPU ollama's list names";
    }
    f.source = std::string(kOllamaGpu) + "#overrides-on-linux";
    out.push_back(std::move(f));
  }
  if (const Symptom* g = seen(s, "ollama.gpu_too_old"); g && !reported(out, "ollama.gpu_too_old")) {
    Finding f = from_symptom(self, "ollama.gpu_too_old", Severity::fail,
                             "The NVIDIA GPU's compute capability " + value(*g, "compute") +
                                 " is older than ollama's CUDA runners support: it runs on the CPU",
                             *g);
    f.fix = "use a GPU ollama lists (compute capability 5.0 or newer) or build ollama from source "
            "for this architecture";
    f.source = kOllamaGpu;
    out.push_back(std::move(f));
  }
  if (const Symptom* r = seen(s, "ollama.rocm_missing"); r && !reported(out, "ollama.rocm_missing")) {
    Finding f = from_symptom(self, "ollama.rocm_missing", Severity::fail,
                             "ollama found an AMD GPU but no ROCm libraries to drive it: it runs on "
                             "the CPU",
                             *r);
    f.fix = "install ollama's ROCm package next to it (ollama-linux-amd64-rocm, as its Linux "
            "install page says), or ROCm itself";
    f.source = "https://github.com/ollama/ollama/blob/main/docs/linux.md";
    out.push_back(std::move(f));
  }
  const Symptom* none = seen(s, "ollama.no_gpu");
  const bool explained = reported(out, "ollama.gfx_unsupported") || reported(out, "ollama.gpu_too_old") ||
                         reported(out, "ollama.rocm_missing") || reported(out, "cuda.init") ||
                         reported(out, "nvidia.module_not_loaded") || reported(out, "rocm.not_in_group") ||
                         reported(out, "nvidia.driver_library_mismatch");
  if (none && !explained && !reported(out, "ollama.no_gpu")) {
    const bool gpu_elsewhere = (s.nvml && !s.nvml->devices.empty()) || (s.rocm && !s.rocm->nodes.empty());
    Finding f = from_symptom(self, "ollama.no_gpu", gpu_elsewhere ? Severity::fail : Severity::warn,
                             "ollama found no GPU it can use: models run on the CPU", *none);
    f.fix = "the log lines before this one name why; for NVIDIA check that nvidia-smi works in the "
            "same environment (container: --gpus all), for AMD that the user running ollama is in "
            "the render group";
    f.source = kOllamaGpu;
    out.push_back(std::move(f));
  }
}

void api_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  if (const Symptom* c = seen(s, "opencl.no_platforms"); c && !reported(out, "opencl.no_icd")) {
    Finding f = from_symptom(self, "opencl.no_icd", Severity::warn,
                             "The OpenCL ICD loader found no platform: no OpenCL driver is "
                             "registered or none loads",
                             *c);
    f.fix = "install the vendor's OpenCL ICD (nvidia-opencl-icd, rocm-opencl-runtime, "
            "intel-opencl-icd) and check /etc/OpenCL/vendors/*.icd";
    f.source = "https://github.com/KhronosGroup/OpenCL-ICD-Loader";
    out.push_back(std::move(f));
  }
  if (const Symptom* c = seen(s, "opencl.platform_without_devices"); c && !reported(out, "opencl.no_device")) {
    Finding f = from_symptom(self, "opencl.no_device", Severity::warn,
                             "The OpenCL platform " + value(*c, "platform") +
                                 " is registered but offers no device: its driver does not "
                                 "support this GPU",
                             *c);
    f.fix = "install the GPU vendor's OpenCL driver (Mesa's Clover serves only some AMD GPUs; "
            "rusticl, ROCm or the vendor's ICD serve newer ones)";
    f.source = "https://github.com/KhronosGroup/OpenCL-ICD-Loader";
    out.push_back(std::move(f));
  }
  if (const Symptom* v = seen(s, "vulkan.no_driver"); v && !reported(out, "vulkan.no_driver")) {
    Finding f = from_symptom(self, "vulkan.no_driver", Severity::warn,
                             "The Vulkan loader found no driver that works", *v);
    f.fix = "install the GPU's Vulkan driver (mesa-vulkan-drivers, or the NVIDIA driver's "
            "libnvidia-gl) and check the manifests in /usr/share/vulkan/icd.d";
    f.source = "https://github.com/KhronosGroup/Vulkan-Loader/blob/main/docs/LoaderDriverInterface.md";
    out.push_back(std::move(f));
  }
  if (s.vulkan && !s.vulkan->devices.empty() && !s.live && !reported(out, "vulkan.software_only")) {
    const bool all_cpu = std::all_of(s.vulkan->devices.begin(), s.vulkan->devices.end(),
                                     [](const VulkanDevice& d) { return d.type == std::optional<std::string>("cpu"); });
    const bool gpu_elsewhere = (s.nvml && !s.nvml->devices.empty()) || (s.rocm && !s.rocm->nodes.empty());
    if (all_cpu) {
      Finding f = make_finding(self, Severity::warn,
                               "Vulkan lists only a software device (" +
                                   s.vulkan->devices.front().name.value_or("llvmpipe") + ")" +
                                   (gpu_elsewhere ? " while the machine has a GPU" : "") +
                                   ": no GPU Vulkan driver is in use, and Vulkan compute runs on "
                                   "the CPU");
      f.id = "vulkan.software_only";
      f.area = "vulkan";
      f.fix = "install the GPU's Vulkan driver (NVIDIA: the driver's libnvidia-gl package; AMD/Intel: "
              "mesa-vulkan-drivers)";
      f.source = "https://github.com/KhronosGroup/Vulkan-Loader/blob/main/docs/LoaderDriverInterface.md";
      out.push_back(std::move(f));
    }
  }
}

}  // namespace

void check_runtime_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (in.snap.live && in.snap.symptoms.empty()) return;
  torch_symptoms(self, in, out);
  framework_symptoms(self, in, out);
  library_symptoms(self, in, out);
  nvidia_symptoms(self, in, out);
  rocm_symptoms(self, in, out);
  ollama_symptoms(self, in, out);
  api_symptoms(self, in, out);
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
