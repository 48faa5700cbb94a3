#pragma once
#include <vector>

#include "core/isolate.hpp"
#include "metal/metal_enumerate.hpp"
#include "metal/metal_objc.hpp"
#include "model/metal.hpp"
#include "model/probe_outcome.hpp"
#include "probe_context.hpp"

namespace gpudoctor::metal {

/// What the isolated child does; tests point the libraries at a fake runtime.
struct JobOptions {
  MetalLibraries libraries = metal_libraries(host_platform());
  EnumerateOptions enumerate;
};

/// The job that opens the Objective-C runtime and Metal in a child and reports a MetalInfo.
IsolatedJob make_job(JobOptions options);

/// One isolated job on a Mac (none elsewhere, none unless ctx.live); it runs the smoke matmul
/// on every device when ctx.smoke.
std::vector<IsolatedJob> jobs(const ProbeContext& ctx);

/// The child's report as the section, and the backend's own outcome. A child that died during
/// a smoke matmul leaves that device failed with how it died, and the devices after it
/// untested.
ProbeOutcome assemble(MetalInfo& info, const std::vector<IsolatedResult>& results, bool live);

}  // namespace gpudoctor::metal
