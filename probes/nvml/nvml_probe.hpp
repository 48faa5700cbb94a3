#pragma once
#include <string>
#include <vector>

#include "core/host_platform.hpp"
#include "core/isolate.hpp"
#include "platform/library_names.hpp"
#include "model/nvml.hpp"
#include "model/probe_outcome.hpp"
#include "probe_context.hpp"

namespace gpudoctor::nvml {

/// What the isolated child does; tests point `libraries` at a fake NVML's path.
struct JobOptions {
  /// The driver's versioned SONAME first; the unversioned name is what a toolkit stub provides.
  /// None on macOS, where NVIDIA never shipped NVML.
  std::vector<std::string> libraries = library_names(host_platform()).nvml;
};

/// The job that opens libnvidia-ml in a child and reports an NvmlInfo.
IsolatedJob make_job(JobOptions options);

/// One isolated job (none unless ctx.live) that opens libnvidia-ml.so.1 and reports what it sees.
std::vector<IsolatedJob> jobs(const ProbeContext& ctx);

/// The child's report as the section, and the backend's own outcome.
ProbeOutcome assemble(NvmlInfo& info, const std::vector<IsolatedResult>& results, bool live);

}  // namespace gpudoctor::nvml
