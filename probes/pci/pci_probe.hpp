#pragma once
#include "model/pci.hpp"
#include "model/probe_outcome.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

/// Display, 3D and processing-accelerator PCI functions through libpci's sysfs access, pointed
/// at the root. Sets outcome (status, detail) for the backend.
PciInfo probe_pci(const ProbeContext& ctx, ProbeOutcome& outcome);

}  // namespace gpudoctor
