#include "cuda/cuda_probe.hpp"
namespace gpudoctor::cuda {
std::vector<IsolatedJob> jobs(const ProbeContext&) { return {}; }
ProbeOutcome assemble(CudaInfo&, const std::vector<IsolatedResult>&, bool) {
  return {"cuda", "cuda", std::nullopt, ProbeStatus::skipped};
}
}  // namespace gpudoctor::cuda
