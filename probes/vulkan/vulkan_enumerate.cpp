#include "vulkan/vulkan_enumerate.hpp"

#include <algorithm>
#include <cstdlib>

#include "smoke/smoke_verdict.hpp"
#include "text.hpp"
#include "vulkan/vulkan_api.hpp"
#include "vulkan/vulkan_device.hpp"
#include "vulkan/vulkan_matmul.hpp"
#include "vulkan_names.hpp"
#include "vulkan_version.hpp"

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

}  // namespace

void restrict_loader_to(const std::string& manifest) {
  ::setenv("VK_DRIVER_FILES", manifest.c_str(), 1);
  ::setenv("VK_ICD_FILENAMES", manifest.c_str(), 1);  // loaders before 1.3.207
  ::unsetenv("VK_ADD_DRIVER_FILES");
  ::unsetenv("VK_LOADER_DRIVERS_SELECT");
  ::unsetenv("VK_LOADER_DRIVERS_DISABLE");
  // Driver facts, not what implicit layers make of them (loaders from 1.3.234 honour this).
  ::setenv("VK_LOADER_LAYERS_DISABLE", "~implicit~", 1);
  ::unsetenv("VK_INSTANCE_LAYERS");
  // The loader's own errors (a driver library that fails to load, …) reach stderr_tail.
  ::setenv("VK_LOADER_DEBUG", "error", 0);
}

std::string smoke_device_label(const VulkanDevice& device, std::size_t index) {
  return device.name.value_or("device " + std::to_string(index));
}

JobReport enumerate_vulkan_driver(const std::string& manifest, const std::string& library,
                                  bool smoke) {
  restrict_loader_to(manifest);
  VulkanDriverReport report;
  report.manifest = manifest;
  auto data = [&report] { return Json(report); };

  std::string error;
  auto lib = DynamicLibrary::open("libvulkan.so.1", &error);
  if (!lib) {
    return {ProbeStatus::missing, "the Vulkan loader libvulkan.so.1 could not be opened: " + error,
            data()};
  }
  report.loader = lib->path();
  VulkanApi api;
  if (!api.load_global(*lib)) {
    return {ProbeStatus::failed,
            "libvulkan.so.1 has no vkGetInstanceProcAddr, vkCreateInstance or "
            "vkEnumerateInstanceExtensionProperties",
            data()};
  }

  std::uint32_t instance_version = VK_API_VERSION_1_0;
  if (api.enumerate_instance_version != nullptr) {
    VkResult r = api.enumerate_instance_version(&instance_version);
    if (r != VK_SUCCESS) {
      return {ProbeStatus::failed, "vkEnumerateInstanceVersion returned " + vk_result_text(r),
              data()};
    }
  }
  report.instance_version = vulkan_api_version_string(instance_version);

  const auto instance_exts =
      vulkan_extension_names([&](std::uint32_t* n, VkExtensionProperties* e) {
        return api.enumerate_instance_extension_properties(nullptr, n, e);
      });
  std::vector<const char*> enable;
  const bool props2_ext = vulkan_contains(instance_exts, "VK_KHR_get_physical_device_properties2");
  if (props2_ext) enable.push_back("VK_KHR_get_physical_device_properties2");
  const bool portability = vulkan_contains(instance_exts, "VK_KHR_portability_enumeration");
  if (portability) enable.push_back("VK_KHR_portability_enumeration");

  // Ask for the newest API the loader offers: 1.0 loaders reject anything above 1.0.
  const VulkanApiVersion iv = decode_vulkan_api_version(instance_version);
  const std::uint32_t app_api = pack_vulkan_api_version(0, iv.major, iv.minor, 0);
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "gpudoctor";
  app.apiVersion = app_api;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.flags = portability ? VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR : 0;
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = static_cast<std::uint32_t>(enable.size());
  info.ppEnabledExtensionNames = enable.data();
  VkInstance instance = VK_NULL_HANDLE;
  VkResult r = api.create_instance(&info, nullptr, &instance);
  if (r != VK_SUCCESS || instance == VK_NULL_HANDLE) {
    return {ProbeStatus::failed, "vkCreateInstance returned " + vk_result_text(r), data()};
  }
  // The instance is never destroyed: the child exits right after, and a driver's teardown is
  // not what this probe is about.
  api.load_instance(instance);
  if (api.enumerate_physical_devices == nullptr || api.get_physical_device_properties == nullptr ||
      api.get_physical_device_features == nullptr ||
      api.get_physical_device_memory_properties == nullptr ||
      api.get_physical_device_queue_family_properties == nullptr ||
      api.enumerate_device_extension_properties == nullptr) {
    return {ProbeStatus::failed, "the loader returned no Vulkan 1.0 physical-device entry points",
            data()};
  }

  std::uint32_t count = 0;
  r = api.enumerate_physical_devices(instance, &count, nullptr);
  if (r == VK_ERROR_INITIALIZATION_FAILED) {
    return {ProbeStatus::missing,
            "no device: vkEnumeratePhysicalDevices returned " + vk_result_text(r) +
                ", which the loader returns when its driver has no usable device",
            data()};
  }
  if (r != VK_SUCCESS) {
    return {ProbeStatus::failed, "vkEnumeratePhysicalDevices returned " + vk_result_text(r),
            data()};
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
    return {ProbeStatus::failed, "vkEnumeratePhysicalDevices returned " + vk_result_text(r),
            data()};
  }
  handles.resize(std::min<std::size_t>(count, handles.size()));

  for (std::size_t i = 0; i < handles.size(); ++i) {
    if (handles[i] == VK_NULL_HANDLE) {
      anomalies.push_back("device " + std::to_string(i) + " is a null handle");
      continue;
    }
    report.devices.push_back(
        read_vulkan_device(api, handles[i], app_api, props2_ext, manifest, i, &anomalies));
  }
  if (!anomalies.empty()) return {ProbeStatus::failed, anomaly_summary(library, anomalies), data()};
  if (smoke) run_smoke(api, instance, handles, library, report);
  return {ProbeStatus::ok, device_summary(report.devices) + smoke::smoke_summary(report.smoke),
          data()};
}

}  // namespace gpudoctor::vulkan
