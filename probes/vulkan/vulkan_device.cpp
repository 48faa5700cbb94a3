#include "vulkan/vulkan_device.hpp"

#include "text.hpp"
#include "api/vulkan/vulkan_version.hpp"

namespace gpudoctor::vulkan {

namespace {

bool at_least(std::uint32_t api, std::uint32_t major, std::uint32_t minor) {
  const VulkanApiVersion v = decode_vulkan_api_version(api);
  return v.variant == 0 && (v.major > major || (v.major == major && v.minor >= minor));
}

/// Reads one physical device; every rule the driver breaks is added to *anomalies.
class DeviceReader {
 public:
  DeviceReader(const VulkanApi& api, std::uint32_t instance_api, bool props2_extension,
               std::vector<std::string>* anomalies)
      : api_(api),
        instance_api_(instance_api),
        props2_ext_(props2_extension),
        anomalies_(anomalies) {}

  VulkanDevice read(VkPhysicalDevice pd, const std::string& manifest, std::size_t index) {
    index_ = index;
    VulkanDevice d;
    d.manifest = manifest;
    VkPhysicalDeviceProperties p{};
    api_.get_physical_device_properties(pd, &p);
    d.name = fixed(p.deviceName, VK_MAX_PHYSICAL_DEVICE_NAME_SIZE, "deviceName");
    d.type = vk_device_type_name(p.deviceType);
    if (!d.type) note("deviceType " + std::to_string(p.deviceType) + " is not a device type");
    d.vendor_id = p.vendorID;
    d.device_id = p.deviceID;
    d.api_version = vulkan_api_version_string(p.apiVersion);
    d.driver_version_raw = p.driverVersion;
    d.max_compute_shared_memory_bytes = p.limits.maxComputeSharedMemorySize;
    d.max_compute_work_group_count.assign(p.limits.maxComputeWorkGroupCount,
                                          p.limits.maxComputeWorkGroupCount + 3);
    d.max_compute_work_group_invocations = p.limits.maxComputeWorkGroupInvocations;
    d.max_compute_work_group_size.assign(p.limits.maxComputeWorkGroupSize,
                                         p.limits.maxComputeWorkGroupSize + 3);
    d.max_storage_buffer_range = p.limits.maxStorageBufferRange;

    const bool v11 = at_least(p.apiVersion, 1, 1) && at_least(instance_api_, 1, 1);
    const bool v12 = at_least(p.apiVersion, 1, 2) && at_least(instance_api_, 1, 2);
    const auto exts = vulkan_extension_names([&](std::uint32_t* n, VkExtensionProperties* e) {
      return api_.enumerate_device_extension_properties(pd, nullptr, n, e);
    });
    read_properties2(pd, d, v11, v12, exts);
    d.driver_version = vulkan_driver_version_string(p.driverVersion, d.vendor_id, d.driver_id);
    read_features(pd, d, v11, v12 || vulkan_contains(exts, "VK_KHR_shader_float16_int8"));
    read_memory(pd, d);
    read_queue_families(pd, d);
    return d;
  }

 private:
  void note(const std::string& what) {
    anomalies_->push_back("device " + std::to_string(index_) + ": " + what);
  }

  std::string fixed(const char* data, std::size_t capacity, const char* field) {
    bool terminated = true;
    std::string s = vk_fixed_string(data, capacity, &terminated);
    if (!terminated) note(std::string(field) + " is not NUL-terminated");
    return s;
  }

  std::optional<bool> boolean(VkBool32 v, const char* field) {
    if (v == VK_TRUE || v == VK_FALSE) return v == VK_TRUE;
    note(std::string(field) + " is " + std::to_string(v) + ", not VK_TRUE or VK_FALSE");
    return std::nullopt;
  }

  /// The core 1.1 entry point for a 1.1 device, else the KHR one when the instance has it.
  template <typename Pfn>
  Pfn pick(bool v11, Pfn core, Pfn khr) const {
    if (v11 && core != nullptr) return core;
    return props2_ext_ ? khr : nullptr;
  }

