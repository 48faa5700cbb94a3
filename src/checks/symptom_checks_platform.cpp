// Runtime symptoms of ROCm, ollama, OpenCL and Vulkan, and the messages that name one cause in
// so many words (data/messages entries with a finding). The torch, JAX, TensorFlow and library ones are in symptom_checks.cpp.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/symptom_util.hpp"
#include "compat/compat_query.hpp"
#include "knowledge/messages.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

using namespace symptom_util;

Severity severity_named(const std::string& s) {
  if (s == "fail") return Severity::fail;
  if (s == "warn") return Severity::warn;
  return Severity::info;
}

constexpr const char* kOllamaGpu = "https://github.com/ollama/ollama/blob/main/docs/gpu.md";
constexpr const char* kRocmPermissions =
    "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/prerequisites.html";

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

/// `kubectl describe node`: fewer GPUs allocatable than the device plugin registered.
void kubernetes_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const Symptom* k = seen(in.snap, "k8s.gpus_unhealthy");
  if (!k || reported(out, "k8s.gpus_unhealthy")) return;
  const std::string resource = value(*k, "resource");
  const bool nvidia = starts_with(resource, "nvidia.com/");
  Finding f = from_symptom(
      self, "k8s.gpus_unhealthy", Severity::warn,
      "The node registered " + value(*k, "capacity") + " " + resource + " but only " +
          value(*k, "allocatable") + " are allocatable: the device plugin marked the others "
          "unhealthy, and pods cannot get them" +
          (nvidia ? " until the plugin restarts (it never marks a GPU healthy again)" : ""),
      *k);
  f.area = "gpu";
  f.fix = nvidia ? "find why in the device plugin's log (kubectl logs -n <namespace> <device "
                   "plugin pod>: the Xid it marked a GPU unhealthy for) and the node's kernel "
                   "log (Xid lines); once the GPU is sound, delete the plugin's pod so that it "
                   "registers every GPU again; DP_DISABLE_HEALTHCHECKS lists Xids to ignore "
                   "(\"xids\" or \"all\" turns the check off)"
                 : "find why in the device plugin's log (kubectl logs on its pod) and the node's "
                   "kernel log; once the GPU is sound, restart the plugin's pod";
  f.source = nvidia ? "https://github.com/NVIDIA/k8s-device-plugin/blob/main/internal/rm/health.go"
                    : "https://kubernetes.io/docs/concepts/extend-kubernetes/compute-storage-net/device-plugins/";
  out.push_back(std::move(f));
}

}  // namespace

void plain_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  // data/messages: the entries that name their finding (a message that names one cause in so
  // many words), with {name} in the title and fix filled from what the message captured.
  for (const auto& e : builtin_messages().entries) {
    if (!e.finding) continue;
    const Symptom* x = seen(in.snap, e.id);
    const MessageFinding& r = *e.finding;
    if (!x) continue;
    // An error-code message: the code's row may name the finding (803 is the driver/library
    // mismatch another check reports too) and its severity.
    const auto code_id = x->values.find("code_finding");
    const bool by_code = code_id != x->values.end() && !code_id->second.empty();
    const std::string id = by_code ? code_id->second : r.id;
    const std::string severity = by_code ? x->values.at("code_severity") : r.severity;
    // Reported already: the message adds nothing, unless the report is only a note (a pasted
    // loader line read as "no driver manifest", info) and the message states the failure.
    const Severity said = severity_named(severity);
    const auto before = std::find_if(out.begin(), out.end(), [&](const Finding& g) { return g.id == id; });
    if (before != out.end()) {
      if (before->severity >= said || before->severity > Severity::info) continue;
      out.erase(before);
    }
    Finding f = from_symptom(self, id, said, fill_template(r.title, x->values), *x);
    if (r.area) f.area = *r.area;
    f.fix = fill_template(r.fix, x->values);
    if (r.source) {
      f.source = *r.source;
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
  kubernetes_symptoms(self, in, out);
}

}  // namespace gpudoctor
