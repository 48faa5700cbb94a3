#include "bench/vulkan_bench.hpp"

#include <algorithm>

#include "bench/bench_model.hpp"
#include "bench/copy_timer.hpp"
#include "bench/sweep.hpp"
#include "bench/vulkan_bandwidth.hpp"
#include "vulkan/vulkan_api.hpp"
#include "vulkan/vulkan_device.hpp"
#include "vulkan/vulkan_enumerate.hpp"
#include "vulkan/vulkan_matmul.hpp"
#include "vulkan_names.hpp"
#include "vulkan_version.hpp"

namespace gpudoctor::bench {

namespace {

constexpr const char* kProps2 = "VK_KHR_get_physical_device_properties2";

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

}  // namespace

JobReport vulkan_bench(const std::string& manifest, const std::vector<int>& sizes) {
  vulkan::restrict_loader_to(manifest);
  BenchJobReport out;
  auto done = [&](ProbeStatus status, const std::string& detail) {
    return JobReport{status, manifest + ": " + detail, Json(out)};
  };
  std::string error;
  auto lib = DynamicLibrary::open("libvulkan.so.1", &error);
  if (!lib) return done(ProbeStatus::missing, "libvulkan.so.1 cannot be opened: " + error);
  vulkan::VulkanApi api;
  if (!api.load_global(*lib)) return done(ProbeStatus::failed, "libvulkan.so.1 is incomplete");

  std::uint32_t version = VK_API_VERSION_1_0;
  if (api.enumerate_instance_version != nullptr) api.enumerate_instance_version(&version);
  const VulkanApiVersion v = decode_vulkan_api_version(version);
  const std::uint32_t app_api = pack_vulkan_api_version(0, v.major, v.minor, 0);
  const bool props2 = vulkan::vulkan_contains(
      vulkan::vulkan_extension_names([&](std::uint32_t* n, VkExtensionProperties* e) {
        return api.enumerate_instance_extension_properties(nullptr, n, e);
      }),
      kProps2);
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "gpudoctor bench";
  app.apiVersion = app_api;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = props2 ? 1 : 0;
  info.ppEnabledExtensionNames = &kProps2;
  VkInstance instance = VK_NULL_HANDLE;
  if (VkResult r = api.create_instance(&info, nullptr, &instance); r != VK_SUCCESS) {
    return done(ProbeStatus::failed, "vkCreateInstance returned " + vk_result_text(r));
  }
  // Left alive: the child exits right after, and a driver's teardown is not what this measures.
  api.load_instance(instance);
  std::uint32_t count = 0;
  if (api.enumerate_physical_devices == nullptr ||
      api.enumerate_physical_devices(instance, &count, nullptr) != VK_SUCCESS || count == 0) {
    return done(ProbeStatus::missing, "no physical device");
  }
  std::vector<VkPhysicalDevice> devices(std::min(count, vulkan::kMaxDevices), VK_NULL_HANDLE);
  count = static_cast<std::uint32_t>(devices.size());
  api.enumerate_physical_devices(instance, &count, devices.data());
  for (std::uint32_t i = 0; i < std::min<std::uint32_t>(count, devices.size()); ++i) {
    if (devices[i] == VK_NULL_HANDLE) continue;
    std::vector<std::string> anomalies;
    const VulkanDevice d =
        vulkan::read_vulkan_device(api, devices[i], app_api, props2, manifest, i, &anomalies);
    BenchSeries s;
    s.api = "vulkan";
    s.device = d.name.value_or("Vulkan device " + std::to_string(i));
    s.library = manifest;
    s.traits = traits_of(d);
    vulkan::VulkanMatmul runner(api, instance, devices[i], s.device);
    sweep(s, sizes, [&](const smoke::MatmulRequest& req) { return runner.run(req); });
    s.bandwidth = vulkan_bandwidth(api, instance, devices[i], kCopyBytes);
    out.series.push_back(std::move(s));
  }
  return done(ProbeStatus::ok, std::to_string(out.series.size()) + " device(s) benchmarked");
}

}  // namespace gpudoctor::bench
