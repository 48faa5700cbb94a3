#include "checks/check_util.hpp"
#include "checks/check_list.hpp"
#include "platform/platform.hpp"

#include "api/pci/gpu_ids.hpp"

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

bool pci_shows_no_gpu_of(const Snapshot& snap, std::uint16_t vendor) {
  return snap.pci && snap.pci->devices_scanned > 0 && pci_gpus(snap, vendor).empty();
}

std::string pci_label(const PciDevice& p) {
  std::string name = pci_device_name(p).value_or(hex(p.vendor_id, 4) + ":" + hex(p.device_id, 4));
  return p.address + " " + name;
}

}  // namespace gpudoctor
