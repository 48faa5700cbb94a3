// llama.cpp / ggml start-up lines as people paste them (llama-server, llama-cli,
// llama-cpp-python, ComfyUI-GGUF, …): the GPUs ggml's CUDA or ROCm backend found, with their
// compute capability or gfx target, and the architectures its CUDA build carries ("CUDA : ARCHS =
// 520,610,700,750" in system_info: nvcc's __CUDA_ARCH_LIST__, the virtual architectures the
// kernels were compiled for; ggml/src/ggml-cuda/ggml-cuda.cu in ggml-org/llama.cpp).
#include <cctype>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_ggml = "llama.cpp/ggml";

/// "ggml_cuda_init: found 2 CUDA devices:" (ggml_init_cublas before 2024): NVIDIA or ROCm.
bool devices_header(std::string_view t, bool& rocm) {
  const bool init = starts_with(t, "ggml_cuda_init: found ") || starts_with(t, "ggml_init_cublas: found ");
  if (!init) return false;
  rocm = t.find(" ROCm devices") != std::string_view::npos;
  return t.find(" devices:") != std::string_view::npos;
}

/// "Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes" or
/// "Device 0: AMD Radeon RX 7900 XTX, gfx1100 (0x1100), VMM: no, Wave Size: 32".
bool device_line(PasteSink& sink, std::string_view t, bool rocm, std::size_t i) {
  if (!starts_with(t, "Device ")) return false;
  const auto colon = t.find(": ");
  if (colon == std::string_view::npos) return false;
  const auto index = parse_int(t.substr(7, colon - 7));
  if (!index || *index < 0 || *index > 1024) return false;
  std::string_view rest = t.substr(colon + 2);
  const auto comma = rest.find(", ");
  const std::string name(trim(rest.substr(0, comma)));
  if (name.empty()) return false;
  if (rocm) {
    std::string gfx;
    if (const auto at = rest.find("gfx"); at != std::string_view::npos) {
      std::size_t end = at + 3;
      while (end < rest.size() && std::isalnum(static_cast<unsigned char>(rest[end])) != 0) ++end;
      gfx = std::string(rest.substr(at, end - at));
    }
    add_named_gpu(sink, static_cast<int>(*index), gfx.empty() ? name : name + " (" + gfx + ")", i);
    return true;
  }
  add_named_gpu(sink, static_cast<int>(*index), name, i);
  const auto cc = rest.find("compute capability ");
  if (cc != std::string_view::npos) {
    const std::string v = leading_version(rest.substr(cc + 19));
    const auto dot = v.find('.');
    if (dot != std::string::npos) {
      NvmlDevice& d = sink.nvidia_gpu(static_cast<int>(*index));
      d.cc_major = static_cast<int>(parse_int(v.substr(0, dot)).value_or(0));
      d.cc_minor = static_cast<int>(parse_int(v.substr(dot + 1)).value_or(0));
      sink.fact("gpu.compute_capability", v, i);
    }
  }
  return true;
}

/// system_info's "CUDA : ARCHS = 520,610,700,750 | …": the build's CUDA architectures.
bool archs_line(PasteSink& sink, std::string_view t, std::size_t i) {
  const auto at = t.find("CUDA : ARCHS = ");
  if (at == std::string_view::npos) return false;
  std::string_view list = t.substr(at + 15);
  list = list.substr(0, list.find_first_of(" |"));
  if (list.empty() || list.find_first_not_of("0123456789,") != std::string_view::npos) return false;
  sink.symptom("ggml.cuda_archs", "llama.cpp", i, {{"archs", std::string(list)}});
  return true;
}

/// llama.cpp's own log prefix ("0.00.026.055 I "): elapsed time and a level letter.
std::string_view without_log_prefix(std::string_view t) {
  std::size_t i = 0;
  int dots = 0;
  while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) != 0 || t[i] == '.')) {
    dots += t[i] == '.';
    ++i;
  }
  if (dots == 3 && i + 2 < t.size() && t[i] == ' ' && std::isupper(static_cast<unsigned char>(t[i + 1])) != 0 &&
      t[i + 2] == ' ') {
    return trim(t.substr(i + 3));
  }
  return t;
}

}  // namespace

void read_ggml_log(PasteSink& sink) {
  const auto& lines = sink.lines();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) continue;
    const std::string_view t = without_log_prefix(trim(lines[i].text));
    bool rocm = false;
    if (devices_header(t, rocm)) {
      sink.claim(i, kFormat_ggml);
      for (std::size_t k = i + 1; k < lines.size() && k <= i + 17; ++k) {
        if (!device_line(sink, without_log_prefix(trim(lines[k].text)), rocm, k)) break;
        sink.claim(k, kFormat_ggml);
      }
      continue;
    }
    if (starts_with(t, "ggml_cuda_init: GGML_CUDA_FORCE_") || archs_line(sink, t, i)) {
      sink.claim(i, kFormat_ggml);
    }
  }
}

}  // namespace gpudoctor
