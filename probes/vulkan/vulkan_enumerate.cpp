#include "vulkan/vulkan_enumerate.hpp"

#include <algorithm>
#include <cstdlib>

#include "smoke/smoke_verdict.hpp"
#include "text.hpp"
#include "vulkan/vulkan_api.hpp"
#include "vulkan/vulkan_device.hpp"
#include "vulkan/vulkan_instance.hpp"
#include "vulkan/vulkan_matmul.hpp"
#include "api/vulkan/vulkan_names.hpp"
#include "api/vulkan/vulkan_version.hpp"

namespace gpudoctor::vulkan {

namespace {

constexpr std::size_t kMaxAnomaliesShown = 6;

std::string device_summary(const std::vector<VulkanDevice>& devices) {
  std::vector<std::string> names;
  for (const auto& d : devices) names.push_back(d.name.value_or("?"));
  return std::to_string(devices.size()) + (devices.size() == 1 ? " device: " : " devices: ") +
         join(names, ", ");
}

std::string anomaly_summary(const std::string& library, const std::vector<std::string>& anomalies) {
  std::vector<std::string> shown(
      anomalies.begin(), anomalies.begin() + std::min(anomalies.size(), kMaxAnomaliesShown));
  std::string s = library + " returned malformed data: " + join(shown, "; ");
  if (anomalies.size() > shown.size()) {
    s += "; and " + std::to_string(anomalies.size() - shown.size()) + " more";
  }
  return s;
}

/// The smoke matmul on every device, in order. Before each one the facts so far go to the
/// parent, naming the device, so that a driver that crashes or hangs in the shader is known to
/// have done it there.
void run_smoke(const VulkanApi& api, VkInstance instance,
               const std::vector<VkPhysicalDevice>& handles, const std::string& library,
               VulkanDriverReport& report) {
  for (std::size_t i = 0; i < handles.size() && i < report.devices.size(); ++i) {
    const std::string label = smoke_device_label(report.devices[i], i);
    report.smoke_running = label;
    report_progress(report);
    VulkanMatmul runner(api, instance, handles[i], label);
    SmokeResult result = runner.run({smoke::kCheckMatmulN});
    result.library = library;
    report.smoke.push_back(std::move(result));
  }
  report.smoke_running.reset();
}

/// Each active layer alone with the driver that has just worked without it: a crash or a hang
/// now is the layer's, and the progress report says which one.
void try_layers(const LayerPlan& plan, VulkanDriverReport& report) {
  for (const auto& layer : plan.active) {
    VulkanLayerCheck check{layer.name,    layer.library,   layer.manifest,
                           layer.because, ProbeStatus::ok, "loaded with " + report.manifest};
    report.layer_running = check;
    report_progress(report);
    load_layer_alone(plan, layer);
    auto opened = open_vulkan_instance("gpudoctor");
    if (auto* e = std::get_if<VulkanInstanceError>(&opened)) {
      check.status = ProbeStatus::failed;
      check.detail = e->detail;
    } else {
      const VulkanInstance& vk = std::get<VulkanInstance>(opened);
      std::uint32_t count = 0;
      VkResult r = vk.api.enumerate_physical_devices(vk.instance, &count, nullptr);
      std::vector<VkPhysicalDevice> handles(std::min<std::uint32_t>(count, kMaxDevices));
      if (r == VK_SUCCESS && !handles.empty()) {
        count = static_cast<std::uint32_t>(handles.size());
        r = vk.api.enumerate_physical_devices(vk.instance, &count, handles.data());
      }
      if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        check.status = ProbeStatus::failed;
        check.detail = vk_call_failed("vkEnumeratePhysicalDevices", r);
      }
      for (std::size_t i = 0; i < handles.size() && i < count; ++i) {
        VkPhysicalDeviceProperties props{};
        if (handles[i] != VK_NULL_HANDLE) vk.api.get_physical_device_properties(handles[i], &props);
      }
    }
    report.layers.push_back(std::move(check));
  }
  report.layer_running.reset();
  load_no_layers(plan);
}

}  // namespace

void restrict_loader_to(const std::string& manifest) {
  ::setenv("VK_DRIVER_FILES", manifest.c_str(), 1);
  ::setenv("VK_ICD_FILENAMES", manifest.c_str(), 1);  // loaders before 1.3.207
  ::unsetenv("VK_ADD_DRIVER_FILES");
  ::unsetenv("VK_LOADER_DRIVERS_SELECT");
  ::unsetenv("VK_LOADER_DRIVERS_DISABLE");
  // Driver facts, not what layers make of them, and a crash in a layer is not the driver's.
  load_no_layers({});
  // The loader's own errors (a driver library that fails to load, …) reach stderr_tail.
  ::setenv("VK_LOADER_DEBUG", "error", 0);
}

std::string smoke_device_label(const VulkanDevice& device, std::size_t index) {
  return device.name.value_or("device " + std::to_string(index));
}

JobReport enumerate_vulkan_driver(const std::string& manifest, const std::string& library,
                                  bool smoke, const LayerPlan& layers) {
  restrict_loader_to(manifest);
  load_no_layers(layers);
  VulkanDriverReport report;
  report.manifest = manifest;
  auto data = [&report] { return Json(report); };

  auto opened = open_vulkan_instance("gpudoctor");
  if (auto* e = std::get_if<VulkanInstanceError>(&opened)) return {e->status, e->detail, data()};
  const VulkanInstance& vk = std::get<VulkanInstance>(opened);
  report.loader = vk.lib->path();
  report.instance_version = vulkan_api_version_string(vk.instance_version);
  const VulkanApi& api = vk.api;
  const VkInstance instance = vk.instance;

  std::uint32_t count = 0;
  VkResult r = api.enumerate_physical_devices(instance, &count, nullptr);
  if (r == VK_ERROR_INITIALIZATION_FAILED) {
    return {ProbeStatus::missing,
            "no device: " + vk_call_failed("vkEnumeratePhysicalDevices", r) +
                ", which the loader returns when its driver has no usable device",
            data()};
  }
  if (r != VK_SUCCESS) {
    return {ProbeStatus::failed, vk_call_failed("vkEnumeratePhysicalDevices", r), data()};
  }
  if (count == 0) return {ProbeStatus::missing, "no device: the driver reports none", data()};
  std::vector<std::string> anomalies;
  if (count > kMaxDevices) {
    anomalies.push_back("vkEnumeratePhysicalDevices reported " + std::to_string(count) +
                        " devices; read the first " + std::to_string(kMaxDevices));
    count = kMaxDevices;
  }
  std::vector<VkPhysicalDevice> handles(count, VK_NULL_HANDLE);
  r = api.enumerate_physical_devices(instance, &count, handles.data());
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
    return {ProbeStatus::failed, vk_call_failed("vkEnumeratePhysicalDevices", r), data()};
  }
  handles.resize(std::min<std::size_t>(count, handles.size()));

  for (std::size_t i = 0; i < handles.size(); ++i) {
    if (handles[i] == VK_NULL_HANDLE) {
      anomalies.push_back("device " + std::to_string(i) + " is a null handle");
      continue;
    }
    report.devices.push_back(
        read_vulkan_device(api, handles[i], vk.app_api, vk.props2, manifest, i, &anomalies));
  }
  if (!anomalies.empty()) return {ProbeStatus::failed, anomaly_summary(library, anomalies), data()};
  if (smoke) run_smoke(api, instance, handles, library, report);
  try_layers(layers, report);
  return {ProbeStatus::ok, device_summary(report.devices) + smoke::smoke_summary(report.smoke),
          data()};
}

}  // namespace gpudoctor::vulkan
