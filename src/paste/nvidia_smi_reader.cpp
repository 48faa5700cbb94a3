// nvidia-smi as people paste it: the table (the 79-column layout up to driver 5xx and the
// 89-column one since; Linux "Persistence-M", Windows "TCC/WDDM" and "Driver-Model"; MIG
// devices; processes), `nvidia-smi -L`, and the one-line failures it prints instead.
#include <algorithm>
#include <cctype>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_nvidia_smi = "nvidia-smi";


/// "NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2".
bool header(PasteSink& sink, std::string_view t, std::size_t i) {
  if (t.find("NVIDIA-SMI ") == std::string_view::npos ||
      t.find("Driver Version") == std::string_view::npos) {
    return false;
  }
  NvmlInfo& n = sink.nvml();
  const auto dv = t.find("Driver Version:");
  if (dv != std::string_view::npos) {
    const std::string v = leading_version(t.substr(dv + 15));
    if (!v.empty()) {
      n.driver_version = v;
      sink.fact("nvidia.driver", v, i);
    }
  }
  const auto cv = t.find("CUDA Version:");
  if (cv != std::string_view::npos) {
    // The newest CUDA this driver supports, not an installed toolkit.
    const std::string v = leading_version(t.substr(cv + 13));
    if (auto packed = packed_cuda_version(v)) {
      n.cuda_driver_version = packed;
      sink.fact("nvidia.cuda_max", v, i);
    }
  }
  return true;
}

/// "   0  NVIDIA GeForce RTX 3090        Off" / "0  Tesla T4  TCC" → index, name, mode.
struct FirstCell {
  int index = 0;
  std::string name;
  std::string mode;
};
std::optional<FirstCell> first_cell(const std::string& c) {
  auto words = split_words(c);
  if (words.size() < 3) return std::nullopt;
  auto idx = parse_int(words[0]);
  if (!idx || *idx < 0 || *idx > 1024) return std::nullopt;
  FirstCell f;
  f.index = static_cast<int>(*idx);
  f.mode = words.back();
  if (f.mode != "On" && f.mode != "Off" && f.mode != "TCC" && f.mode != "WDDM" && f.mode != "N/A") {
    return std::nullopt;
  }
  std::vector<std::string> name(words.begin() + 1, words.end() - 1);
  f.name = join(name, " ");
  return f;
}

std::optional<std::uint64_t> mib(std::string_view s) {
  s = trim(s);
  if (!ends_with(s, "MiB")) return std::nullopt;
  auto v = parse_uint(trim(s.substr(0, s.size() - 3)));
  return v ? std::optional<std::uint64_t>(*v * 1024 * 1024) : std::nullopt;
}

/// One-line failures nvidia-smi prints instead of the table.
bool failure(PasteSink& sink, std::string_view t, std::size_t i) {
  if (starts_with(t, "Failed to initialize NVML: Driver/library version mismatch")) {
    NvmlInfo& n = sink.nvml();
    n.init_code = 18;
    n.init_error = "nvmlInit_v2 returned 18 (NVML_ERROR_LIB_RM_VERSION_MISMATCH)";
    n.init_error_text = "Driver/library version mismatch";
    sink.nvidia();  // the check reads the NVIDIA section
    sink.symptom("nvml.driver_library_mismatch", "nvidia-smi", i);
    return true;
  }
  if (starts_with(t, "NVML library version:")) {
    sink.fact("nvml.library_version", std::string(trim(t.substr(21))), i);
    return true;
  }
  if (starts_with(t, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver")) {
    sink.symptom("nvidia_smi.no_driver", "nvidia-smi", i);
    return true;
  }
  if (starts_with(t, "Failed to initialize NVML: Unknown Error")) {
    sink.symptom("nvml.unknown_error", "nvidia-smi", i);
    return true;
  }
  if (t == "No devices were found") {
    sink.symptom("nvidia_smi.no_devices", "nvidia-smi", i);
    return true;
  }
  if (t.find("nvidia-smi: command not found") != std::string_view::npos ||
      t.find("'nvidia-smi' is not recognized") != std::string_view::npos) {
    sink.symptom("nvidia_smi.not_installed", "shell", i);
    return true;
  }
  if (t.find("GPU is lost") != std::string_view::npos) {
    sink.symptom("nvidia_smi.gpu_lost", "nvidia-smi", i);
    return true;
  }
  // Any other "Unable to determine the device handle for …: <reason>" is
  // data/messages' nvidia_smi.device_handle, which says the reason as printed.
  return false;
}

/// `nvidia-smi -L`: "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-…)", "  MIG 1g.10gb Device 0: (…)".
bool list_line(PasteSink& sink, std::string_view t, std::size_t i) {
  if (!starts_with(t, "GPU ") || t.find(" (UUID: ") == std::string_view::npos) {
    return starts_with(t, "MIG ") && t.find("(UUID: MIG-") != std::string_view::npos;
  }
  const auto colon = t.find(':');
  auto idx = parse_int(trim(t.substr(4, colon - 4)));
  if (!idx || *idx < 0) return false;
  const auto uuid_at = t.find(" (UUID: ");
  const std::string name(trim(t.substr(colon + 1, uuid_at - colon - 1)));
  add_named_gpu(sink, static_cast<int>(*idx), name, i);
  NvmlDevice& d = sink.nvidia_gpu(static_cast<int>(*idx));
  const auto close = t.find(')', uuid_at);
  if (close != std::string_view::npos) d.uuid = std::string(t.substr(uuid_at + 8, close - uuid_at - 8));
  return true;
}

}  // namespace

