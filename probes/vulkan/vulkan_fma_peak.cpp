#include "vulkan/vulkan_fma_peak.hpp"

#include <algorithm>
#include <cmath>

#include "smoke/timed_runs.hpp"
#include "vulkan/matmul_spirv.hpp"
#include "vulkan/vulkan_pipeline.hpp"
#include "vulkan/vulkan_queue.hpp"

namespace gpudoctor::vulkan {

namespace {

constexpr std::int32_t kFirstRounds = 16;
constexpr std::int32_t kMaxRounds = 1 << 22;

}  // namespace

std::variant<double, std::string> vulkan_fma_peak(const VulkanApi& api, VkInstance instance,
                                                  VkPhysicalDevice device) {
  VulkanQueue q(api, instance, device);
  if (const auto& p = q.problem()) return p->why;
  ComputePipeline pipeline(q);
  if (auto e = pipeline.make(fma_peak_spirv(), {Binding::storage_buffer}, sizeof(std::int32_t))) {
    return *e;
  }
  const VkDeviceSize bytes = VkDeviceSize{kPeakGroups} * kPeakGroupSize * 4 * sizeof(float);
  VulkanBuffer sink(q);
  if (auto e = sink.make(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, kHostMemory)) return *e;
  DescriptorSet set(q);
  if (auto e = set.make(pipeline, {&sink}, bytes)) return *e;

  std::int32_t rounds = kFirstRounds;
  auto record = [&] {
    return q.record(
        [&](VkCommandBuffer c) { pipeline.dispatch(c, set.set(), &rounds, kPeakGroups, 1); });
  };
  // Calibrate: more rounds until one dispatch is long enough that launch costs are noise.
  smoke::MatmulRequest once;
  once.repeats = 1;
  for (;;) {
    if (auto e = record()) return *e;
    const smoke::TimedRuns t = smoke::time_runs(once, [&] { return q.submit_and_wait(); });
    if (t.error) return *t.error;
    const double ms = t.ms.empty() ? 0 : t.ms.front();
    if (ms >= kPeakDispatchMs || rounds >= kMaxRounds) break;
    const double grow = ms > 0 ? std::ceil(kPeakDispatchMs * 1.2 / ms) : 16;
    rounds = static_cast<std::int32_t>(
        std::min<double>(kMaxRounds, rounds * std::clamp(grow, 2.0, 16.0)));
  }
  smoke::MatmulRequest timed_req;
  timed_req.repeats = kPeakRuns;
  const smoke::TimedRuns t = smoke::time_runs(timed_req, [&] { return q.submit_and_wait(); });
  if (t.error) return *t.error;
  const auto best = smoke::best_ms(t.ms);
  if (!best || !(*best > 0)) return std::string("the FMA peak dispatch took no measurable time");
  const double flop = double(kPeakGroups) * kPeakGroupSize * rounds * kPeakFlopPerRound;
  return flop / (*best * 1e-3) / 1e9;
}

}  // namespace gpudoctor::vulkan
