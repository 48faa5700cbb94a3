#pragma once
// The Vulkan matmul (C = A·B, fp32, n×n) on one physical device, with a compute shader compiled
// to SPIR-V at build time: `gpudoctor check`'s smoke test and `gpudoctor bench`'s Vulkan runner.
//
// How to use it (only inside an isolated child whose loader sees one driver, see
// vulkan_enumerate.cpp; it loads and runs vendor code). `api` must have its instance-level
// entry points loaded for `instance` (VulkanApi::load_instance):
//
//   VulkanMatmul runner(api, instance, physical_device, "label shown in results");
//   for (int n : {256, 512, 1024}) {
//     SmokeResult r = runner.run({n, /*repeats=*/5, /*verify=*/n <= 512});
//     // r.status "pass"/"fail"/"skip", r.kernel_ms (best of the timed runs, smoke/timed_runs.hpp), r.gflops
//   }
//
// GPUs run a shared-memory tiled shader, CPU devices (lavapipe) one without shared memory or
// barriers (matmul_spirv.hpp). The constructor creates the logical device, the shader module and
// the pipeline once; each
// run() allocates host-visible buffers, dispatches once untimed and `repeats` times timed
// (the wall clock around submit and wait, smoke/timed_runs.hpp), and
// verifies when asked. A runner whose setup failed returns that failure (or skip) from every
// run(). vulkan_matmul() is the one-shot form.
#include <memory>
#include <string>

#include "model/smoke.hpp"
#include "smoke/matmul_request.hpp"
#include "vulkan/matmul_spirv.hpp"
#include "vulkan/vulkan_api.hpp"

namespace gpudoctor::vulkan {

class VulkanMatmul {
 public:
  /// `shader` null: the one for the device's type (matmul_spirv.hpp); tests pass one to run the
  /// other shader on this machine's devices.
  VulkanMatmul(const VulkanApi& api, VkInstance instance, VkPhysicalDevice device,
               std::string label, const MatmulShader* shader = nullptr);
  ~VulkanMatmul();
  VulkanMatmul(const VulkanMatmul&) = delete;
  VulkanMatmul& operator=(const VulkanMatmul&) = delete;

  SmokeResult run(const smoke::MatmulRequest& req);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

SmokeResult vulkan_matmul(const VulkanApi& api, VkInstance instance, VkPhysicalDevice device,
                          const smoke::MatmulRequest& req);

}  // namespace gpudoctor::vulkan
