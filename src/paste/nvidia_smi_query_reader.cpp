// `nvidia-smi -q`: "==============NVSMI LOG==============", then "Key : Value" lines indented
// under their section ("FB Memory Usage", "MIG Mode", "PCI"), one "GPU 00000000:01:00.0" block per
// GPU.
#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_nvidia_smi_query = "nvidia-smi -q";

std::optional<std::uint64_t> mib_value(const std::string& v) {
  auto words = split_words(v);
  if (words.size() != 2 || words[1] != "MiB") return std::nullopt;
  auto n = parse_uint(words[0]);
  return n ? std::optional<std::uint64_t>(*n * 1024 * 1024) : std::nullopt;
}

}  // namespace

void read_nvidia_smi_query(PasteSink& sink) {
  const auto& lines = sink.lines();
  bool in_log = false;
  int gpu = -1;
  std::string section;  // the unindented-value heading the current lines sit under
  std::size_t section_indent = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) continue;
    const std::string_view raw = lines[i].text;
    const std::string_view t = trim(raw);
    if (t.find("NVSMI LOG") != std::string_view::npos) {
      in_log = true;
      gpu = -1;
      sink.claim(i, kFormat_nvidia_smi_query);
      continue;
    }
    if (!in_log) continue;
    if (lines[i].fence) {
      in_log = false;
      continue;
    }
    if (t.empty()) {
      sink.claim(i, kFormat_nvidia_smi_query);
      continue;
    }
    if (starts_with(t, "GPU ") && t.find(':') != std::string_view::npos &&
        t.find(" : ") == std::string_view::npos) {
      ++gpu;
      NvmlDevice& d = sink.nvidia_gpu(gpu);
      d.pci_bus_id = std::string(trim(t.substr(4)));
      sink.claim(i, kFormat_nvidia_smi_query);
      section.clear();
      continue;
    }
    const auto sep = t.find(" : ");
    const std::size_t indent = indent_of(raw);
    if (sep == std::string_view::npos) {
      if (t.find(':') != std::string_view::npos && t.back() != ':') {
        in_log = false;  // prose after the log
        continue;
      }
      section = std::string(t);
      section_indent = indent;
      sink.claim(i, kFormat_nvidia_smi_query);
      continue;
    }
    sink.claim(i, kFormat_nvidia_smi_query);
    if (indent <= section_indent) section.clear();
    const std::string key(trim(t.substr(0, sep)));
    const std::string value(trim(t.substr(sep + 3)));
    if (gpu < 0) {
      NvmlInfo& n = sink.nvml();
      if (key == "Driver Version" && !no_value(value)) {
        n.driver_version = value;
        sink.fact("nvidia.driver", value, i);
      } else if (key == "CUDA Version" && !no_value(value)) {
        n.cuda_driver_version = packed_cuda_version(value);
        sink.fact("nvidia.cuda_max", leading_version(value), i);
      }
      continue;
    }
    NvmlDevice& d = sink.nvidia_gpu(gpu);
    if (key == "Product Name") {
      d.name = value;
      sink.fact("gpu.name", value, i);
    } else if (key == "Product Architecture") {
      d.architecture = to_lower(value);
    } else if (key == "GPU UUID") {
      d.uuid = value;
    } else if (key == "Serial Number" && !no_value(value)) {
      d.serial = value;
    } else if (key == "VBIOS Version") {
      d.vbios_version = value;
    } else if (key == "Persistence Mode") {
      d.persistence_mode = value == "Enabled";
    } else if (key == "Compute Mode") {
      d.compute_mode = value == "Default"             ? "default"
                       : value == "Exclusive_Process" ? "exclusive_process"
                       : value == "Prohibited"        ? "prohibited"
                                                      : value;
    } else if (section == "MIG Mode" && key == "Current" && !no_value(value)) {
      d.mig_enabled = value == "Enabled";
    } else if (section == "MIG Mode" && key == "Pending" && !no_value(value)) {
      d.mig_pending = value == "Enabled";
    } else if (section == "FB Memory Usage" && key == "Total") {
      d.memory_total_bytes = mib_value(value);
    } else if (section == "FB Memory Usage" && key == "Used") {
      d.memory_used_bytes = mib_value(value);
    } else if (key == "Bus Id") {
      d.pci_bus_id = value;
    } else if (key == "Device Id" && starts_with(value, "0x")) {
      if (auto id = parse_uint(value)) d.pci_device_id = static_cast<std::uint32_t>(*id);
    }
  }
}

}  // namespace gpudoctor
