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
using ze_context_handle_t = struct ZeContextOpaque*;
using ze_module_handle_t = struct ZeModuleOpaque*;
using ze_module_build_log_handle_t = struct ZeModuleBuildLogOpaque*;
using ze_kernel_handle_t = struct ZeKernelOpaque*;
using ze_command_list_handle_t = struct ZeCommandListOpaque*;
using ze_command_queue_handle_t = struct ZeCommandQueueOpaque*;
using ze_event_handle_t = struct ZeEventOpaque*;
using ze_fence_handle_t = struct ZeFenceOpaque*;

inline constexpr ze_result_t kSuccess = 0;                      // ZE_RESULT_SUCCESS
inline constexpr ze_result_t kErrorUninitialized = 0x78000001;  // ZE_RESULT_ERROR_UNINITIALIZED
inline constexpr std::uint32_t kInitGpuOnly = 1;                // ZE_INIT_FLAG_GPU_ONLY

// ze_structure_type_t values.
inline constexpr std::uint32_t kStypeDriverProperties = 0x1;
inline constexpr std::uint32_t kStypeDeviceProperties = 0x3;
inline constexpr std::uint32_t kStypeDeviceMemoryProperties = 0x7;
inline constexpr std::uint32_t kStypePciExtProperties = 0x10008;
inline constexpr std::uint32_t kStypeInitDriverTypeDesc = 0x00020021;  // ze_init_driver_type_desc_t
inline constexpr std::uint32_t kStypeContextDesc = 0xd;
inline constexpr std::uint32_t kStypeCommandQueueDesc = 0xe;
inline constexpr std::uint32_t kStypeCommandListDesc = 0xf;
inline constexpr std::uint32_t kStypeDeviceMemAllocDesc = 0x15;
inline constexpr std::uint32_t kStypeModuleDesc = 0x1b;
inline constexpr std::uint32_t kStypeKernelDesc = 0x1d;

inline constexpr std::uint32_t kModuleFormatIlSpirv = 0;    // ZE_MODULE_FORMAT_IL_SPIRV
inline constexpr std::uint32_t kCommandQueueModeAsync = 2;  // ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS
inline constexpr std::uint64_t kWaitForever = UINT64_MAX;   // zeCommandQueueSynchronize's timeout

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
inline constexpr std::size_t kMaxUuid = 16;  // ZE_MAX_DEVICE_UUID_SIZE, ZE_MAX_DRIVER_UUID_SIZE

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
/// https://github.com/oneapi-src/level-zero/blob/v1.18.0/include/ze_api.h, the first loader with
/// it)
struct InitDriverTypeDesc {
  std::uint32_t stype = kStypeInitDriverTypeDesc;
  const void* next = nullptr;
  std::uint32_t flags = 0;  ///< ZE_INIT_DRIVER_TYPE_FLAG_GPU = 1
};

/// ze_context_desc_t
struct ContextDesc {
  std::uint32_t stype = kStypeContextDesc;
  const void* next = nullptr;
  std::uint32_t flags = 0;
};

/// ze_device_mem_alloc_desc_t
struct DeviceMemAllocDesc {
  std::uint32_t stype = kStypeDeviceMemAllocDesc;
  const void* next = nullptr;
  std::uint32_t flags = 0;
  std::uint32_t ordinal = 0;
};

/// ze_module_desc_t
struct ModuleDesc {
  std::uint32_t stype = kStypeModuleDesc;
  const void* next = nullptr;
  std::uint32_t format = kModuleFormatIlSpirv;
  std::size_t input_size = 0;
  const std::uint8_t* input = nullptr;
  const char* build_flags = nullptr;
  const void* constants = nullptr;  ///< const ze_module_constants_t*
};

/// ze_kernel_desc_t
struct KernelDesc {
  std::uint32_t stype = kStypeKernelDesc;
  const void* next = nullptr;
  std::uint32_t flags = 0;
  const char* name = nullptr;
};

/// ze_command_list_desc_t
struct CommandListDesc {
  std::uint32_t stype = kStypeCommandListDesc;
  const void* next = nullptr;
  std::uint32_t command_queue_group_ordinal = 0;
  std::uint32_t flags = 0;
};

/// ze_command_queue_desc_t
struct CommandQueueDesc {
  std::uint32_t stype = kStypeCommandQueueDesc;
  const void* next = nullptr;
  std::uint32_t ordinal = 0;
  std::uint32_t index = 0;
  std::uint32_t flags = 0;
  std::uint32_t mode = kCommandQueueModeAsync;
  std::uint32_t priority = 0;  ///< ZE_COMMAND_QUEUE_PRIORITY_NORMAL
};

