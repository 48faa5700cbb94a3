// Every Vulkan matmul shader on a real driver. `check` and `bench` run the texel-buffer one on
// lavapipe (a CPU device), the storage-buffer one where a CPU device's texel buffers are too
// small; the tiled one is what GPUs run, and lavapipe is the real driver this machine has to
// prove it on. n = 100 is a multiple of no tile, so the padding is exercised too. And the FMA
// peak shader the bench measures the matmul against gives a rate.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iterator>
#include <optional>
#include <variant>
#include <vector>

#include "core/isolate.hpp"
#include "json.hpp"
#include "vulkan/vulkan_enumerate.hpp"
#include "vulkan/vulkan_fma_peak.hpp"
#include "vulkan/vulkan_instance.hpp"
#include "vulkan/vulkan_matmul.hpp"

namespace gpudoctor {
namespace {

using namespace std::chrono_literals;

constexpr const char* kLavapipe = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// Runs `body` against lavapipe's one device in an isolated child; its JSON, or null.
template <typename Body>
std::optional<Json> on_lavapipe(Body body) {
  IsolatedJob job;
  job.backend = "vulkan";
  job.label = kLavapipe;
  job.body = [body] {
    vulkan::restrict_loader_to(kLavapipe);
    auto opened = vulkan::open_vulkan_instance("gpudoctor test");
    if (auto* e = std::get_if<vulkan::VulkanInstanceError>(&opened)) {
      return JobReport{e->status, e->detail, Json()};
    }
    const vulkan::VulkanInstance& vk = std::get<vulkan::VulkanInstance>(opened);
    std::uint32_t count = 1;
    VkPhysicalDevice device = VK_NULL_HANDLE;
    vk.api.enumerate_physical_devices(vk.instance, &count, &device);
    return JobReport{ProbeStatus::ok, "", body(vk, device)};
  };
  auto results = run_isolated({job}, 60s);
  if (results.size() != 1 || results[0].outcome.status != ProbeStatus::ok || !results[0].data) {
    ADD_FAILURE() << (results.empty() ? "no result" : results[0].outcome.detail);
    return std::nullopt;
  }
  return results[0].data;
}

const vulkan::MatmulShader* const kEveryShader[] = {&vulkan::kTiledMatmul, &vulkan::kTexelMatmul,
                                                     &vulkan::kDirectMatmul};

/// Runs the matmul at size n with each shader (null: the one the runner picks).
std::vector<SmokeResult> run_shaders(int n, std::vector<const vulkan::MatmulShader*> shaders) {
  auto data = on_lavapipe([n, shaders](const vulkan::VulkanInstance& vk, VkPhysicalDevice device) {
    std::vector<SmokeResult> results;
    for (const vulkan::MatmulShader* shader : shaders) {
      vulkan::VulkanMatmul runner(vk.api, vk.instance, device, "lavapipe", shader);
      results.push_back(runner.run({n}));
    }
    return Json(results);
  });
  return data ? data->get<std::vector<SmokeResult>>() : std::vector<SmokeResult>{};
}

TEST(VulkanShadersLive, EveryShaderComputesTheProductOnLavapipe) {
  if (!std::filesystem::exists(kLavapipe)) {
    GTEST_SKIP() << "lavapipe (mesa-vulkan-drivers) is not installed";
  }
  for (int n : {100, 256}) {
    const std::vector<SmokeResult> results =
        run_shaders(n, {std::begin(kEveryShader), std::end(kEveryShader)});
    ASSERT_EQ(results.size(), 3u);
    for (std::size_t i = 0; i < results.size(); ++i) {
      const SmokeResult& r = results[i];
      EXPECT_EQ(r.kernel, kEveryShader[i]->description);
      EXPECT_EQ(r.status, "pass") << r.kernel.value_or("") << ": " << r.reason.value_or("");
      EXPECT_EQ(r.n, n);
      ASSERT_TRUE(r.max_abs_error && r.tolerance);
      EXPECT_LE(*r.max_abs_error, *r.tolerance);
    }
  }
}

TEST(VulkanShadersLive, ACpuDeviceGetsTheTexelBufferShader) {
  if (!std::filesystem::exists(kLavapipe)) {
    GTEST_SKIP() << "lavapipe (mesa-vulkan-drivers) is not installed";
  }
  const std::vector<SmokeResult> results = run_shaders(64, {nullptr});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].kernel, vulkan::kTexelMatmul.description);
  EXPECT_EQ(results[0].status, "pass") << results[0].reason.value_or("");
}

TEST(VulkanShadersLive, TheFmaPeakShaderGivesARate) {
  if (!std::filesystem::exists(kLavapipe)) {
    GTEST_SKIP() << "lavapipe (mesa-vulkan-drivers) is not installed";
  }
  auto data = on_lavapipe([](const vulkan::VulkanInstance& vk, VkPhysicalDevice device) {
    auto peak = vulkan::vulkan_fma_peak(vk.api, vk.instance, device);
    if (auto* why = std::get_if<std::string>(&peak)) return Json(*why);
    return Json(std::get<double>(peak));
  });
  ASSERT_TRUE(data);
  ASSERT_TRUE(data->is_number()) << data->dump();
  EXPECT_GT(data->get<double>(), 0.0);
}

}  // namespace
}  // namespace gpudoctor
