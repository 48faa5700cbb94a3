// `jax.print_environment_info()` (jax/_src/environment_info.py): "jax:    0.4.32", "jaxlib: …",
// "numpy:  …", "python: …", then "jax.devices (N total, M local): [CpuDevice(id=0)]" (older) or
// "device info: NVIDIA GeForce RTX 3090-1, 1 local devices" (newer), "process_count: 1",
// "platform: uname_result(…)", and nvidia-smi's table after "$ nvidia-smi".
#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_jax = "jax.print_environment_info";

/// "cuda(id=0)", "CudaDevice(id=0)", "StreamExecutorGpuDevice(…)", "rocm(id=0)": a GPU device.
bool gpu_device_text(std::string_view v) {
  const std::string l = to_lower(v);
  return l.find("cuda") != std::string::npos || l.find("gpu") != std::string::npos ||
         l.find("rocm") != std::string::npos;
}

}  // namespace

void read_jax_info(PasteSink& sink) {
  const auto& lines = sink.lines();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) continue;
    const Labelled first = split_label(trim(lines[i].text));
    if (first.key != "jax" || first.value.empty()) continue;
    // A block: "jax:" followed by "jaxlib:" within a few lines.
    bool jaxlib_follows = false;
    for (std::size_t k = i + 1; k < lines.size() && k < i + 3; ++k) {
      jaxlib_follows = jaxlib_follows || split_label(trim(lines[k].text)).key == "jaxlib";
    }
    if (!jaxlib_follows) continue;
    for (std::size_t k = i; k < lines.size() && !lines[k].fence; ++k) {
      if (sink.claimed(k)) break;
      const std::string_view t = trim(lines[k].text);
      if (t.empty()) break;
      const Labelled l = split_label(t);
      if (l.key == "jax" || l.key == "jaxlib" || l.key == "numpy") {
        add_listed_package(sink, l.key, leading_version(l.value), "", k);
      } else if (l.key == "python") {
        const std::string py = leading_version(l.value);
        if (!py.empty()) {
          sink.env().python_version = py;
          sink.env().python_version_from = "jax.print_environment_info";
          sink.fact("python", py, k);
        }
      } else if (starts_with(l.key, "jax.devices") || l.key == "device info") {
        sink.fact("jax.devices", l.value, k);
        const bool gpu = gpu_device_text(l.value) ||
                         (l.key == "device info" && !starts_with(to_lower(l.value), "cpu") &&
                          !starts_with(to_lower(l.value), "tpu"));
        // Only a list that says what it holds: "[" cut off by the end of a paste is neither.
        const std::string lv = to_lower(l.value);
        const bool cpu_said = lv.find("cpu") != std::string::npos || l.key == "device info";
        if (gpu) {
          sink.symptom("jax.gpu_devices", "jax", k);
        } else if (cpu_said) {
          sink.symptom("jax.cpu_devices_only", "jax", k);
        }
      } else if (l.key == "platform") {
        const auto rel = l.value.find("release='");
        if (rel != std::string::npos) {
          const auto end = l.value.find('\'', rel + 9);
          sink.host().kernel_release = l.value.substr(rel + 9, end - rel - 9);
          if (to_lower(*sink.host().kernel_release).find("microsoft") != std::string::npos) {
            sink.host().wsl = true;
          }
        }
        if (l.value.find("system='Windows'") != std::string::npos) sink.host().os_id = "windows";
        if (l.value.find("system='Darwin'") != std::string::npos) sink.host().os_id = "macos";
      } else if (l.key != "process_count" && l.key.find('_') == std::string::npos &&
                 t.find('=') == std::string_view::npos) {
        break;
      }
      sink.claim(k, kFormat_jax);
    }
  }
}

}  // namespace gpudoctor