/// ze_group_count_t
struct GroupCount {
  std::uint32_t x = 1;
  std::uint32_t y = 1;
  std::uint32_t z = 1;
};

/// The entry points of the smoke matmul (probes/level_zero/level_zero_matmul.cpp): a context,
/// device memory, a SPIR-V module and its kernel, a command list and a queue.
struct LevelZeroComputeApi {
  ze_result_t (*context_create)(ze_driver_handle_t, const ContextDesc*,
                                ze_context_handle_t*) = nullptr;
  ze_result_t (*context_destroy)(ze_context_handle_t) = nullptr;
  ze_result_t (*mem_alloc_device)(ze_context_handle_t, const DeviceMemAllocDesc*, std::size_t size,
                                  std::size_t alignment, ze_device_handle_t, void** out) = nullptr;
  ze_result_t (*mem_free)(ze_context_handle_t, void*) = nullptr;
  ze_result_t (*module_create)(ze_context_handle_t, ze_device_handle_t, const ModuleDesc*,
                               ze_module_handle_t*, ze_module_build_log_handle_t*) = nullptr;
  ze_result_t (*module_destroy)(ze_module_handle_t) = nullptr;
  ze_result_t (*module_build_log_get_string)(ze_module_build_log_handle_t, std::size_t* size,
                                             char* log) = nullptr;
  ze_result_t (*module_build_log_destroy)(ze_module_build_log_handle_t) = nullptr;
  ze_result_t (*kernel_create)(ze_module_handle_t, const KernelDesc*,
                               ze_kernel_handle_t*) = nullptr;
  ze_result_t (*kernel_destroy)(ze_kernel_handle_t) = nullptr;
  ze_result_t (*kernel_set_group_size)(ze_kernel_handle_t, std::uint32_t x, std::uint32_t y,
                                       std::uint32_t z) = nullptr;
  ze_result_t (*kernel_set_argument_value)(ze_kernel_handle_t, std::uint32_t index,
                                           std::size_t size, const void* value) = nullptr;
  ze_result_t (*command_list_create)(ze_context_handle_t, ze_device_handle_t,
                                     const CommandListDesc*, ze_command_list_handle_t*) = nullptr;
  ze_result_t (*command_list_destroy)(ze_command_list_handle_t) = nullptr;
  ze_result_t (*command_list_close)(ze_command_list_handle_t) = nullptr;
  ze_result_t (*command_list_reset)(ze_command_list_handle_t) = nullptr;
  ze_result_t (*command_list_append_memory_copy)(ze_command_list_handle_t, void* dst,
                                                 const void* src, std::size_t size,
                                                 ze_event_handle_t signal, std::uint32_t waits,
                                                 ze_event_handle_t* wait_events) = nullptr;
  ze_result_t (*command_list_append_barrier)(ze_command_list_handle_t, ze_event_handle_t signal,
                                             std::uint32_t waits,
                                             ze_event_handle_t* wait_events) = nullptr;
  ze_result_t (*command_list_append_launch_kernel)(ze_command_list_handle_t, ze_kernel_handle_t,
                                                   const GroupCount*, ze_event_handle_t signal,
                                                   std::uint32_t waits,
                                                   ze_event_handle_t* wait_events) = nullptr;
  ze_result_t (*command_queue_create)(ze_context_handle_t, ze_device_handle_t,
                                      const CommandQueueDesc*,
                                      ze_command_queue_handle_t*) = nullptr;
  ze_result_t (*command_queue_destroy)(ze_command_queue_handle_t) = nullptr;
  ze_result_t (*command_queue_execute_command_lists)(ze_command_queue_handle_t, std::uint32_t count,
                                                     ze_command_list_handle_t* lists,
                                                     ze_fence_handle_t fence) = nullptr;
  ze_result_t (*command_queue_synchronize)(ze_command_queue_handle_t,
                                           std::uint64_t timeout) = nullptr;