  void read_properties2(VkPhysicalDevice pd, VulkanDevice& d, bool v11, bool v12,
                        const std::vector<std::string>& exts) {
    auto fn =
        pick(v11, api_.get_physical_device_properties2, api_.get_physical_device_properties2_khr);
    if (fn == nullptr) return;
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    VkPhysicalDeviceDriverProperties drv{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceIDProperties ids{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties sub{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDevicePCIBusInfoPropertiesEXT pci{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT};
    // Only what the device says it has: a driver may crash on a structure it does not know.
    const bool want_driver = v12 || vulkan_contains(exts, "VK_KHR_driver_properties");
    const bool want_pci = vulkan_contains(exts, "VK_EXT_pci_bus_info");
    void** next = &p2.pNext;
    auto chain = [&next](auto& s) {
      *next = &s;
      next = &s.pNext;
    };
    if (want_driver) chain(drv);
    if (v11) chain(ids);
    if (v11) chain(sub);
    if (want_pci) chain(pci);
    fn(pd, &p2);
    if (want_driver) {
      d.driver_id = static_cast<std::uint32_t>(drv.driverID);
      d.driver_name = fixed(drv.driverName, VK_MAX_DRIVER_NAME_SIZE, "driverName");
      d.driver_info = fixed(drv.driverInfo, VK_MAX_DRIVER_INFO_SIZE, "driverInfo");
      const VkConformanceVersion& c = drv.conformanceVersion;
      d.conformance_version =
          vulkan_conformance_version_string(c.major, c.minor, c.subminor, c.patch);
    }
    if (v11) {
      d.device_uuid = vk_uuid_string(ids.deviceUUID);
      d.driver_uuid = vk_uuid_string(ids.driverUUID);
      d.subgroup_size = sub.subgroupSize;
    }
    if (want_pci) {
      d.pci_bus_id = hex(pci.pciDomain, 4) + ":" + hex(pci.pciBus, 2) + ":" +
                     hex(pci.pciDevice, 2) + "." + hex(pci.pciFunction, 1);
      if (pci.pciDomain > 0xFFFF || pci.pciBus > 0xFF || pci.pciDevice > 0x1F ||
          pci.pciFunction > 7) {
        note("VK_EXT_pci_bus_info gives an impossible address " + *d.pci_bus_id);
        d.pci_bus_id.reset();
      }
    }
  }

  void read_features(VkPhysicalDevice pd, VulkanDevice& d, bool v11, bool float16_exposed) {
    VkPhysicalDeviceFeatures f{};
    api_.get_physical_device_features(pd, &f);
    d.shader_float64 = boolean(f.shaderFloat64, "shaderFloat64");
    if (!float16_exposed) {
      d.shader_float16 = false;  // neither Vulkan 1.2 nor VK_KHR_shader_float16_int8
      return;
    }
    auto fn = pick(v11, api_.get_physical_device_features2, api_.get_physical_device_features2_khr);
    if (fn == nullptr) return;
    VkPhysicalDeviceShaderFloat16Int8Features f16{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f16};
    fn(pd, &f2);
    d.shader_float16 = boolean(f16.shaderFloat16, "shaderFloat16");
  }

  void read_memory(VkPhysicalDevice pd, VulkanDevice& d) {
    VkPhysicalDeviceMemoryProperties m{};
    api_.get_physical_device_memory_properties(pd, &m);
    std::uint32_t heaps = m.memoryHeapCount;
    if (heaps > VK_MAX_MEMORY_HEAPS) {
      note("memoryHeapCount " + std::to_string(heaps) + " exceeds VK_MAX_MEMORY_HEAPS");
      heaps = VK_MAX_MEMORY_HEAPS;
    }
    for (std::uint32_t i = 0; i < heaps; ++i) {
      d.memory_heaps.push_back(
          {m.memoryHeaps[i].size, (m.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0});
    }
    std::uint32_t types = m.memoryTypeCount;
    if (types > VK_MAX_MEMORY_TYPES) {
      note("memoryTypeCount " + std::to_string(types) + " exceeds VK_MAX_MEMORY_TYPES");
      types = VK_MAX_MEMORY_TYPES;
    }
    for (std::uint32_t i = 0; i < types; ++i) {
      d.memory_types.push_back({m.memoryTypes[i].heapIndex,
                                vk_memory_property_flag_names(m.memoryTypes[i].propertyFlags)});
    }
  }

  void read_queue_families(VkPhysicalDevice pd, VulkanDevice& d) {
    std::uint32_t count = 0;
    api_.get_physical_device_queue_family_properties(pd, &count, nullptr);
    if (count > kMaxQueueFamilies) {
      note(std::to_string(count) + " queue families reported; read the first " +
           std::to_string(kMaxQueueFamilies));
      count = kMaxQueueFamilies;
    }
    std::vector<VkQueueFamilyProperties> q(count);
    api_.get_physical_device_queue_family_properties(pd, &count, q.data());
    for (std::uint32_t i = 0; i < std::min<std::size_t>(count, q.size()); ++i) {
      d.queue_families.push_back(
          {q[i].queueCount, vk_queue_flag_names(q[i].queueFlags), q[i].timestampValidBits});
    }
  }

  const VulkanApi& api_;
  std::uint32_t instance_api_;
  bool props2_ext_;
  std::vector<std::string>* anomalies_;
  std::size_t index_ = 0;
};

}  // namespace

VulkanDevice read_vulkan_device(const VulkanApi& api, VkPhysicalDevice device,
                                std::uint32_t instance_api, bool props2_extension,
                                const std::string& manifest, std::size_t index,
                                std::vector<std::string>* anomalies) {
  return DeviceReader(api, instance_api, props2_extension, anomalies).read(device, manifest, index);
}

}  // namespace gpudoctor::vulkan
