// A program said in so many words that it cannot use the GPU ("Is CUDA available: False", JAX's
// fallback to the CPU, ollama's "no compatible GPUs"), and no check found why. Said as a failure
// of its own, with what was and was not read, so a person never reads green marks over a
// symptom they pasted.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/area_status.hpp"
#include "checks/check_util.hpp"

namespace gpudoctor {

namespace {

/// The symptoms that state a framework runs without its GPU, and how to say so.
struct StatedSymptom {
  std::string_view symptom;
  std::string_view says;  ///< "torch says CUDA is not available"
  std::string_view area;  ///< where its missing cause would show
  Severity severity = Severity::fail;
};
constexpr StatedSymptom kStated[] = {
    {"torch.cuda_unavailable", "torch says CUDA is not available (torch.cuda.is_available() is False)",
     "python"},
    {"torch.mps_unavailable", "torch says its MPS backend is not available", "python"},
    {"jax.cpu_fallback", "JAX fell back to the CPU", "python"},
    {"jax.cpu_devices_only", "JAX lists only CPU devices", "python"},
    {"tensorflow.no_gpu_listed", "TensorFlow lists no GPU (list_physical_devices('GPU') is empty)",
     "python"},
    {"ollama.no_gpu", "ollama found no compatible GPU and runs on the CPU", "ollama"},
    // An error line of the GPU stack no entry knows (src/paste/stated_failure_reader.cpp): what
    // failed is not known, so a warning, never silence.
    {"stated.failure", "the paste states a failure of the GPU stack", "python", Severity::warn},
};

/// What was read about each stage a framework needs before it can use a GPU, and what was not.
std::vector<std::string> stages_read(const Snapshot& s) {
  std::vector<std::string> out;
  const bool gpu = (s.pci && !s.pci->devices.empty()) || (s.nvml && !s.nvml->devices.empty()) ||
                   (s.rocm && !s.rocm->nodes.empty()) || (s.macos && !s.macos->gpus.empty());
  out.push_back(gpu ? "the GPU: listed" : "the GPU: not shown (not examined)");
  const bool driver = (s.nvml && s.nvml->driver_version) ||
                      (s.nvidia && s.nvidia->kernel.module_version) ||
                      (s.rocm && s.rocm->amdgpu_module) || s.macos;
  out.push_back(driver ? "the driver: listed" : "the driver: not shown (not examined)");
  bool framework = false;
  if (s.python) {
    for (const auto& env : s.python->envs) framework = framework || !env.packages.empty();
  }
  out.push_back(framework ? "the framework's build: listed"
                          : "the framework's build: not shown (not examined)");
  return out;
}

/// Whether the machine has a GPU the framework should have used: one is listed, a GPU driver is,
/// the framework is a GPU build, or the message itself says a GPU may be there. "Is CUDA
/// available: False" on a laptop without a GPU, or on any Mac, is the healthy answer.
bool gpu_expected(const Snapshot& s, const Symptom& symptom) {
  if (symptom.text.find("GPU may be present") != std::string::npos) return true;
  if (symptom.id == "stated.failure") {
    // The paste says it failed; a message entry that read another line of it (an out-of-memory
    // note, a code's meaning) has already said what the failure is.
    return std::none_of(s.symptoms.begin(), s.symptoms.end(),
                        [](const Symptom& x) { return x.id != "stated.failure"; });
  }
  if (symptom.id == "torch.cuda_unavailable" && on_macos(s)) return false;
  if (symptom.id == "torch.mps_unavailable") return on_macos(s);
  if ((s.nvml && (!s.nvml->devices.empty() || s.nvml->driver_version)) ||
      (s.cuda && !s.cuda->devices.empty()) || (s.rocm && !s.rocm->nodes.empty()) ||
      (s.nvidia && s.nvidia->kernel.module_version) || !pci_gpus(s).empty()) {
    return true;
  }
  bool cpu_build = false;  // a torch whose build is known and carries neither CUDA nor ROCm
  if (s.python) {
    for (const auto& env : s.python->envs) {
      for (const auto& p : env.packages) {
        if (p.torch && (p.torch->cuda || p.torch->hip)) return true;
        if (p.torch) cpu_build = true;
      }
    }
  }
  // What is known says no GPU (the hardware was read and lists none; a CPU-only build with no GPU
  // or driver shown: a CPU machine's collect_env): the healthy answer. Nothing known ("Is CUDA
  // available: False" pasted alone): the person is reporting it, and it is not green.
  // JAX's device list and ollama's log are printed on CPU machines too, as a matter of course;
  // "Is CUDA available: False" quoted alone is what people paste to say it fails.
  if (symptom.id != "torch.cuda_unavailable") return false;
  if (pci_was_read(s) || macos_gpus_read(s) || cpu_build) return false;
  return true;
}

}  // namespace

void check_stated_symptoms(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  // A warning or failure above already stands over the symptom: nothing is green.
  const bool explained = std::any_of(out.begin(), out.end(), [](const Finding& f) {
    return f.severity >= Severity::warn;
  });
  if (explained) return;
  for (const StatedSymptom& stated : kStated) {
    const auto it = std::find_if(in.snap.symptoms.begin(), in.snap.symptoms.end(),
                                 [&](const Symptom& x) { return x.id == stated.symptom; });
    if (it == in.snap.symptoms.end() || !gpu_expected(in.snap, *it)) continue;
    std::string says(stated.says);
    // On a machine (live or a tree) the line comes from its kernel log, not from a paste.
    if (it->id == "stated.failure" && in.snap.origin != Origin::paste &&
        in.snap.origin != Origin::report) {
      says = "the machine's kernel log states a failure of the GPU stack";
    }
    if (it->id == "stated.failure") says += " (\"" + it->text.substr(0, 160) + "\")";
    Finding f = make_finding(self, stated.severity, says + ", and nothing read here says why");
    f.area = std::string(stated.area);
    // The symptom's own line is quoted from the paste (messages_behind in read_pasted.cpp).
    for (auto& stage : stages_read(in.snap)) f.evidence.push_back(std::move(stage));
    // The GPU and its driver were read and look usable: what is missing is the framework's own
    // reason, which the error it raises names.
    const bool gpu_read = (in.snap.nvml && !in.snap.nvml->devices.empty()) ||
                          (in.snap.rocm && !in.snap.rocm->nodes.empty());
    f.fix = on_macos(in.snap)
                ? "add the output of `system_profiler SPDisplaysDataType` and `python -m "
                  "torch.utils.collect_env` (the Mac's GPU and the framework's build decide it)"
            : gpu_read && it->id == "torch.cuda_unavailable"
                ? "the GPU and its driver read here look usable: add the error torch raises "
                  "(`python -c \"import torch; torch.zeros(1).cuda()\"`) and `python -m "
                  "torch.utils.collect_env` from the same environment (for example a "
                  "CUDA_VISIBLE_DEVICES set to nothing, a container without the GPU, or another "
                  "torch than the one shown)"
                : "add the output of `nvidia-smi` (or `rocminfo` for AMD) and `python -m "
                  "torch.utils.collect_env` from the same environment: the driver, the GPU and "
                  "the framework's build decide it";
    out.push_back(std::move(f));
    return;  // one stated symptom is enough: one cause, one finding
  }
}

}  // namespace gpudoctor
