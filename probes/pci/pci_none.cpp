// Systems without libpci and sysfs (macOS): no PCI list. On a Mac the macos probe's
// system_profiler list takes its place.
#include "pci/pci_probe.hpp"

namespace gpudoctor {

PciInfo probe_pci(const ProbeContext&, ProbeOutcome& outcome) {
  outcome.status = ProbeStatus::skipped;
  outcome.detail = "no libpci on this system";
  return PciInfo{};
}

}  // namespace gpudoctor
