#include "checks/check_util.hpp"
#include "checks/check_list.hpp"
#include "platform/platform.hpp"

#include "api/pci/gpu_ids.hpp"
#include "knowledge/messages.hpp"

namespace gpudoctor {

const std::vector<CheckSpec>& all_checks() {
  static const std::vector<CheckSpec> checks = make_check_list();
  return checks;
}

const CheckSpec* find_check(std::string_view id) {
  for (const auto& c : all_checks()) {
    if (c.id == id) return &c;
    for (const auto& other : split_words(c.also_emits, ", ")) {
      if (other == id) return &c;
    }
  }
  return nullptr;
}

std::vector<Finding> run_checks(const CheckInput& in) {
  std::vector<Finding> out;
  const std::string_view platform = snapshot_platform(in.snap);
  for (const auto& c : all_checks()) {
    if (platform_listed(c.platforms, platform)) c.run(c, in, out);
  }
  return out;
}

std::vector<const PciDevice*> pci_gpus(const Snapshot& snap, std::uint16_t vendor) {
  std::vector<const PciDevice*> out;
  if (!snap.pci) return out;
  for (const auto& p : snap.pci->devices) {
    if (vendor == 0 || p.vendor_id == vendor) out.push_back(&p);
  }
  return out;
}

std::string without_dir(const std::string& value, const std::string& dir) {
  std::vector<std::string> kept;
  for (auto& d : split_path_list(value)) {
    std::string norm = d;
    while (norm.size() > 1 && norm.back() == '/') norm.pop_back();
    if (norm != dir) kept.push_back(d);
  }
  return join(kept, ":");
}

const Symptom* kernel_log_failure(const Snapshot& snap, std::string_view area) {
  for (const Symptom& s : snap.symptoms) {
    if (!s.values.count("kernel_log")) continue;
    const MessageEntry* e = message_entry(builtin_messages(), s.id);
    if (e == nullptr || !e->finding || e->finding->severity != "fail") continue;
    const std::string& id = e->finding->id;
    if (e->finding->area.value_or(id.substr(0, id.find('.'))) == area) return &s;
  }
  return nullptr;
}

std::size_t nvidia_gpu_count(const Snapshot& s) {
  if (s.nvml && !s.nvml->devices.empty()) return s.nvml->devices.size();
  if (s.macos) {  // a Mac has no PCI list: system_profiler's
    std::size_t n = 0;
    for (const auto& g : s.macos->gpus) {
      n += g.vendor_id == std::optional<std::uint32_t>(kPciVendorNvidia) ||
           g.vendor == std::optional<std::string>("NVIDIA");
    }
    return n;
  }
  return pci_gpus(s, kPciVendorNvidia).size();
}

bool pci_shows_no_gpu_of(const Snapshot& snap, std::uint16_t vendor) {
  return snap.pci && snap.pci->devices_scanned > 0 && pci_gpus(snap, vendor).empty();
}

std::vector<const DeviceNode*> nvidia_nodes_denied(const Snapshot& snap) {
  std::vector<const DeviceNode*> out;
  if (!snap.nvidia) return out;
  bool mig = false;
  if (snap.nvml) {
    for (const auto& g : snap.nvml->devices) mig = mig || g.mig_enabled == std::optional<bool>(true);
  }
  for (const auto& d : snap.nvidia->kernel.device_nodes) {
    if (d.readable != std::optional<bool>(false) && d.writable != std::optional<bool>(false)) {
      continue;
    }
    if (d.mode && !d.mode->empty() && (*d.mode)[0] == 'd') continue;  // a directory
    if (d.path.rfind("/dev/nvidia-caps/", 0) == 0 &&
        (!mig || d.path == "/dev/nvidia-caps/nvidia-cap1" ||
         d.path == "/dev/nvidia-caps/nvidia-cap2")) {
      continue;
    }
    out.push_back(&d);
  }
  return out;
}

bool nvidia_opencl_hidden_like_cuda(const Snapshot& snap, const std::string& library,
                                    const std::string& error) {
  const std::string file = library.substr(library.rfind('/') + 1);
  return file.rfind("libnvidia-opencl", 0) == 0 &&
         error.find("CL_DEVICE_NOT_FOUND") != std::string::npos && snap.cuda &&
         snap.cuda->init_error && snap.cuda->init_error->code == 100;  // CUDA_ERROR_NO_DEVICE
}

std::string pci_label(const PciDevice& p) {
  std::string name = pci_device_name(p).value_or(hex(p.vendor_id, 4) + ":" + hex(p.device_id, 4));
  return p.address + " " + name;
}

}  // namespace gpudoctor