  /// The entry points, or nullopt naming the first one missing in *missing (the build log's
  /// two are optional).
  static std::optional<LevelZeroComputeApi> load(const DynamicLibrary& lib, std::string* missing) {
    LevelZeroComputeApi api;
    EntryPoints e(lib);
    e.need(api.context_create, "zeContextCreate");
    e.need(api.context_destroy, "zeContextDestroy");
    e.need(api.mem_alloc_device, "zeMemAllocDevice");
    e.need(api.mem_free, "zeMemFree");
    e.need(api.module_create, "zeModuleCreate");
    e.need(api.module_destroy, "zeModuleDestroy");
    e.need(api.kernel_create, "zeKernelCreate");
    e.need(api.kernel_destroy, "zeKernelDestroy");
    e.need(api.kernel_set_group_size, "zeKernelSetGroupSize");
    e.need(api.kernel_set_argument_value, "zeKernelSetArgumentValue");
    e.need(api.command_list_create, "zeCommandListCreate");
    e.need(api.command_list_destroy, "zeCommandListDestroy");
    e.need(api.command_list_close, "zeCommandListClose");
    e.need(api.command_list_reset, "zeCommandListReset");
    e.need(api.command_list_append_memory_copy, "zeCommandListAppendMemoryCopy");
    e.need(api.command_list_append_barrier, "zeCommandListAppendBarrier");
    e.need(api.command_list_append_launch_kernel, "zeCommandListAppendLaunchKernel");
    e.need(api.command_queue_create, "zeCommandQueueCreate");
    e.need(api.command_queue_destroy, "zeCommandQueueDestroy");
    e.need(api.command_queue_execute_command_lists, "zeCommandQueueExecuteCommandLists");
    e.need(api.command_queue_synchronize, "zeCommandQueueSynchronize");
    *missing = e.missing().value_or("");
    if (e.missing()) return std::nullopt;
    e.get(api.module_build_log_get_string, "zeModuleBuildLogGetString");
    e.get(api.module_build_log_destroy, "zeModuleBuildLogDestroy");
    return api;
  }
};

// ---- Sysman (zes_api.h of the same loader; layouts checked in tests/unit/level_zero_abi_test.cpp) ----
using zes_mem_handle_t = struct ZesMemOpaque*;
using zes_temp_handle_t = struct ZesTempOpaque*;
using zes_freq_handle_t = struct ZesFreqOpaque*;
using zes_engine_handle_t = struct ZesEngineOpaque*;

inline constexpr std::uint32_t kStypeZesEngineProperties = 0x5;   // ZES_STRUCTURE_TYPE_ENGINE_PROPERTIES
inline constexpr std::uint32_t kStypeZesFreqProperties = 0x9;     // ZES_STRUCTURE_TYPE_FREQ_PROPERTIES
inline constexpr std::uint32_t kStypeZesTempProperties = 0x14;    // ZES_STRUCTURE_TYPE_TEMP_PROPERTIES
inline constexpr std::uint32_t kStypeZesFreqState = 0x1b;         // ZES_STRUCTURE_TYPE_FREQ_STATE
inline constexpr std::uint32_t kStypeZesMemState = 0x1e;          // ZES_STRUCTURE_TYPE_MEM_STATE
inline constexpr std::uint32_t kZesTempSensorsGlobal = 0;         // ZES_TEMP_SENSORS_GLOBAL
inline constexpr std::uint32_t kZesTempSensorsGpu = 1;            // ZES_TEMP_SENSORS_GPU
inline constexpr std::uint32_t kZesFreqDomainGpu = 0;             // ZES_FREQ_DOMAIN_GPU
inline constexpr std::uint32_t kZesEngineGroupAll = 0;            // ZES_ENGINE_GROUP_ALL
inline constexpr std::uint32_t kZesEngineGroupComputeAll = 1;     // ZES_ENGINE_GROUP_COMPUTE_ALL

/// zes_mem_state_t
struct ZesMemState {
  std::uint32_t stype = kStypeZesMemState;
  const void* next = nullptr;
  std::uint32_t health = 0;
  std::uint64_t free = 0;
  std::uint64_t size = 0;
};

/// zes_temp_properties_t
struct ZesTempProperties {
  std::uint32_t stype = kStypeZesTempProperties;
  void* next = nullptr;
  std::uint32_t type = 0;
  std::uint8_t on_subdevice = 0;
  std::uint32_t subdevice_id = 0;
  double max_temperature = 0;
  std::uint8_t is_critical_temp_supported = 0;
  std::uint8_t is_threshold1_supported = 0;
  std::uint8_t is_threshold2_supported = 0;
};

/// zes_freq_properties_t
struct ZesFreqProperties {
  std::uint32_t stype = kStypeZesFreqProperties;
  void* next = nullptr;
  std::uint32_t type = 0;
  std::uint8_t on_subdevice = 0;
  std::uint32_t subdevice_id = 0;
  std::uint8_t can_control = 0;
  std::uint8_t is_throttle_event_supported = 0;
  double min = 0;
  double max = 0;
};

/// zes_freq_state_t
struct ZesFreqState {
  std::uint32_t stype = kStypeZesFreqState;
  const void* next = nullptr;
  double current_voltage = 0;
  double request = 0;
  double tdp = 0;
  double efficient = 0;
  double actual = 0;
  std::uint32_t throttle_reasons = 0;
};

/// zes_engine_properties_t
struct ZesEngineProperties {
  std::uint32_t stype = kStypeZesEngineProperties;
  void* next = nullptr;
  std::uint32_t type = 0;
  std::uint8_t on_subdevice = 0;
  std::uint32_t subdevice_id = 0;
};

