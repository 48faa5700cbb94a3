#pragma once
#include <vector>

#include "core/isolate.hpp"
#include "model/nvml.hpp"
#include "model/probe_outcome.hpp"
#include "probe_context.hpp"

namespace gpudoctor::nvml {

/// One isolated job (none unless ctx.live) that opens libnvidia-ml.so.1 and reports what it sees.
std::vector<IsolatedJob> jobs(const ProbeContext& ctx);

/// The child's report as the section, and the backend's own outcome.
ProbeOutcome assemble(NvmlInfo& info, const std::vector<IsolatedResult>& results, bool live);

}  // namespace gpudoctor::nvml
