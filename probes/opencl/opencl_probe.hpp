#pragma once
#include <vector>

#include "core/isolate.hpp"
#include "model/opencl.hpp"
#include "model/probe_outcome.hpp"
#include "probe_context.hpp"

namespace gpudoctor::opencl {

/// Reads the ICD registrations under the root; loads nothing.
OpenClInfo discover(const ProbeContext& ctx);

/// One isolated job per usable ICD (none unless ctx.live): each child loads the loader
/// restricted to that one ICD and reports what it enumerates.
std::vector<IsolatedJob> jobs(const ProbeContext& ctx, const OpenClInfo& found);

/// Folds the children's reports (in the order of jobs()) into the section and returns the
/// backend's own outcome. A child whose data does not parse has its outcome turned into a
/// failure that names the library.
ProbeOutcome assemble(OpenClInfo& info, std::vector<IsolatedResult>& results, bool live);

}  // namespace gpudoctor::opencl
