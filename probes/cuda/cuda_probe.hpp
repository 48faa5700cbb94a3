#pragma once
#include <vector>

#include "core/isolate.hpp"
#include "model/cuda.hpp"
#include "model/probe_outcome.hpp"
#include "probe_context.hpp"

namespace gpudoctor::cuda {

/// One isolated job (none unless ctx.live) that opens libcuda.so.1 and reports what it sees.
std::vector<IsolatedJob> jobs(const ProbeContext& ctx);

/// The child's report as the section, and the backend's own outcome.
ProbeOutcome assemble(CudaInfo& info, const std::vector<IsolatedResult>& results, bool live);

}  // namespace gpudoctor::cuda
