#pragma once
// The NVML entry points gpudoctor calls, as a struct of function pointers filled from
// libnvidia-ml at run time. Types, values, buffer sizes and symbol names are copied from NVIDIA's
// nvml.h (NVIDIA/nvidia-settings src/nvml.h, NVML API 12; NVIDIA/go-nvml gen/nvml/nvml.h,
// NVML 12.2.140); nothing here needs that header or links libnvidia-ml.
#include <optional>
#include <string>
#include <type_traits>

#include "core/dynlib.hpp"

namespace gpudoctor::nvml {

using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;

inline constexpr nvmlReturn_t kSuccess = 0;
inline constexpr nvmlReturn_t kErrorInsufficientSize = 7;

// Buffer sizes (NVML_*_BUFFER_SIZE).
inline constexpr unsigned kSystemVersionBuffer = 80;  // driver and NVML version
inline constexpr unsigned kDeviceNameBuffer = 96;     // NVML_DEVICE_NAME_V2_BUFFER_SIZE
inline constexpr unsigned kDeviceUuidBuffer = 96;     // NVML_DEVICE_UUID_V2_BUFFER_SIZE
inline constexpr unsigned kDeviceSerialBuffer = 30;
inline constexpr unsigned kDeviceVbiosBuffer = 32;

// nvmlClockType_t, nvmlMemoryErrorType_t, nvmlEccCounterType_t, nvmlTemperatureSensors_t.
inline constexpr unsigned kClockGraphics = 0;
inline constexpr unsigned kClockSm = 1;
inline constexpr unsigned kClockMem = 2;
inline constexpr unsigned kMemoryErrorCorrected = 0;
inline constexpr unsigned kMemoryErrorUncorrected = 1;
inline constexpr unsigned kVolatileEcc = 0;
inline constexpr unsigned kAggregateEcc = 1;
inline constexpr unsigned kTemperatureGpu = 0;
// nvmlTemperatureThresholds_t, nvmlPageRetirementCause_t (go-nvml gen/nvml/nvml.h, NVML API 13).
inline constexpr unsigned kTemperatureThresholdShutdown = 0;
inline constexpr unsigned kTemperatureThresholdSlowdown = 1;
inline constexpr unsigned kRetiredMultipleSingleBit = 0;
inline constexpr unsigned kRetiredDoubleBit = 1;
/// NVML_SYSTEM_PROCESS_NAME_BUFFER_SIZE is not in nvml.h; nvmlSystemGetProcessName crops the
/// name to the length given, so this is only how much of a path gpudoctor keeps.
inline constexpr unsigned kProcessNameBuffer = 256;

/// usedGpuMemory when the driver cannot tell (NVML_VALUE_NOT_AVAILABLE as unsigned long long).
inline constexpr unsigned long long kValueNotAvailable = ~0ull;

struct nvmlPciInfo_t {
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];
};

