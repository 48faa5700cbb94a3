#include "nvml/nvml_probe.hpp"
namespace gpudoctor::nvml {
std::vector<IsolatedJob> jobs(const ProbeContext&) { return {}; }
ProbeOutcome assemble(NvmlInfo&, const std::vector<IsolatedResult>&, bool) {
  return {"nvml", "nvml", std::nullopt, ProbeStatus::skipped};
}
}  // namespace gpudoctor::nvml
