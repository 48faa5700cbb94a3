#pragma once
#include <string>
#include <vector>

#include "core/host_platform.hpp"
#include "core/isolate.hpp"
#include "platform/library_names.hpp"
#include "model/probe_outcome.hpp"
#include "model/rocm.hpp"
#include "probe_context.hpp"

namespace gpudoctor::hip {

/// What the isolated child does; tests point `libraries` at a fake libamdhip64.
struct JobOptions {
  /// Tried in order: the development name a ROCm install puts on the loader's path, then the
  /// versioned names of ROCm 7, 6 and 5, then the default install directory. None on macOS.
  std::vector<std::string> libraries = library_names(host_platform()).hip;
};

/// The job that opens libamdhip64 in a child and reports a HipInfo.
IsolatedJob make_job(JobOptions options);

/// One isolated job (none unless ctx.live); ROCM_PATH/lib is tried first when set.
std::vector<IsolatedJob> jobs(const ProbeContext& ctx);

/// The child's report as the section's `hip`, and the outcome of the HIP part of the backend.
ProbeOutcome assemble(RocmInfo& info, const std::vector<IsolatedResult>& results, bool live);

}  // namespace gpudoctor::hip
