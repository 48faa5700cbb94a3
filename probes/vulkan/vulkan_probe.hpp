#pragma once
#include <vector>

#include "core/isolate.hpp"
#include "model/probe_outcome.hpp"
#include "model/vulkan.hpp"
#include "probe_context.hpp"

namespace gpudoctor::vulkan {

/// Reads the driver manifest registrations under the root; loads nothing.
VulkanInfo discover(const ProbeContext& ctx);

/// One isolated job per usable driver manifest (none unless ctx.live): each child loads the loader
/// restricted to that one driver manifest and reports what it enumerates.
std::vector<IsolatedJob> jobs(const ProbeContext& ctx, const VulkanInfo& found);

/// Folds the children's reports into the section and returns the backend's own outcome. A
/// child's report that does not read as the model turns that child's outcome into a failure.
ProbeOutcome assemble(VulkanInfo& info, std::vector<IsolatedResult>& results, bool live);

}  // namespace gpudoctor::vulkan
