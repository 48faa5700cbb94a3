// The installed driver's own GPU table (supported-gpus.json): its names for this machine's
// NVIDIA GPUs and which kernel module each needs. Files only; nothing is loaded.
#include <algorithm>

#include "nvidia/nvidia_readers.hpp"
#include "parse/nvidia_supported_gpus.hpp"
#include "model/pci.hpp"
#include "parse/pci_sysfs.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFile = "supported-gpus.json";

// Where packages install it, first match wins. The driver's documentation directory
// (Ubuntu's nvidia-driver-<branch> package, NVIDIA's CUDA-repository nvidia-driver RPM, Arch's
// nvidia-utils), then the copies other packages keep (the .run package's supported-gpus/ folder
// copied to /usr/share/nvidia, NVIDIA's nvidia-driver-assistant). Paths as the packaging
// scripts read in public repositories install or read them (data/pci/README.md).
constexpr const char* kFixedPaths[] = {
    "/usr/share/doc/nvidia-driver/supported-gpus.json",
    "/usr/share/doc/nvidia-utils/supported-gpus.json",
    "/usr/share/nvidia/supported-gpus/supported-gpus.json",
    "/usr/share/nvidia/supported-gpus.json",
    "/usr/share/nvidia-driver-assistant/supported-gpus/supported-gpus.json",
};

/// /usr/share/doc/nvidia-driver-<branch>/supported-gpus.json: the loaded module's branch where
/// that directory exists, else the highest branch installed.
std::optional<std::string> branch_doc_file(const Root& paths,
                                           const std::optional<std::string>& module_version) {
  const std::string doc = "/usr/share/doc";
  std::vector<std::string> dirs;
  for (const auto& name : paths.list(doc)) {
    if (starts_with(name, "nvidia-driver-") && paths.exists(join_path(doc, name) + "/" + kFile)) {
      dirs.push_back(name);
    }
  }
  if (dirs.empty()) return std::nullopt;
  if (module_version) {
    const std::string want = "nvidia-driver-" + module_version->substr(0, module_version->find('.'));
    if (std::find(dirs.begin(), dirs.end(), want) != dirs.end()) return doc + "/" + want + "/" + kFile;
  }
  auto branch = [](const std::string& d) { return parse_uint(d.substr(14)).value_or(0); };
  auto best = std::max_element(dirs.begin(), dirs.end(), [&](const auto& a, const auto& b) {
    return branch(a) < branch(b);
  });
  return doc + "/" + *best + "/" + kFile;
}

std::optional<std::uint16_t> hex16(const Root& paths, const std::string& path) {
  auto line = paths.read_line(path);
  auto v = line ? parse_hex_attribute(*line) : std::nullopt;
  if (!v || *v > 0xffff) return std::nullopt;
  return static_cast<std::uint16_t>(*v);
}

}  // namespace

std::optional<DriverGpuTable> probe_driver_gpu_table(
    const Root& paths, const std::optional<std::string>& module_version) {
  std::optional<std::string> file = branch_doc_file(paths, module_version);
  for (const char* p : kFixedPaths) {
    if (file) break;
    if (paths.exists(p)) file = p;
  }
  if (!file) return std::nullopt;
  DriverGpuTable table;
  table.file = *file;
  auto text = paths.read(*file, 16u << 20);
  if (!text) {
    table.error = "could not be read";
    return table;
  }
  SupportedGpus parsed = parse_supported_gpus(*text);
  table.error = parsed.error;
  table.rows = parsed.rows.size();
  const std::string base = "/sys/bus/pci/devices";
  for (const auto& address : paths.list(base)) {
    const std::string dir = join_path(base, address);
    if (hex16(paths, dir + "/vendor") != std::optional<std::uint16_t>(kPciVendorNvidia)) continue;
    auto cls = paths.read_line(dir + "/class");
    auto class_code = cls ? parse_hex_attribute(*cls) : std::nullopt;
    if (!class_code || ((*class_code >> 16) != 0x03 && (*class_code >> 16) != 0x12)) continue;
    auto device = hex16(paths, dir + "/device");
    if (!device) continue;
    const DriverGpuEntry* row = supported_gpu_row(parsed.rows, *device,
                                                  hex16(paths, dir + "/subsystem_vendor"),
                                                  hex16(paths, dir + "/subsystem_device"));
    if (row == nullptr) continue;
    const bool seen = std::any_of(table.gpus.begin(), table.gpus.end(), [&](const auto& g) {
      return g.device_id == row->device_id && g.subsystem_device_id == row->subsystem_device_id &&
             g.subsystem_vendor_id == row->subsystem_vendor_id;
    });
    if (!seen) table.gpus.push_back(*row);
  }
  return table;
}

}  // namespace gpudoctor