/// zes_engine_stats_t
struct ZesEngineStats {
  std::uint64_t active_time = 0;  ///< microseconds
  std::uint64_t timestamp = 0;    ///< microseconds
};

/// The Sysman entry points of the loader, each optional (an old loader lacks some).
struct LevelZeroSysmanApi {
  ze_result_t (*enum_memory_modules)(ze_device_handle_t, std::uint32_t*, zes_mem_handle_t*) = nullptr;
  ze_result_t (*memory_get_state)(zes_mem_handle_t, ZesMemState*) = nullptr;
  ze_result_t (*enum_temperature_sensors)(ze_device_handle_t, std::uint32_t*,
                                          zes_temp_handle_t*) = nullptr;
  ze_result_t (*temperature_get_properties)(zes_temp_handle_t, ZesTempProperties*) = nullptr;
  ze_result_t (*temperature_get_state)(zes_temp_handle_t, double*) = nullptr;
  ze_result_t (*enum_frequency_domains)(ze_device_handle_t, std::uint32_t*,
                                        zes_freq_handle_t*) = nullptr;
  ze_result_t (*frequency_get_properties)(zes_freq_handle_t, ZesFreqProperties*) = nullptr;
  ze_result_t (*frequency_get_state)(zes_freq_handle_t, ZesFreqState*) = nullptr;
  ze_result_t (*enum_engine_groups)(ze_device_handle_t, std::uint32_t*,
                                    zes_engine_handle_t*) = nullptr;
  ze_result_t (*engine_get_properties)(zes_engine_handle_t, ZesEngineProperties*) = nullptr;
  ze_result_t (*engine_get_activity)(zes_engine_handle_t, ZesEngineStats*) = nullptr;

  static LevelZeroSysmanApi load(const DynamicLibrary& lib) {
    LevelZeroSysmanApi api;
    EntryPoints e(lib);
    e.get(api.enum_memory_modules, "zesDeviceEnumMemoryModules");
    e.get(api.memory_get_state, "zesMemoryGetState");
    e.get(api.enum_temperature_sensors, "zesDeviceEnumTemperatureSensors");
    e.get(api.temperature_get_properties, "zesTemperatureGetProperties");
    e.get(api.temperature_get_state, "zesTemperatureGetState");
    e.get(api.enum_frequency_domains, "zesDeviceEnumFrequencyDomains");
    e.get(api.frequency_get_properties, "zesFrequencyGetProperties");
    e.get(api.frequency_get_state, "zesFrequencyGetState");
    e.get(api.enum_engine_groups, "zesDeviceEnumEngineGroups");
    e.get(api.engine_get_properties, "zesEngineGetProperties");
    e.get(api.engine_get_activity, "zesEngineGetActivity");
    return api;
  }
};

/// ze_result_t names of the values a loader or driver returns at init and enumeration (ze_api.h).
inline std::optional<std::string> ze_result_name(ze_result_t rc) {
  switch (rc) {
    case 0:
      return "ZE_RESULT_SUCCESS";
    case 1:
      return "ZE_RESULT_NOT_READY";
    case 0x70000001:
      return "ZE_RESULT_ERROR_DEVICE_LOST";
    case 0x70000002:
      return "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY";
    case 0x70000003:
      return "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY";
    case 0x70000004:
      return "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE";
    case 0x70010000:
      return "ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS";
    case 0x70010001:
      return "ZE_RESULT_ERROR_NOT_AVAILABLE";
    case 0x78000001:
      return "ZE_RESULT_ERROR_UNINITIALIZED";
    case 0x78000002:
      return "ZE_RESULT_ERROR_UNSUPPORTED_VERSION";
    case 0x78000003:
      return "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE";
    case 0x78000004:
      return "ZE_RESULT_ERROR_INVALID_ARGUMENT";
    case 0x78000005:
      return "ZE_RESULT_ERROR_INVALID_NULL_HANDLE";
    case 0x78000007:
      return "ZE_RESULT_ERROR_INVALID_NULL_POINTER";
    case 0x7800000c:
      return "ZE_RESULT_ERROR_INVALID_ENUMERATION";
    case 0x7800000f:
      return "ZE_RESULT_ERROR_INVALID_NATIVE_BINARY";
    case 0x78000011:
      return "ZE_RESULT_ERROR_INVALID_KERNEL_NAME";
    case 0x78000013:
      return "ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION";
    case 0x78000015:
      return "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX";
    case 0x78000016:
      return "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE";
    case 0x7ffffffe:
      return "ZE_RESULT_ERROR_UNKNOWN";
    default:
      return std::nullopt;
  }
}

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