std::vector<std::string> smi_table_cells(std::string_view t) {
  std::vector<std::string> out;
  if (t.size() < 2 || t.front() != '|') return out;
  std::string_view body = t.substr(1);
  if (!body.empty() && body.back() == '|') body.remove_suffix(1);
  std::size_t start = 0;
  for (;;) {
    const auto bar = body.find('|', start);
    out.emplace_back(trim(body.substr(start, bar == std::string_view::npos ? body.npos : bar - start)));
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
  return out;
}

bool smi_table_rule(std::string_view t) {
  return t.size() > 10 && (t.front() == '+' || t.front() == '|') &&
         t.find_first_not_of("+-=|") == std::string_view::npos;
}

void read_nvidia_smi(PasteSink& sink) {
  const auto& lines = sink.lines();
  bool in_table = false;
  std::optional<int> gpu;   // the GPU whose rows are being read
  int row = 0;              // which row of that GPU's block
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) continue;
    const std::string_view t = trim(lines[i].text);
    if (failure(sink, t, i) || list_line(sink, t, i)) {
      sink.claim(i, kFormat_nvidia_smi);
      continue;
    }
    if (header(sink, t, i)) {
      in_table = true;
      sink.claim(i, kFormat_nvidia_smi);
      // The date line nvidia-smi prints above its table.
      if (i > 0 && !sink.claimed(i - 1)) {
        const std::string_view above = trim(lines[i - 1].text);
        if (smi_table_rule(above)) sink.claim(i - 1, kFormat_nvidia_smi);
        if (i > 1 && smi_table_rule(above) && split_words(trim(lines[i - 2].text)).size() == 5) {
          sink.claim(i - 2, kFormat_nvidia_smi);
        }
      }
      continue;
    }
    if (!in_table) continue;
    if (t.empty() || lines[i].fence) {
      in_table = t.empty() && i + 1 < lines.size() && !trim(lines[i + 1].text).empty() &&
                 (lines[i + 1].text.front() == '+' || lines[i + 1].text.front() == '|');
      if (in_table) sink.claim(i, kFormat_nvidia_smi);
      gpu.reset();
      continue;
    }
    if (t.front() != '|' && t.front() != '+') {
      in_table = false;
      continue;
    }
    sink.claim(i, kFormat_nvidia_smi);
    if (smi_table_rule(t)) {
      gpu.reset();
      continue;
    }
    const auto c = smi_table_cells(t);
    if (c.size() < 3) continue;
    if (auto f = first_cell(c[0])) {
      if (c[1].find(':') == std::string::npos) continue;  // a processes row
      gpu = f->index;
      row = 0;
      NvmlDevice& d = sink.nvidia_gpu(f->index);
      if (!f->name.empty() && (!d.name || d.name->find("...") != std::string::npos ||
                               d.name->size() < f->name.size())) {
        if (f->name.find("...") == std::string::npos || !d.name) d.name = f->name;
      }
      sink.fact("gpu.name", f->name, i);
      const auto busy = split_words(c[1]);
      if (!busy.empty()) d.pci_bus_id = busy[0];
      if (f->mode == "On" || f->mode == "Off") d.persistence_mode = f->mode == "On";
      if (f->mode == "TCC" || f->mode == "WDDM") {
        sink.fact("nvidia.driver_model", f->mode, i);
        if (!sink.host().os_id) sink.host().os_id = "windows";
      }
      continue;
    }
    if (!gpu) continue;
    ++row;
    NvmlDevice& d = sink.nvidia_gpu(*gpu);
    if (row == 1) {
      const auto slash = c[1].find('/');
      if (slash != std::string::npos) {
        d.memory_used_bytes = mib(c[1].substr(0, slash));
        d.memory_total_bytes = mib(c[1].substr(slash + 1));
      }
      const auto words = split_words(c[2]);
      if (!words.empty()) {
        const std::string& mode = words.back();
        if (mode == "Default") d.compute_mode = "default";
        if (mode == "E.Process") d.compute_mode = "exclusive_process";
        if (mode == "Prohibited") d.compute_mode = "prohibited";
      }
    } else if (row == 2) {
      const std::string mig(trim(c[2]));
      if (mig == "Enabled" || mig == "Disabled") d.mig_enabled = mig == "Enabled";
    }
  }
}

}  // namespace gpudoctor