struct nvmlMemory_t {  // v1
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

struct nvmlMemory_v2_t {
  unsigned int version;
  unsigned long long total;
  unsigned long long reserved;
  unsigned long long free;
  unsigned long long used;
};
/// nvmlMemory_v2 = NVML_STRUCT_VERSION(Memory, 2): the struct size with the version in bits 24+.
inline constexpr unsigned kMemoryV2Version = sizeof(nvmlMemory_v2_t) | (2u << 24);

struct nvmlUtilization_t {
  unsigned int gpu;     ///< percent of the last sample period a kernel was executing
  unsigned int memory;  ///< percent of it device memory was read or written
};

struct nvmlProcessInfo_v1_t {
  unsigned int pid;
  unsigned long long usedGpuMemory;
};

struct nvmlProcessInfo_v2_t {  // what the _v2 and _v3 process queries fill
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
};

using ProcessesV2Fn = nvmlReturn_t(nvmlDevice_t, unsigned int*, nvmlProcessInfo_v2_t*);
using ProcessesV1Fn = nvmlReturn_t(nvmlDevice_t, unsigned int*, nvmlProcessInfo_v1_t*);

/// Every entry point but nvmlInit may be missing from an old driver's NVML; a missing one
/// leaves its facts null.
struct NvmlApi {
  nvmlReturn_t (*init)() = nullptr;  // nvmlInit_v2, else nvmlInit
  nvmlReturn_t (*shutdown)() = nullptr;
  const char* (*error_string)(nvmlReturn_t) = nullptr;
  nvmlReturn_t (*system_get_driver_version)(char*, unsigned) = nullptr;
  nvmlReturn_t (*system_get_nvml_version)(char*, unsigned) = nullptr;
  nvmlReturn_t (*system_get_cuda_driver_version)(int*) = nullptr;                 // _v2, else v1
  nvmlReturn_t (*device_get_count)(unsigned*) = nullptr;                          // _v2
  nvmlReturn_t (*device_get_handle_by_index)(unsigned, nvmlDevice_t*) = nullptr;  // _v2
  nvmlReturn_t (*device_get_name)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*device_get_uuid)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*device_get_serial)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*device_get_vbios_version)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*device_get_pci_info)(nvmlDevice_t, nvmlPciInfo_t*) = nullptr;  // _v3, else _v2
  nvmlReturn_t (*device_get_architecture)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*device_get_cuda_compute_capability)(nvmlDevice_t, int*, int*) = nullptr;
  nvmlReturn_t (*device_get_memory_info_v2)(nvmlDevice_t, nvmlMemory_v2_t*) = nullptr;
  nvmlReturn_t (*device_get_memory_info)(nvmlDevice_t, nvmlMemory_t*) = nullptr;
  nvmlReturn_t (*device_get_temperature)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
  nvmlReturn_t (*device_get_power_usage)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*device_get_power_limit)(nvmlDevice_t, unsigned*) = nullptr;  // enforced
  nvmlReturn_t (*device_get_clock_info)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
  nvmlReturn_t (*device_get_max_clock_info)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
  nvmlReturn_t (*device_get_curr_pcie_link_generation)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*device_get_max_pcie_link_generation)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*device_get_curr_pcie_link_width)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*device_get_max_pcie_link_width)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*device_get_ecc_mode)(nvmlDevice_t, unsigned*, unsigned*) = nullptr;
  nvmlReturn_t (*device_get_total_ecc_errors)(nvmlDevice_t, unsigned, unsigned,
                                              unsigned long long*) = nullptr;
  nvmlReturn_t (*device_get_persistence_mode)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*device_get_mig_mode)(nvmlDevice_t, unsigned*, unsigned*) = nullptr;
  nvmlReturn_t (*device_get_compute_mode)(nvmlDevice_t, unsigned*) = nullptr;
  /// nvmlDeviceGetCurrentClocksEventReasons (NVML 12.2+), else the older ...ThrottleReasons.
  nvmlReturn_t (*device_get_clock_event_reasons)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*device_get_utilization_rates)(nvmlDevice_t, nvmlUtilization_t*) = nullptr;
  nvmlReturn_t (*device_get_temperature_threshold)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
  /// nvmlDeviceGetRetiredPages(device, cause, *pageCount, *addresses): pageCount 0 asks the count.
  nvmlReturn_t (*device_get_retired_pages)(nvmlDevice_t, unsigned, unsigned*,
                                           unsigned long long*) = nullptr;
  nvmlReturn_t (*device_get_retired_pages_pending)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*device_get_remapped_rows)(nvmlDevice_t, unsigned*, unsigned*, unsigned*,
                                           unsigned*) = nullptr;
  nvmlReturn_t (*system_get_process_name)(unsigned, char*, unsigned) = nullptr;
  ProcessesV2Fn* compute_processes_v2 = nullptr;   // _v3, else _v2
  ProcessesV1Fn* compute_processes_v1 = nullptr;   // the unversioned name
  ProcessesV2Fn* graphics_processes_v2 = nullptr;  // _v3, else _v2
  ProcessesV1Fn* graphics_processes_v1 = nullptr;

  /// nullopt with *missing = "nvmlInit_v2" when the library has no init entry point.
  static std::optional<NvmlApi> load(const DynamicLibrary& lib, std::string* missing) {
    NvmlApi a;
    missing->clear();
    EntryPoints e(lib);
    if (!e.get(a.init, "nvmlInit_v2") && !e.get(a.init, "nvmlInit")) {
      *missing = "nvmlInit_v2";
      return std::nullopt;
    }
    e.get(a.shutdown, "nvmlShutdown");
    e.get(a.error_string, "nvmlErrorString");
    e.get(a.system_get_driver_version, "nvmlSystemGetDriverVersion");
    e.get(a.system_get_nvml_version, "nvmlSystemGetNVMLVersion");
    e.get(a.system_get_cuda_driver_version, "nvmlSystemGetCudaDriverVersion_v2") ||
        e.get(a.system_get_cuda_driver_version, "nvmlSystemGetCudaDriverVersion");
    e.get(a.device_get_count, "nvmlDeviceGetCount_v2") ||
        e.get(a.device_get_count, "nvmlDeviceGetCount");
    e.get(a.device_get_handle_by_index, "nvmlDeviceGetHandleByIndex_v2") ||
        e.get(a.device_get_handle_by_index, "nvmlDeviceGetHandleByIndex");
    e.get(a.device_get_name, "nvmlDeviceGetName");
    e.get(a.device_get_uuid, "nvmlDeviceGetUUID");
    e.get(a.device_get_serial, "nvmlDeviceGetSerial");
    e.get(a.device_get_vbios_version, "nvmlDeviceGetVbiosVersion");
    e.get(a.device_get_pci_info, "nvmlDeviceGetPciInfo_v3") ||
        e.get(a.device_get_pci_info, "nvmlDeviceGetPciInfo_v2");
    e.get(a.device_get_architecture, "nvmlDeviceGetArchitecture");
    e.get(a.device_get_cuda_compute_capability, "nvmlDeviceGetCudaComputeCapability");
    e.get(a.device_get_memory_info_v2, "nvmlDeviceGetMemoryInfo_v2");
    e.get(a.device_get_memory_info, "nvmlDeviceGetMemoryInfo");
    e.get(a.device_get_temperature, "nvmlDeviceGetTemperature");
    e.get(a.device_get_power_usage, "nvmlDeviceGetPowerUsage");
    e.get(a.device_get_power_limit, "nvmlDeviceGetEnforcedPowerLimit");
    e.get(a.device_get_clock_info, "nvmlDeviceGetClockInfo");
    e.get(a.device_get_max_clock_info, "nvmlDeviceGetMaxClockInfo");
    e.get(a.device_get_curr_pcie_link_generation, "nvmlDeviceGetCurrPcieLinkGeneration");
    e.get(a.device_get_max_pcie_link_generation, "nvmlDeviceGetMaxPcieLinkGeneration");
    e.get(a.device_get_curr_pcie_link_width, "nvmlDeviceGetCurrPcieLinkWidth");
    e.get(a.device_get_max_pcie_link_width, "nvmlDeviceGetMaxPcieLinkWidth");
    e.get(a.device_get_ecc_mode, "nvmlDeviceGetEccMode");
    e.get(a.device_get_total_ecc_errors, "nvmlDeviceGetTotalEccErrors");
    e.get(a.device_get_persistence_mode, "nvmlDeviceGetPersistenceMode");
    e.get(a.device_get_mig_mode, "nvmlDeviceGetMigMode");
    e.get(a.device_get_compute_mode, "nvmlDeviceGetComputeMode");
    e.get(a.device_get_clock_event_reasons, "nvmlDeviceGetCurrentClocksEventReasons") ||
        e.get(a.device_get_clock_event_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
    e.get(a.device_get_utilization_rates, "nvmlDeviceGetUtilizationRates");
    e.get(a.device_get_temperature_threshold, "nvmlDeviceGetTemperatureThreshold");
    e.get(a.device_get_retired_pages, "nvmlDeviceGetRetiredPages");
    e.get(a.device_get_retired_pages_pending, "nvmlDeviceGetRetiredPagesPendingStatus");
    e.get(a.device_get_remapped_rows, "nvmlDeviceGetRemappedRows");
    e.get(a.system_get_process_name, "nvmlSystemGetProcessName");
    e.get(a.compute_processes_v2, "nvmlDeviceGetComputeRunningProcesses_v3") ||
        e.get(a.compute_processes_v2, "nvmlDeviceGetComputeRunningProcesses_v2");
    e.get(a.compute_processes_v1, "nvmlDeviceGetComputeRunningProcesses");
    e.get(a.graphics_processes_v2, "nvmlDeviceGetGraphicsRunningProcesses_v3") ||
        e.get(a.graphics_processes_v2, "nvmlDeviceGetGraphicsRunningProcesses_v2");
    e.get(a.graphics_processes_v1, "nvmlDeviceGetGraphicsRunningProcesses");
    return a;
  }
};

}  // namespace gpudoctor::nvml
