#include "opencl/opencl_probe.hpp"
namespace gpudoctor::opencl {
OpenClInfo discover(const ProbeContext&) { return {}; }
std::vector<IsolatedJob> jobs(const ProbeContext&, const OpenClInfo&) { return {}; }
ProbeOutcome assemble(OpenClInfo&, const std::vector<IsolatedResult>&, bool) {
  return {"opencl", "opencl", std::nullopt, ProbeStatus::skipped};
}
}  // namespace gpudoctor::opencl
