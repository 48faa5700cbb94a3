#pragma once
#include <string>
#include <vector>

#include "core/host_platform.hpp"
#include "core/isolate.hpp"
#include "platform/library_names.hpp"
#include "model/cuda.hpp"
#include "model/probe_outcome.hpp"
#include "probe_context.hpp"

namespace gpudoctor::cuda {

/// What the isolated child does. The defaults are what a run uses; tests point `libraries` at a
/// fake driver's path.
struct JobOptions {
  /// Tried in order (platform/library_names.cpp): on Linux the driver's versioned SONAME first,
  /// then the unversioned name that only the toolkit's stub and development symlinks provide.
  std::vector<std::string> libraries = library_names(host_platform()).cuda;
  bool smoke = false;
  int smoke_n = 256;
};

/// The job that opens libcuda in a child and reports a CudaInfo.
IsolatedJob make_job(JobOptions options);

/// One isolated job (none unless ctx.live) that opens libcuda.so.1 and reports what it sees;
/// it runs the smoke matmul when ctx.smoke.
std::vector<IsolatedJob> jobs(const ProbeContext& ctx);

/// The child's report as the section, and the backend's own outcome.
ProbeOutcome assemble(CudaInfo& info, const std::vector<IsolatedResult>& results, bool live);

}  // namespace gpudoctor::cuda
