#pragma once
// Intel's chain (docs/intel.md): the kernel driver a platform needs and since which kernel, the
// render node's group, the compute runtime a framework loads, and Intel Extension for PyTorch.
#include <vector>

#include "checks/checks.hpp"

namespace gpudoctor {

void check_intel_kernel_driver(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_intel_render_access(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_intel_compute_runtime(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_intel_frameworks(const CheckSpec&, const CheckInput&, std::vector<Finding>&);

/// Whether intel.kernel_driver reports this GPU's missing driver (a kernel too old for its
/// platform), so gpu.no_driver does not say it a second time.
bool intel_kernel_explains(const Snapshot& s, const PciDevice& p);

}  // namespace gpudoctor
