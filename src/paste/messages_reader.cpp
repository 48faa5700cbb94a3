// Messages that torch, JAX, TensorFlow, ROCm libraries and the CUDA driver print, wherever they
// stand in a paste (a traceback, the warnings above a collect_env dump, a log). Each becomes a
// Symptom with what it names. Most are data (data/messages/*.json, matched by data_message());
// the ones here need code: they read the lines around them or fill more than a symptom.
#include <algorithm>
#include <cctype>

#include "api/cuda/cuda_codes.hpp"
#include "knowledge/messages.hpp"
#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_messages = "messages";

/// The text between `open` and the next `close` after it.
std::string between(std::string_view t, std::string_view open, std::string_view close) {
  const auto a = t.find(open);
  if (a == std::string_view::npos) return "";
  const auto b = t.find(close, a + open.size());
  return std::string(t.substr(a + open.size(), b == std::string_view::npos ? t.npos
                                                                            : b - a - open.size()));
}

std::optional<int> cuda_code_named(std::string_view name) {
  for (int code = 0; code < 1000; ++code) {
    if (cuda_error_name(code) == std::optional<std::string_view>(name)) return code;
  }
  return std::nullopt;
}

/// A message data/messages describes (format "messages"): its symptom with what it captured,
/// and cuInit's error where the entry names one. A message wrapped onto the next line claims both.
bool data_message(PasteSink& sink, std::size_t i) {
  const auto& lines = sink.lines();
  const std::string line = normalise_message_line(lines[i].text);
  std::string next;
  if (i + 1 < lines.size() && !sink.claimed(i + 1) && !lines[i + 1].fence) {
    next = normalise_message_line(lines[i + 1].text);
  }
  const auto m = match_message(builtin_messages(), kFormat_messages, line, next);
  if (!m) return false;
  const MessageEntry& e = *m->entry;
  std::map<std::string, std::string> values = m->values;
  // The code's name, number, meaning and usual cause (data/messages/*_codes.json) for the
  // finding's templates; a code row that names a finding gives it that id.
  add_code_values(builtin_messages(), e, values);
  if (e.cuda_init_error) {
    const std::string& c = *e.cuda_init_error;
    const bool capture = c.front() == '{';
    std::optional<int> code = capture ? cuda_code_named(m->values.at(c.substr(1, c.size() - 2)))
                                      : std::nullopt;
    if (!capture && parse_int(c)) code = static_cast<int>(*parse_int(c));
    if (code) set_cuda_init_error(sink, *code);
  }
  if (m->lines == 2) sink.claim(i + 1, kFormat_messages);
  sink.symptom(e.id, e.tool, i, values);
  return true;
}

