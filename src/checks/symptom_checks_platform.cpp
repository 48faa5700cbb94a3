// Runtime symptoms of ROCm, ollama, OpenCL and Vulkan, and the messages that name one cause in
// so many words (a table). The torch, JAX, TensorFlow and library ones are in symptom_checks.cpp.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/symptom_util.hpp"
#include "compat/compat_query.hpp"

namespace gpudoctor {

namespace {

using namespace symptom_util;

constexpr const char* kOllamaGpu = "https://github.com/ollama/ollama/blob/main/docs/gpu.md";
constexpr const char* kRocmPermissions =
    "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/prerequisites.html";

/// Messages that name one cause in so many words: the finding each stands for.
struct PlainRule {
  const char* symptom;
  const char* finding;
  Severity severity;
  const char* title;
  const char* fix;
  const char* source;  ///< "" when the message itself is the only source
};
constexpr PlainRule kPlainRules[] = {
    {"nvidia_smi.no_driver", "nvidia.module_not_loaded", Severity::fail,
     "The NVIDIA kernel module is not loaded (nvidia-smi cannot reach the driver): nothing can "
     "use the GPU",
     "most often the module was not built for the running kernel or Secure Boot refused it: sudo "
     "dkms autoinstall (or reinstall the driver package for `uname -r`), check mokutil "
     "--sb-state and enroll the module's key or disable Secure Boot, then reboot",
     "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html"},
    {"nvml.unknown_error", "nvidia.nvml_unknown_error", Severity::fail,
     "NVML cannot initialize (\"Unknown Error\"): in a container this is the GPU access lost "
     "after the host reloaded systemd's cgroups",
     "restart the container; for good, let the NVIDIA Container Toolkit manage devices through "
     "CDI (nvidia-ctk cdi generate) or set the cgroup driver as its troubleshooting page says; "
     "outside a container, reboot",
     "https://github.com/NVIDIA/nvidia-container-toolkit/issues/48"},
    {"nvidia_smi.no_devices", "nvidia.no_devices", Severity::fail,
     "The NVIDIA driver is loaded but sees no GPU",
     "check `lspci -nn | grep -i nvidia` (is the GPU on the bus?), `sudo dmesg | grep -i -e NVRM "
     "-e xid` (a GPU too old for this driver branch, or one that fell off the bus), and in a "
     "container the --gpus option",
     ""},
    {"nvidia_smi.gpu_lost", "nvidia.gpu_lost", Severity::fail,
     "A GPU has fallen off the bus: the driver lost contact with it",
     "reboot; if it recurs, check power, cooling and the slot, and `sudo dmesg | grep -i xid` "
     "(Xid 79)",
     ""},
    {"nvrm.probe_not_called", "nvidia.nouveau_bound", Severity::fail,
     "nouveau (or another framebuffer driver) holds the NVIDIA GPU: the NVIDIA module's probe "
     "routine was never called for it, so CUDA finds no device",
     "blacklist nouveau (echo -e 'blacklist nouveau\\noptions nouveau modeset=0' | sudo tee "
     "/etc/modprobe.d/blacklist-nouveau.conf), rebuild the initramfs (sudo update-initramfs -u, "
     "or dracut -f), and reboot",
     "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html"},
    {"nvrm.gpu_unsupported", "nvidia.no_devices", Severity::fail,
     "This NVIDIA driver release does not support the GPU: the kernel module refused it, so "
     "nvidia-smi and CUDA see no device",
     "install the driver branch that still supports this GPU: the README of each branch lists "
     "its GPUs in 'Appendix A - Supported NVIDIA GPU Products' (older GPUs need a legacy "
     "branch such as 470 or 390)",
     "https://www.nvidia.com/en-us/drivers/unix/legacy-gpu/"},
    {"nvrm.init_adapter_failed", "nvidia.no_devices", Severity::fail,
     "The NVIDIA driver could not initialize the GPU (RmInitAdapter failed): nvidia-smi and "
     "CUDA see no device",
     "read the lines around it in `sudo dmesg`: a firmware file that failed to load "
     "(reinstall the driver, whose package carries the GSP firmware), a GPU newer than this "
     "driver branch, or power and PCIe problems (Xid, \"fallen off the bus\")",
     ""},
    {"kernel.module_signature_refused", "nvidia.module_not_loaded", Severity::fail,
     "The kernel refused to load an unsigned module (Secure Boot): the NVIDIA module is not "
     "loaded, nothing can use the GPU",
     "sign the module with a key enrolled in the firmware: dkms signs it once its key is "
     "enrolled (sudo mokutil --import /var/lib/dkms/mok.pub, reboot, enroll the key in the MOK "
     "manager), or disable Secure Boot",
     "https://man7.org/linux/man-pages/man7/kernel_lockdown.7.html"},
    {"kernel.nvidia_module_missing", "nvidia.module_not_loaded", Severity::fail,
     "No NVIDIA module is built for the running kernel: modprobe cannot find it",
     "build it for this kernel: sudo dkms autoinstall (needs the kernel's headers: "
     "linux-headers-$(uname -r)), or reinstall the driver package, then sudo modprobe nvidia",
     "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html"},
    {"cuda.insufficient_driver", "cuda.driver_too_old", Severity::fail,
     "The NVIDIA driver is older than the CUDA runtime the program was built with "
     "(cudaErrorInsufficientDriver, 35)",
     "install a driver that supports the program's CUDA version (nvidia-smi's \"CUDA Version\" "
     "must be at least that), or use a build of the program for the CUDA the driver supports",
     "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html"},
    {"torch.no_driver", "cuda.no_driver", Severity::fail,
     "torch found no NVIDIA driver: nothing can use the GPU through CUDA",
     "install the NVIDIA driver (and on Linux check that its kernel module is loaded: nvidia-smi "
     "must print the GPU table)",
     ""},
    {"torch.mps_unavailable", "macos.mps", Severity::fail,
     "torch's MPS backend is not available: it runs on the CPU",
     "use macOS 12.3 or newer on Apple silicon or an AMD GPU, with an arm64 Python and torch 1.12 "
     "or newer",
     "https://pytorch.org/docs/stable/notes/mps.html"},
    {"vllm.torch_abi_mismatch", "python.vllm_torch", Severity::fail,
     "vLLM's compiled extension was built against another torch than the one installed "
     "(undefined symbol)",
     "reinstall the vllm wheel together with the torch it pins (pip install --force-reinstall "
     "vllm), or build vLLM from source against this torch",
     ""},
    {"rocm.module_not_loaded", "rocm.amdgpu_not_loaded", Severity::fail,
     "The amdgpu kernel driver (with KFD) is not loaded: ROCm finds no GPU",
     "sudo modprobe amdgpu and read `sudo dmesg | grep -i amdgpu`; install the kernel driver "
     "ROCm's install guide names for your distribution (amdgpu-dkms), then reboot",
     "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/"},
    {"ollama.rocm_missing", "ollama.rocm_missing", Severity::fail,
     "ollama found an AMD GPU but no ROCm libraries to drive it: it runs on the CPU",
     "install ollama's ROCm package next to it (ollama-linux-amd64-rocm, as its Linux install page "
     "says), or ROCm itself",
     "https://github.com/ollama/ollama/blob/main/docs/linux.md"},
    {"opencl.no_platforms", "opencl.no_icd", Severity::warn,
     "The OpenCL ICD loader found no platform: no OpenCL driver is registered or none loads",
     "install the vendor's OpenCL ICD (nvidia-opencl-icd, rocm-opencl-runtime, intel-opencl-icd) "
     "and check /etc/OpenCL/vendors/*.icd",
     "https://github.com/KhronosGroup/OpenCL-ICD-Loader"},
    {"vulkan.no_driver", "vulkan.no_driver", Severity::warn,
     "The Vulkan loader found no driver that works",
     "install the GPU's Vulkan driver (mesa-vulkan-drivers, or the NVIDIA driver's libnvidia-gl) "
     "and check the manifests in /usr/share/vulkan/icd.d",
     "https://github.com/KhronosGroup/Vulkan-Loader/blob/main/docs/LoaderDriverInterface.md"},
};

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

void plain_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  for (const auto& r : kPlainRules) {
    const Symptom* x = seen(in.snap, r.symptom);
    if (!x || reported(out, r.finding)) continue;
    Finding f = from_symptom(self, r.finding, r.severity, r.title, *x);
    f.fix = r.fix;
    if (*r.source != '\0') {
      f.source = r.source;
    } else {
      f.source.reset();
    }
    out.push_back(std::move(f));
  }
}

void platform_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  rocm_symptoms(self, in, out);
  ollama_symptoms(self, in, out);
  api_symptoms(self, in, out);
}

}  // namespace gpudoctor
