#include "bench_runners/vulkan_bench.hpp"

#include <algorithm>

#include "bench/bench_model.hpp"
#include "bench_runners/copy_timer.hpp"
#include "bench_runners/sweep.hpp"
#include "bench_runners/vulkan_bandwidth.hpp"
#include "vulkan/vulkan_api.hpp"
#include "vulkan/vulkan_device.hpp"
#include "vulkan/vulkan_enumerate.hpp"
#include "vulkan/vulkan_fma_peak.hpp"
#include "vulkan/vulkan_instance.hpp"
#include "vulkan/vulkan_matmul.hpp"

namespace gpudoctor::bench {

namespace {

/// vendor id and type as the peak model reads them.
DeviceTraits traits_of(const VulkanDevice& d) {
  DeviceTraits t;
  t.vendor_id = d.vendor_id;
  if (d.type) {
    // "discrete_gpu", "integrated_gpu", "virtual_gpu" → "gpu"-like; "cpu" stays "cpu".
    t.type = d.type->find("gpu") != std::string::npos ? "gpu" : *d.type;
  }
  t.pci_bus_id = d.pci_bus_id;
  return t;
}

MeasuredPeak measured_peak(const vulkan::VulkanApi& api, VkInstance instance,
                           VkPhysicalDevice device) {
  MeasuredPeak peak;
  peak.method = "gpudoctor's FMA peak shader: " +
                std::to_string(vulkan::kPeakGroups * vulkan::kPeakGroupSize) +
                " invocations × 8 independent vec4 FMA chains, best of " +
                std::to_string(vulkan::kPeakRuns) + " dispatches";
  auto r = vulkan::vulkan_fma_peak(api, instance, device);
  if (auto* g = std::get_if<double>(&r)) {
    peak.gflops = *g;
  } else {
    peak.error = std::get<std::string>(r);
  }
  return peak;
}

}  // namespace

JobReport vulkan_bench(const std::string& manifest, const std::vector<int>& sizes) {
  vulkan::restrict_loader_to(manifest);
  BenchJobReport out;
  auto done = [&](ProbeStatus status, const std::string& detail) {
    return JobReport{status, manifest + ": " + detail, Json(out)};
  };
  auto opened = vulkan::open_vulkan_instance("gpudoctor bench");
  if (auto* e = std::get_if<vulkan::VulkanInstanceError>(&opened)) {
    return done(e->status, e->detail);
  }
  const vulkan::VulkanInstance& vk = std::get<vulkan::VulkanInstance>(opened);
  const vulkan::VulkanApi& api = vk.api;
  const VkInstance instance = vk.instance;
  std::uint32_t count = 0;
  if (api.enumerate_physical_devices(instance, &count, nullptr) != VK_SUCCESS || count == 0) {
    return done(ProbeStatus::missing, "no physical device");
  }
  std::vector<VkPhysicalDevice> devices(std::min(count, vulkan::kMaxDevices), VK_NULL_HANDLE);
  count = static_cast<std::uint32_t>(devices.size());
  api.enumerate_physical_devices(instance, &count, devices.data());
  for (std::uint32_t i = 0; i < std::min<std::uint32_t>(count, devices.size()); ++i) {
    if (devices[i] == VK_NULL_HANDLE) continue;
    std::vector<std::string> anomalies;
    const VulkanDevice d =
        vulkan::read_vulkan_device(api, devices[i], vk.app_api, vk.props2, manifest, i, &anomalies);
    BenchSeries s;
    s.api = "vulkan";
    s.device = d.name.value_or("Vulkan device " + std::to_string(i));
    s.library = manifest;
    s.traits = traits_of(d);
    vulkan::VulkanMatmul runner(api, instance, devices[i], s.device);
    sweep(s, sizes, [&](const smoke::MatmulRequest& req) { return runner.run(req); });
    s.bandwidth = vulkan_bandwidth(api, instance, devices[i], kCopyBytes);
    s.measured_peak = measured_peak(api, instance, devices[i]);
    out.series.push_back(std::move(s));
  }
  return done(ProbeStatus::ok, std::to_string(out.series.size()) + " device(s) benchmarked");
}

}  // namespace gpudoctor::bench