/// One line: the symptom it is, if any.
bool message(PasteSink& sink, std::size_t i) {
  const auto& lines = sink.lines();
  const std::string_view t = trim(lines[i].text);
  if (t.find(" is not compatible with the current PyTorch installation") !=
          std::string_view::npos &&
      t.find("with CUDA capability sm_") != std::string_view::npos) {
    const auto with = t.find(" with CUDA capability sm_");
    std::string gpu(trim(t.substr(0, with)));
    if (const auto colon = gpu.rfind(": "); colon != std::string::npos) gpu = gpu.substr(colon + 2);
    const std::string sm = between(t, "capability sm_", " ");
    std::string supported;
    // "The current PyTorch install supports CUDA capabilities sm_50 sm_60 … sm_90."
    for (std::size_t k = i + 1; k < lines.size() && k < i + 3; ++k) {
      const std::string_view n = trim(lines[k].text);
      const auto at = n.find("supports CUDA capabilities ");
      if (at != std::string_view::npos) {
        supported = std::string(n.substr(at + 27));
        while (!supported.empty() && supported.back() == '.') supported.pop_back();
        sink.claim(k, kFormat_messages);
        sink.fact("message", std::string(n), k);
      }
    }
    sink.symptom("torch.arch_unsupported", "torch", i,
                 {{"gpu", gpu}, {"sm", sm}, {"supported", supported}});
    return true;
  }
  // torch/cuda/__init__.py's old-GPU warning: "Found GPU0 GeForce GT 720 which is of cuda
  // capability 3.5." then, on the same line or the next, "PyTorch no longer supports this GPU
  // because it is too old." and the minimum.
  if (t.find("which is of cuda capability ") != std::string_view::npos &&
      t.find("Found GPU") != std::string_view::npos) {
    const bool same_line = t.find("PyTorch no longer supports this GPU") != std::string_view::npos;
    const bool next_line = i + 1 < lines.size() &&
                           lines[i + 1].text.find("PyTorch no longer supports this GPU") !=
                               std::string::npos;
    if (!same_line && !next_line) return false;
    std::string gpu = between(t, "Found GPU", " which");
    const auto space = gpu.find(' ');  // "0 GeForce GT 720"
    if (space != std::string::npos) gpu = gpu.substr(space + 1);
    sink.symptom("torch.gpu_too_old", "torch", i,
                 {{"gpu", gpu}, {"cc", leading_version(between(t, "cuda capability ", " "))}});
    for (std::size_t k = i + 1; k < lines.size() && k < i + 3 && !same_line; ++k) {
      const std::string_view n = trim(lines[k].text);
      if (n.find("PyTorch no longer supports this GPU") != std::string_view::npos ||
          n.find("minimum cuda capability") != std::string_view::npos) {
        sink.claim(k, kFormat_messages);
        sink.fact("message", std::string(n), k);
      }
    }
    return true;
  }
  if (data_message(sink, i)) return true;
  // NVRTC refusing the -arch CuPy gives it (the GPU's own, "compute_61"): CuPy prints the
  // options after the message. Only in a CuPy traceback: torch's JIT words it the same.
  if (t.find("nvrtc: error: invalid value for --gpu-architecture (-arch)") !=
      std::string_view::npos) {
    const auto& lines = sink.lines();
    std::string arch;
    bool cupy = false;
    for (std::size_t k = i > 3 ? i - 3 : 0; k < lines.size() && k < i + 40; ++k) {
      const std::string_view n = trim(lines[k].text);
      if (n.find("cupy") != std::string_view::npos) cupy = true;
      if (arch.empty() && n.find("-arch=compute_") != std::string_view::npos) {
        arch = leading_version(n.substr(n.find("-arch=compute_") + 14));
        sink.fact("message", std::string(n), k);
      }
    }
    if (!cupy) return false;
    sink.symptom("cupy.nvrtc_arch", "cupy", i, {{"arch", arch}});
    return true;
  }
  // TensorFlow-ROCm's stream executor: hipGetDeviceCount failed, its error as ToString() names
  // it ("HIP_ERROR_NoDevice" is hipErrorNoDevice).
  if (t.find("could not retrieve ROCM device count: HIP_ERROR_NoDevice") != std::string_view::npos) {
    HipInfo& hip = sink.rocm().hip ? *sink.rocm().hip : sink.rocm().hip.emplace();
    // The code and its name from data/messages/hip_codes.json (hip_runtime_api.h).
    const ErrorCode* code = error_code_named(builtin_messages(), "hip", "hipErrorNoDevice");
    if (!hip.error && code) {
      hip.error =
          HipError{"hipGetDeviceCount", static_cast<int>(code->code), code->name, std::nullopt};
    }
    sink.symptom("hip.device_count_failed", "tensorflow", i);
    return true;
  }
  // nvcc --version: "Cuda compilation tools, release 12.1, V12.1.105": a toolkit on PATH.
  if (const auto at = t.find("Cuda compilation tools, release "); at != std::string_view::npos) {
    const auto v = t.find(", V", at);
    const std::string version =
        leading_version(v == std::string_view::npos ? t.substr(at + 32) : t.substr(v + 3));
    add_nvcc_toolkit(sink, version, i);
    return true;
  }
  if (starts_with(t, "nvcc: NVIDIA (R) Cuda compiler driver") ||
      (starts_with(t, "Copyright (c) 2005-") && t.find("NVIDIA Corporation") != std::string_view::npos) ||
      (starts_with(t, "Build cuda_"))) {
    return true;
  }
  // The lines Python prints around a warning, and the rest of torch's sm_XX message.
  if (starts_with(t, "warnings.warn(") || starts_with(t, "return torch._C._cuda_getDeviceCount()") ||
      (ends_with(t, "UserWarning:") && t.find("site-packages/torch/") != std::string_view::npos) ||
      (starts_with(t, "If you want to use the ") && t.find("GPU with PyTorch") != std::string_view::npos)) {
    return true;
  }
  // ComfyUI's start-up lines: "pytorch version: 2.1.0+cu121", "Device: cuda:0 NVIDIA GeForce
  // RTX 4090 : cudaMallocAsync".
  // Also behind a logging prefix: "2024-09-22 16:26:39,791 - root - INFO - pytorch version: …".
  if (const auto at = t.find("pytorch version: "); at != std::string_view::npos &&
                                                  (at == 0 || t.substr(0, at).find(" INFO - ") != std::string_view::npos)) {
    set_torch_version(sink, t.substr(at + 17), i);
    PythonPackage& p = sink.package("torch");
    if (p.torch && p.torch->local_version) apply_local_version(*p.torch);
    if (p.torch && !p.torch->local_version) p.torch.reset();  // the build is not said
    return true;
  }
  if (t.find("Device: cuda:") != std::string_view::npos || t.find("**Name:** cuda:") != std::string_view::npos) {
    // ComfyUI's log line, and its error report's "- **Name:** cuda:0 NVIDIA … : cudaMallocAsync".
    add_torch_device_gpu(sink, t.substr(t.find("cuda:") + 5), i);
    return true;
  }
  if (t.find("xFormers was built for:") != std::string_view::npos ||
      (t.find(" with CUDA ") != std::string_view::npos && t.find("(you have ") != std::string_view::npos)) {
    // xFormers prints "xFormers was built for:" and, on the next line, "PyTorch 2.1.2+cu121
    // with CUDA 1201 (you have 2.1.2+cpu)": the installed torch is read from whichever holds it.
    std::string have = between(t, "(you have ", ")");
    if (have.empty() && i + 1 < lines.size()) have = between(lines[i + 1].text, "(you have ", ")");
    sink.symptom("xformers.torch_mismatch", "xformers", i, {{"have", have}});
    return true;
  }
  return false;
}

}  // namespace

