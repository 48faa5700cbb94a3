// Both Vulkan matmul shaders on a real driver. `check` runs the direct one on lavapipe (a CPU
// device); the tiled one is what GPUs run, and lavapipe is the real driver this machine has to
// prove it on. n = 100 is a multiple of neither tile, so the padding is exercised too.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <variant>
#include <vector>

#include "core/isolate.hpp"
#include "json.hpp"
#include "vulkan/vulkan_enumerate.hpp"
#include "vulkan/vulkan_instance.hpp"
#include "vulkan/vulkan_matmul.hpp"

namespace gpudoctor {
namespace {

using namespace std::chrono_literals;

constexpr const char* kLavapipe = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// Runs the matmul with each shader on lavapipe's one device, in an isolated child.
std::vector<SmokeResult> run_both_shaders(int n) {
  IsolatedJob job;
  job.backend = "vulkan";
  job.label = kLavapipe;
  job.body = [n] {
    vulkan::restrict_loader_to(kLavapipe);
    auto opened = vulkan::open_vulkan_instance("gpudoctor test");
    if (auto* e = std::get_if<vulkan::VulkanInstanceError>(&opened)) {
      return JobReport{e->status, e->detail, Json()};
    }
    const vulkan::VulkanInstance& vk = std::get<vulkan::VulkanInstance>(opened);
    std::uint32_t count = 1;
    VkPhysicalDevice device = VK_NULL_HANDLE;
    vk.api.enumerate_physical_devices(vk.instance, &count, &device);
    std::vector<SmokeResult> results;
    for (const vulkan::MatmulShader* shader : {&vulkan::kTiledMatmul, &vulkan::kDirectMatmul}) {
      vulkan::VulkanMatmul runner(vk.api, vk.instance, device, "lavapipe", shader);
      results.push_back(runner.run({n}));
    }
    return JobReport{ProbeStatus::ok, "", Json(results)};
  };
  auto results = run_isolated({job}, 30s);
  if (results.size() != 1 || results[0].outcome.status != ProbeStatus::ok || !results[0].data) {
    ADD_FAILURE() << (results.empty() ? "no result" : results[0].outcome.detail);
    return {};
  }
  return results[0].data->get<std::vector<SmokeResult>>();
}

TEST(VulkanShadersLive, TiledAndDirectBothComputeTheProductOnLavapipe) {
  if (!std::filesystem::exists(kLavapipe)) {
    GTEST_SKIP() << "lavapipe (mesa-vulkan-drivers) is not installed";
  }
  const std::vector<SmokeResult> results = run_both_shaders(100);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].kernel, vulkan::kTiledMatmul.description);
  EXPECT_EQ(results[1].kernel, vulkan::kDirectMatmul.description);
  for (const SmokeResult& r : results) {
    EXPECT_EQ(r.status, "pass") << r.kernel.value_or("") << ": " << r.reason.value_or("");
    EXPECT_EQ(r.n, 100);
    ASSERT_TRUE(r.max_abs_error && r.tolerance);
    EXPECT_LE(*r.max_abs_error, *r.tolerance);
  }
}

}  // namespace
}  // namespace gpudoctor
