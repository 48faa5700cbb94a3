#include "vulkan/vulkan_probe.hpp"
namespace gpudoctor::vulkan {
VulkanInfo discover(const ProbeContext&) { return {}; }
std::vector<IsolatedJob> jobs(const ProbeContext&, const VulkanInfo&) { return {}; }
ProbeOutcome assemble(VulkanInfo&, const std::vector<IsolatedResult>&, bool) {
  return {"vulkan", "vulkan", std::nullopt, ProbeStatus::skipped};
}
}  // namespace gpudoctor::vulkan