void set_cuda_init_error(PasteSink& sink, int code) {
  CudaInfo& c = sink.cuda();
  if (c.init_error) return;
  CudaError e;
  e.call = "cuInit";
  e.code = code;
  if (auto n = cuda_error_name(code)) e.name = std::string(*n);
  c.init_error = e;
}

void read_messages(PasteSink& sink) {
  for (std::size_t i = 0; i < sink.lines().size(); ++i) {
    if (!sink.claimed(i) && message(sink, i)) sink.claim(i, kFormat_messages);
  }
}

void add_torch_device_gpu(PasteSink& sink, std::string_view after_cuda, std::size_t i) {
  const std::string_view rest = after_cuda;
  const auto space = rest.find(' ');
  const auto colon = rest.rfind(" : ");
  if (space == std::string_view::npos) return;
  const auto idx = parse_int(rest.substr(0, space));
  const std::size_t end = colon == std::string_view::npos || colon < space ? rest.size() : colon;
  if (idx) add_named_gpu(sink, static_cast<int>(*idx), rest.substr(space + 1, end - space - 1), i);
}

void add_named_gpu(PasteSink& sink, int index, std::string_view name, std::size_t i) {
  std::string n(trim(name));
  if (no_value(n) || index < 0 || index > 1024) return;
  const std::string l = to_lower(n);
  const std::string gfx = [&] {
    const auto at = l.find("gfx");
    if (at == std::string::npos) return std::string();
    std::size_t end = at + 3;
    while (end < l.size() && std::isalnum(static_cast<unsigned char>(l[end])) != 0) ++end;
    return l.substr(at, end - at);
  }();
  const bool amd = !gfx.empty() || l.find("radeon") != std::string::npos ||
                   l.find("instinct") != std::string::npos || starts_with(l, "amd ") ||
                   starts_with(l, "device 66") || starts_with(l, "device 73") ||
                   starts_with(l, "device 74");
  sink.fact("gpu.name", n, i);
  if (amd) {
    KfdNode& node = amd_gpu(sink, index);
    std::string shown = n;
    if (const auto paren = shown.find(" (gfx"); paren != std::string::npos) shown = shown.substr(0, paren);
    if (!node.name) node.name = shown;
    if (!gfx.empty() && !node.gfx_target) node.gfx_target = gfx;
    return;
  }
  const bool nvidia = l.find("nvidia") != std::string::npos || l.find("geforce") != std::string::npos ||
                      l.find("tesla") != std::string::npos || l.find("quadro") != std::string::npos ||
                      l.find("titan") != std::string::npos || starts_with(l, "rtx ") ||
                      starts_with(l, "gtx ") || l.find(" rtx ") != std::string::npos;
  const bool other = l.find("intel") != std::string::npos || l.find("apple") != std::string::npos;
  if (other || (!nvidia && l.find("a100") == std::string::npos && l.find("h100") == std::string::npos)) {
    return;
  }
  NvmlDevice& d = sink.nvidia_gpu(index);
  if (!d.name || (d.name->find("...") != std::string::npos && n.find("...") == std::string::npos)) {
    d.name = n;
  }
}

}  // namespace gpudoctor
