#pragma once
// The Level Zero entry points and structures gpudoctor reads, hand-written: nothing here needs
// the SDK or links the loader. Layouts, values and prototypes are copied from ze_api.h of the
// Level Zero loader (https://github.com/oneapi-src/level-zero/blob/v1.8.12/include/ze_api.h,
// Debian 12's libze-dev 1.8.12; the structures read here have kept their layout through the
// later 1.x headers). tests/unit/level_zero_abi_test.cpp compares each with the real header
// where it is installed.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/dynlib.hpp"

namespace gpudoctor::level_zero {

using ze_result_t = std::uint32_t;  // an enum of 32 bits in ze_api.h
using ze_driver_handle_t = struct ZeDriverOpaque*;
using ze_device_handle_t = struct ZeDeviceOpaque*;

inline constexpr ze_result_t kSuccess = 0;                       // ZE_RESULT_SUCCESS
inline constexpr ze_result_t kErrorUninitialized = 0x78000001;  // ZE_RESULT_ERROR_UNINITIALIZED
inline constexpr std::uint32_t kInitGpuOnly = 1;                 // ZE_INIT_FLAG_GPU_ONLY

// ze_structure_type_t values.
inline constexpr std::uint32_t kStypeDriverProperties = 0x1;
inline constexpr std::uint32_t kStypeDeviceProperties = 0x3;
inline constexpr std::uint32_t kStypeDeviceMemoryProperties = 0x7;
inline constexpr std::uint32_t kStypePciExtProperties = 0x10008;
inline constexpr std::uint32_t kStypeInitDriverTypeDesc = 0x00020021;  // ze_init_driver_type_desc_t

// ze_device_type_t and ze_device_property_flag_t.
inline constexpr std::uint32_t kDeviceTypeGpu = 1;
inline constexpr std::uint32_t kDeviceTypeCpu = 2;
inline constexpr std::uint32_t kDeviceTypeFpga = 3;
inline constexpr std::uint32_t kDeviceTypeMca = 4;
inline constexpr std::uint32_t kDeviceTypeVpu = 5;
inline constexpr std::uint32_t kDeviceFlagIntegrated = 1u << 0;
inline constexpr std::uint32_t kDeviceFlagSubdevice = 1u << 1;
inline constexpr std::uint32_t kDeviceFlagEcc = 1u << 2;
inline constexpr std::uint32_t kDeviceFlagOnDemandPaging = 1u << 3;

inline constexpr std::size_t kMaxDeviceName = 256;  // ZE_MAX_DEVICE_NAME
inline constexpr std::size_t kMaxUuid = 16;         // ZE_MAX_DEVICE_UUID_SIZE, ZE_MAX_DRIVER_UUID_SIZE

/// ze_driver_properties_t
struct DriverProperties {
  std::uint32_t stype = kStypeDriverProperties;
  void* next = nullptr;
  std::uint8_t uuid[kMaxUuid] = {};
  std::uint32_t driver_version = 0;
};

/// ze_device_properties_t (stype ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES: timerResolution in ns)
struct DeviceProperties {
  std::uint32_t stype = kStypeDeviceProperties;
  void* next = nullptr;
  std::uint32_t type = 0;
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  std::uint32_t flags = 0;
  std::uint32_t subdevice_id = 0;
  std::uint32_t core_clock_rate = 0;  ///< MHz
  std::uint64_t max_mem_alloc_size = 0;
  std::uint32_t max_hardware_contexts = 0;
  std::uint32_t max_command_queue_priority = 0;
  std::uint32_t num_threads_per_eu = 0;
  std::uint32_t physical_eu_simd_width = 0;
  std::uint32_t num_eus_per_subslice = 0;
  std::uint32_t num_subslices_per_slice = 0;
  std::uint32_t num_slices = 0;
  std::uint64_t timer_resolution = 0;
  std::uint32_t timestamp_valid_bits = 0;
  std::uint32_t kernel_timestamp_valid_bits = 0;
  std::uint8_t uuid[kMaxUuid] = {};
  char name[kMaxDeviceName] = {};
};

/// ze_device_memory_properties_t
struct DeviceMemoryProperties {
  std::uint32_t stype = kStypeDeviceMemoryProperties;
  void* next = nullptr;
  std::uint32_t flags = 0;
  std::uint32_t max_clock_rate = 0;  ///< MHz
  std::uint32_t max_bus_width = 0;   ///< bits
  std::uint64_t total_size = 0;
  char name[kMaxDeviceName] = {};
};

/// ze_pci_ext_properties_t (ZE_extension_pci_properties, API 1.1 and later)
struct PciExtProperties {
  std::uint32_t stype = kStypePciExtProperties;
  void* next = nullptr;
  std::uint32_t domain = 0;
  std::uint32_t bus = 0;
  std::uint32_t device = 0;
  std::uint32_t function = 0;
  std::int32_t gen_version = 0;
  std::int32_t width = 0;
  std::int64_t max_bandwidth = 0;
};

/// ze_init_driver_type_desc_t (zeInitDrivers; not in Debian 12's 1.8 header:
/// https://github.com/oneapi-src/level-zero/blob/v1.18.0/include/ze_api.h, the first loader with it)
struct InitDriverTypeDesc {
  std::uint32_t stype = kStypeInitDriverTypeDesc;
  const void* next = nullptr;
  std::uint32_t flags = 0;  ///< ZE_INIT_DRIVER_TYPE_FLAG_GPU = 1
};

struct LevelZeroApi {
  ze_result_t (*init)(std::uint32_t flags) = nullptr;
  ze_result_t (*init_drivers)(std::uint32_t* count, ze_driver_handle_t* drivers,
                              InitDriverTypeDesc* desc) = nullptr;
  ze_result_t (*driver_get)(std::uint32_t* count, ze_driver_handle_t* drivers) = nullptr;
  ze_result_t (*driver_get_properties)(ze_driver_handle_t, DriverProperties*) = nullptr;
  ze_result_t (*driver_get_api_version)(ze_driver_handle_t, std::uint32_t* version) = nullptr;
  ze_result_t (*device_get)(ze_driver_handle_t, std::uint32_t* count,
                            ze_device_handle_t* devices) = nullptr;
  ze_result_t (*device_get_properties)(ze_device_handle_t, DeviceProperties*) = nullptr;
  ze_result_t (*device_get_memory_properties)(ze_device_handle_t, std::uint32_t* count,
                                              DeviceMemoryProperties*) = nullptr;
  ze_result_t (*device_pci_get_properties_ext)(ze_device_handle_t, PciExtProperties*) = nullptr;
  ze_result_t (*device_get_sub_devices)(ze_device_handle_t, std::uint32_t* count,
                                        ze_device_handle_t* devices) = nullptr;

  /// The entry points, or nullopt naming the first required one missing in *missing.
  static std::optional<LevelZeroApi> load(const DynamicLibrary& lib, std::string* missing) {
    LevelZeroApi api;
    EntryPoints e(lib);
    e.need(api.init, "zeInit");
    e.need(api.driver_get, "zeDriverGet");
    e.need(api.device_get, "zeDeviceGet");
    e.need(api.device_get_properties, "zeDeviceGetProperties");
    *missing = e.missing().value_or("");
    if (e.missing()) return std::nullopt;
    e.get(api.init_drivers, "zeInitDrivers");
    e.get(api.driver_get_properties, "zeDriverGetProperties");
    e.get(api.driver_get_api_version, "zeDriverGetApiVersion");
    e.get(api.device_get_memory_properties, "zeDeviceGetMemoryProperties");
    e.get(api.device_pci_get_properties_ext, "zeDevicePciGetPropertiesExt");
    e.get(api.device_get_sub_devices, "zeDeviceGetSubDevices");
    return api;
  }
};

}  // namespace gpudoctor::level_zero
