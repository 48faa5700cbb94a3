// Lines programs print when they start or describe their setup, read wherever they stand:
// vLLM's logger lines, numba -s's CUDA device list, the Vulkan device a program picked (vkcube's
// "Selected GPU 0: …", mpv's --vulkan-device=help list) and `conda info`. They make a healthy
// fragment recognised, and the GPUs they name are facts like any dump's.
#include <regex>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_vllm_log = "vLLM log";
constexpr const char* kFormat_numba_s = "numba -s";
constexpr const char* kFormat_vulkan_device = "Vulkan device lines (vkcube, mpv)";
constexpr const char* kFormat_conda_info = "conda info";

/// vLLM's logger: "INFO 02-07 19:23:56 gpu_model_runner.py:867] …" (older) and
/// "INFO 10-26 21:47:44 [weight_utils.py:304] …" (newer), behind any prefix ("(EngineCore_0
/// pid=…) ", a serving framework's own log). Only INFO and DEBUG lines: a WARNING or ERROR line
/// is left to the readers of what it says.
bool startup_vllm_line(std::string_view t) {
  if (t.find("INFO ") == std::string_view::npos && t.find("DEBUG ") == std::string_view::npos) {
    return false;
  }
  static const std::regex re(
      "\\b(?:INFO|DEBUG) [0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} \\[?[A-Za-z0-9_./]+\\.py:[0-9]+\\]");
  return std::regex_search(t.begin(), t.end(), re);
}

/// numba -s: "id 0     b'GeForce GTX 960M'" (and "… [SUPPORTED]" after it in newer numba).
bool startup_numba_device(PasteSink& sink, std::string_view t, std::size_t i) {
  if (!starts_with(t, "id ")) return false;
  static const std::regex re("^id ([0-9]+) +b['\"]([^'\"]+)['\"]");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(t.begin(), t.end(), m, re)) return false;
  const auto idx = parse_int(m[1].str());
  if (idx) add_named_gpu(sink, static_cast<int>(*idx), m[2].str(), i);
  return true;
}

/// vkcube: "Selected GPU 0: AMD Radeon RX 6800 XT (RADV NAVI21), type: DiscreteGpu, …";
/// mpv: "'Apple M1 Pro' (GPU 0, PCI ID 106b:1a020207, UUID …, Driver MoltenVK)".
bool startup_vulkan_device(PasteSink& sink, std::string_view t, std::size_t i) {
  if (t.find("GPU ") == std::string_view::npos) return false;
  static const std::regex vkcube("^Selected GPU ([0-9]+): (.+?)(?: \\([^)]*\\))?, type: [A-Za-z]+");
  static const std::regex mpv("^'([^']+)' \\(GPU ([0-9]+), PCI ID [0-9a-fA-F]{4}:");
  std::match_results<std::string_view::const_iterator> m;
  if (std::regex_search(t.begin(), t.end(), m, vkcube)) {
    if (const auto idx = parse_int(m[1].str())) add_named_gpu(sink, static_cast<int>(*idx), m[2].str(), i);
    return true;
  }
  if (std::regex_search(t.begin(), t.end(), m, mpv)) {
    if (const auto idx = parse_int(m[2].str())) add_named_gpu(sink, static_cast<int>(*idx), m[1].str(), i);
    return true;
  }
  return false;
}

}  // namespace

void read_startup_lines(PasteSink& sink) {
  const auto& lines = sink.lines();
  // conda info: its "key : value" block, from "active environment :" or "conda version :".
  bool conda_info = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i) || lines[i].fence) continue;
    const std::string_view t = trim(lines[i].text);
    if (t.empty()) {
      conda_info = false;
      continue;
    }
    if (starts_with(t, "active environment :") || starts_with(t, "conda version :")) conda_info = true;
    if (conda_info) {
      const auto colon = t.find(" : ");
      const bool row = colon != std::string_view::npos || starts_with(t, "__") ||
                       starts_with(t, "https://") || starts_with(t, "/");
      if (row) {
        if (starts_with(t, "virtual packages :") || starts_with(t, "__")) {
          sink.fact("conda.virtual_package", std::string(trim(t.substr(colon == std::string_view::npos ? 0 : colon + 3))), i);
        }
        sink.claim(i, kFormat_conda_info);
        continue;
      }
      conda_info = false;
    }
    if (startup_vllm_line(t)) {
      sink.claim(i, kFormat_vllm_log);
      continue;
    }
    if (starts_with(t, "Found ") && ends_with(t, " CUDA devices")) {
      sink.claim(i, kFormat_numba_s);
      continue;
    }
    if (startup_numba_device(sink, t, i)) {
      sink.claim(i, kFormat_numba_s);
      continue;
    }
    if (startup_vulkan_device(sink, t, i)) sink.claim(i, kFormat_vulkan_device);
  }
}

}  // namespace gpudoctor
