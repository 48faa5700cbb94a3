// ComfyUI's start-up log and the "## System Information" block of its error report, whole or a
// piece, with or without the log prefixes it and its launchers add ("2024-10-19 01:10:47,703 -
// root - INFO - ", "[2024-11-06 23:40:42.576] ", "2025-11-27T00:45:33.992656 - "). The lines it
// prints: https://github.com/comfyanonymous/ComfyUI/blob/master/comfy/model_management.py ("Total
// VRAM", "pytorch version", "Set vram state to", "Device: …") and its ComfyUI-Manager's "**"
// lines. Read before the TensorFlow template reader, whose "- **OS:**" fields look the same.
#include <regex>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_comfyui = "ComfyUI start-up / system information";

std::string_view comfy_unprefixed(std::string_view t) {
  static const std::regex prefix(
      R"(^(?:\[\d{4}-\d\d-\d\d[ T][\d:.,]+\]\s*|\d{4}-\d\d-\d\d[ T][\d:.,]+ - (?:\S+ - [A-Z]+ - )?))");
  std::match_results<std::string_view::const_iterator> m;
  if (std::regex_search(t.begin(), t.end(), m, prefix)) t.remove_prefix(static_cast<std::size_t>(m.length(0)));
  return trim(t);
}

/// Lines only ComfyUI prints: one of them makes the paste's other ComfyUI lines its.
bool comfy_own(std::string_view t) {
  return (starts_with(t, "Total VRAM ") && t.find(", total RAM ") != std::string_view::npos) ||
         starts_with(t, "Set vram state to: ") || starts_with(t, "** ComfyUI startup time:") ||
         starts_with(t, "ComfyUI version: ") || starts_with(t, "- **ComfyUI Version:**") ||
         starts_with(t, "## ComfyUI-Manager");
}

bool comfy_line(std::string_view t) {
  static const std::string_view starts[] = {
      "pytorch version: ", "xformers version: ", "Device: cuda:", "Device: cpu", "Using pytorch ",
      "Using xformers ", "Using sub quadratic", "Using split optimization", "** Platform:",
      "** Python version:", "** Python executable:", "** ComfyUI Path:", "** ComfyUI Base Folder",
      "** User directory:", "** ComfyUI-Manager config path:", "** Log path:",
      "Prestartup times for custom nodes:", "Import times for custom nodes:",
      "ComfyUI frontend version:", "[START] Security scan", "[DONE] Security scan",
      "Checkpoint files will always be loaded safely.", "Python version: ", "## System Information",
      "- **Arguments:**", "- **OS:**", "- **Python Version:**", "- **Embedded Python:**",
      "- **PyTorch Version:**", "## Devices", "- **Name:** ", "- **Type:** ", "- **VRAM Total:**",
      "- **VRAM Free:**", "- **Torch VRAM Total:**", "- **Torch VRAM Free:**", "[Prompt Server]",
      "Enabled pinned memory", "Adding extra search path ",
  };
  if (comfy_own(t)) return true;
  for (auto s : starts) {
    if (starts_with(t, s)) return true;
  }
  // "   0.0 seconds: K:\ComfyUI\ComfyUI\custom_nodes\rgthree-comfy"
  return t.find(" seconds: ") != std::string_view::npos && t.find("custom_nodes") != std::string_view::npos;
}

void read_comfy_line(PasteSink& sink, std::string_view t, std::size_t i) {
  if (starts_with(t, "pytorch version: ") || starts_with(t, "- **PyTorch Version:** ")) {
    const std::string_view v = trim(t.substr(t.find(':') + (t[0] == '-' ? 4 : 1)));
    PythonPackage& p = sink.package("torch");
    if (!p.version) {
      set_torch_version(sink, v, i);
      if (p.torch && p.torch->local_version) apply_local_version(*p.torch);
      if (p.torch && !p.torch->local_version) p.torch.reset();  // the build is not said
    } else {
      sink.fact("torch.version", std::string(v), i);
    }
  } else if (starts_with(t, "Device: cuda:") || starts_with(t, "- **Name:** cuda:")) {
    add_torch_device_gpu(sink, t.substr(t.find("cuda:") + 5), i);
  } else if (starts_with(t, "** Platform: Windows") || t == "- **OS:** nt") {
    if (!sink.host().os_id) sink.host().os_id = "windows";
    sink.fact("os", "Windows", i);
  } else if (starts_with(t, "Total VRAM ")) {
    sink.fact("comfyui.total_vram", std::string(t.substr(11, t.find(',') - 11)), i);
  }
}

}  // namespace

void read_comfyui(PasteSink& sink) {
  const auto& lines = sink.lines();
  bool own = false;
  for (std::size_t i = 0; i < lines.size() && !own; ++i) {
    own = !lines[i].fence && comfy_own(comfy_unprefixed(trim(lines[i].text)));
  }
  if (!own) return;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i) || lines[i].fence) continue;
    const std::string_view t = comfy_unprefixed(trim(lines[i].text));
    if (t.empty() || !comfy_line(t)) continue;
    sink.claim(i, kFormat_comfyui);
    read_comfy_line(sink, t, i);
  }
}

}  // namespace gpudoctor
