#pragma once
// The HIP runtime entry points gpudoctor calls, as a struct of function pointers filled from
// libamdhip64 at run time. Prototypes and values are copied from hip_runtime_api.h
// (https://github.com/ROCm/HIP/blob/develop/include/hip/hip_runtime_api.h, also in
// ROCm/rocm-systems); nothing here needs that header or links HIP. Device facts are read with
// hipDeviceGetAttribute, whose enum values are the same in HIP 5.x and 6.x, instead of
// hipDeviceProp_t, whose layout changed in HIP 6.0 (hipGetDevicePropertiesR0600).
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

#include "core/dynlib.hpp"

namespace gpudoctor::hip {

using hipError_t = int;

inline constexpr hipError_t kSuccess = 0;
inline constexpr hipError_t kErrorNoDevice = 100;  // hipErrorNoDevice
inline constexpr int kMemcpyHostToDevice = 1;       // hipMemcpyKind
inline constexpr int kMemcpyDeviceToHost = 2;

/// hipDeviceAttribute_t values, only those read. 0–87 follow CUDA's alphabetical list
/// (hipDeviceAttributeCudaCompatibleBegin = 0); AMD's own start at 10000.
enum Attribute : int {
  kClockRate = 5,
  kIntegrated = 16,
  kL2CacheSize = 19,
  kComputeCapabilityMajor = 23,
  kMaxThreadsPerBlock = 56,
  kMemoryBusWidth = 59,
  kMemoryClockRate = 60,
  kComputeCapabilityMinor = 61,
  kMultiprocessorCount = 63,
  kPciBusId = 67,
  kPciDeviceId = 68,
  kPciDomainId = 69,
  kMaxSharedMemoryPerBlock = 74,
  kWarpSize = 87,
  kIsLargeBar = 10011,
  kAsicRevision = 10012,
  kPhysicalMultiProcessorCount = 10015,  // HIP 6 and later
};

struct HipApi {
  hipError_t (*get_device_count)(int* count) = nullptr;
  hipError_t (*device_get_attribute)(int* value, int attribute, int device) = nullptr;
  hipError_t (*device_get_name)(char* name, int len, int device) = nullptr;
  hipError_t (*device_total_mem)(std::size_t* bytes, int device) = nullptr;
  hipError_t (*device_get_pci_bus_id)(char* bus_id, int len, int device) = nullptr;
  hipError_t (*runtime_get_version)(int* version) = nullptr;
  hipError_t (*driver_get_version)(int* version) = nullptr;
  const char* (*get_error_name)(hipError_t error) = nullptr;
  const char* (*get_error_string)(hipError_t error) = nullptr;
  // What the bench's rocBLAS series needs (hip_runtime_api.h; hipMemcpyKind in
  // include/hip/driver_types.h): device memory, copies, a wait.
  hipError_t (*set_device)(int device) = nullptr;
  hipError_t (*mem_alloc)(void** ptr, std::size_t bytes) = nullptr;
  hipError_t (*mem_free)(void* ptr) = nullptr;
  hipError_t (*mem_copy)(void* dst, const void* src, std::size_t bytes, int kind) = nullptr;
  hipError_t (*device_synchronize)() = nullptr;

  /// The entry points the bench needs are all there.
  bool bench_ready() const {
    return set_device != nullptr && mem_alloc != nullptr && mem_free != nullptr &&
           mem_copy != nullptr &&
           device_synchronize != nullptr;
  }

  /// The entry points, or nullopt naming the first required one missing in *missing.
  static std::optional<HipApi> load(const DynamicLibrary& lib, std::string* missing) {
    HipApi api;
    EntryPoints e(lib);
    e.need(api.get_device_count, "hipGetDeviceCount");
    e.need(api.device_get_attribute, "hipDeviceGetAttribute");
    *missing = e.missing().value_or("");
    if (e.missing()) return std::nullopt;
    e.get(api.device_get_name, "hipDeviceGetName");
    e.get(api.device_total_mem, "hipDeviceTotalMem");
    e.get(api.device_get_pci_bus_id, "hipDeviceGetPCIBusId");
    e.get(api.runtime_get_version, "hipRuntimeGetVersion");
    e.get(api.driver_get_version, "hipDriverGetVersion");
    e.get(api.get_error_name, "hipGetErrorName");
    e.get(api.get_error_string, "hipGetErrorString");
    e.get(api.set_device, "hipSetDevice");
    e.get(api.mem_alloc, "hipMalloc");
    e.get(api.mem_free, "hipFree");
    e.get(api.mem_copy, "hipMemcpy");
    e.get(api.device_synchronize, "hipDeviceSynchronize");
    return api;
  }
};

}  // namespace gpudoctor::hip
