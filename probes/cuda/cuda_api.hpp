#pragma once
// The CUDA driver API entry points gpudoctor calls, as a struct of function pointers filled
// from libcuda at run time. Types, values and versioned symbol names are copied from cuda.h of
// the CUDA 13.0 toolkit (CUDA_VERSION 13000); nothing here needs that header or links libcuda.
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "core/dynlib.hpp"

namespace gpudoctor::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;  // CUdeviceptr_v2 on 64-bit hosts
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUevent = struct CUevent_st*;
using CUstream = struct CUstream_st*;
struct CUuuid {
  unsigned char bytes[16];
};

inline constexpr CUresult kSuccess = 0;
inline constexpr CUresult kErrorStubLibrary = 34;
inline constexpr CUresult kErrorNoDevice = 100;

/// CUdevice_attribute values (enum CUdevice_attribute_enum), only those read.
enum Attribute : int {
  kMaxThreadsPerBlock = 1,
  kMaxBlockDimX = 2,
  kMaxBlockDimY = 3,
  kMaxBlockDimZ = 4,
  kMaxGridDimX = 5,
  kMaxGridDimY = 6,
  kMaxGridDimZ = 7,
  kMaxSharedMemoryPerBlock = 8,
  kTotalConstantMemory = 9,
  kWarpSize = 10,
  kMaxPitch = 11,
  kMaxRegistersPerBlock = 12,
  kClockRate = 13,
  kTextureAlignment = 14,
  kGpuOverlap = 15,
  kMultiprocessorCount = 16,
  kKernelExecTimeout = 17,
  kIntegrated = 18,
  kCanMapHostMemory = 19,
  kComputeMode = 20,
  kMaximumTexture1dWidth = 21,
  kMaximumTexture2dWidth = 22,
  kMaximumTexture2dHeight = 23,
  kMaximumTexture3dWidth = 24,
  kMaximumTexture3dHeight = 25,
  kMaximumTexture3dDepth = 26,
  kMaximumTexture2dLayeredWidth = 27,
  kMaximumTexture2dLayeredHeight = 28,
  kMaximumTexture2dLayeredLayers = 29,
  kSurfaceAlignment = 30,
  kConcurrentKernels = 31,
  kEccEnabled = 32,
  kPciBusId = 33,
  kPciDeviceId = 34,
  kTccDriver = 35,
  kMemoryClockRate = 36,
  kGlobalMemoryBusWidth = 37,
  kL2CacheSize = 38,
  kMaxThreadsPerMultiprocessor = 39,
  kAsyncEngineCount = 40,
  kUnifiedAddressing = 41,
  kMaximumTexture1dLayeredWidth = 42,
  kMaximumTexture1dLayeredLayers = 43,
  kPciDomainId = 50,
  kComputeCapabilityMajor = 75,
  kComputeCapabilityMinor = 76,
  kMaxSharedMemoryPerMultiprocessor = 81,
  kMaxRegistersPerMultiprocessor = 82,
  kManagedMemory = 83,
  kComputePreemptionSupported = 90,
  kCooperativeLaunch = 95,
  kCooperativeMultiDeviceLaunch = 96,
  kMaxSharedMemoryPerBlockOptin = 97,
};

/// The entry points, by the symbol names drivers export. The _v2 names are those cuda.h's
/// #defines have resolved to since CUDA 3.2 (cuDeviceGetUuid_v2 since 11.4); CUDA 13's cuda.h
/// maps cuCtxCreate to _v4, but every driver still exports _v2, which is all this needs. Only
/// cuInit, cuDriverGetVersion, cuDeviceGetCount and cuDeviceGet are required; any other entry
/// point missing from an old or partial libcuda leaves a fact null or skips the smoke test.
struct CudaApi {
  CUresult (*init)(unsigned int flags) = nullptr;
  CUresult (*driver_get_version)(int* version) = nullptr;
  CUresult (*device_get_count)(int* count) = nullptr;
  CUresult (*device_get)(CUdevice* device, int ordinal) = nullptr;
  CUresult (*device_get_name)(char* name, int len, CUdevice dev) = nullptr;
  CUresult (*device_get_attribute)(int* value, int attribute, CUdevice dev) = nullptr;
  CUresult (*device_total_mem)(std::size_t* bytes, CUdevice dev) = nullptr;  // _v2
  CUresult (*device_get_uuid)(CUuuid* uuid, CUdevice dev) = nullptr;         // _v2, or v1
  CUresult (*get_error_name)(CUresult error, const char** name) = nullptr;
  CUresult (*get_error_string)(CUresult error, const char** text) = nullptr;

  CUresult (*ctx_create)(CUcontext* ctx, unsigned int flags, CUdevice dev) = nullptr;  // _v2
  CUresult (*ctx_destroy)(CUcontext ctx) = nullptr;                                    // _v2
  CUresult (*ctx_synchronize)() = nullptr;
  CUresult (*module_load_data)(CUmodule* module, const void* image) = nullptr;
  CUresult (*module_get_function)(CUfunction* fn, CUmodule module, const char* name) = nullptr;
  CUresult (*module_unload)(CUmodule module) = nullptr;
  CUresult (*mem_alloc)(CUdeviceptr* ptr, std::size_t bytes) = nullptr;                    // _v2
  CUresult (*mem_free)(CUdeviceptr ptr) = nullptr;                                         // _v2
  CUresult (*memcpy_htod)(CUdeviceptr dst, const void* src, std::size_t bytes) = nullptr;  // _v2
  CUresult (*memcpy_dtoh)(void* dst, CUdeviceptr src, std::size_t bytes) = nullptr;        // _v2
  CUresult (*launch_kernel)(CUfunction fn, unsigned int grid_x, unsigned int grid_y,
                            unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                            unsigned int block_z, unsigned int shared_bytes, CUstream stream,
                            void** params, void** extra) = nullptr;
  CUresult (*event_create)(CUevent* event, unsigned int flags) = nullptr;
  CUresult (*event_record)(CUevent event, CUstream stream) = nullptr;
  CUresult (*event_synchronize)(CUevent event) = nullptr;
  CUresult (*event_elapsed_time)(float* ms, CUevent start, CUevent end) = nullptr;
  CUresult (*event_destroy)(CUevent event) = nullptr;  // _v2

  /// The core entry points, or nullopt naming the first one missing in *missing.
  static std::optional<CudaApi> load(const DynamicLibrary& lib, std::string* missing) {
    CudaApi api;
    EntryPoints e(lib);
    e.need(api.init, "cuInit");
    e.need(api.driver_get_version, "cuDriverGetVersion");
    e.need(api.device_get_count, "cuDeviceGetCount");
    e.need(api.device_get, "cuDeviceGet");
    *missing = e.missing().value_or("");
    if (e.missing()) return std::nullopt;
    e.get(api.device_get_name, "cuDeviceGetName");
    e.get(api.device_get_attribute, "cuDeviceGetAttribute");
    e.get(api.device_total_mem, "cuDeviceTotalMem_v2");
    if (!e.get(api.device_get_uuid, "cuDeviceGetUuid_v2")) {
      e.get(api.device_get_uuid, "cuDeviceGetUuid");
    }
    e.get(api.get_error_name, "cuGetErrorName");
    e.get(api.get_error_string, "cuGetErrorString");
    e.get(api.ctx_create, "cuCtxCreate_v2");
    e.get(api.ctx_destroy, "cuCtxDestroy_v2");
    e.get(api.ctx_synchronize, "cuCtxSynchronize");
    e.get(api.module_load_data, "cuModuleLoadData");
    e.get(api.module_get_function, "cuModuleGetFunction");
    e.get(api.module_unload, "cuModuleUnload");
    e.get(api.mem_alloc, "cuMemAlloc_v2");
    e.get(api.mem_free, "cuMemFree_v2");
    e.get(api.memcpy_htod, "cuMemcpyHtoD_v2");
    e.get(api.memcpy_dtoh, "cuMemcpyDtoH_v2");
    e.get(api.launch_kernel, "cuLaunchKernel");
    e.get(api.event_create, "cuEventCreate");
    e.get(api.event_record, "cuEventRecord");
    e.get(api.event_synchronize, "cuEventSynchronize");
    if (!e.get(api.event_elapsed_time, "cuEventElapsedTime_v2")) {
      e.get(api.event_elapsed_time, "cuEventElapsedTime");
    }
    e.get(api.event_destroy, "cuEventDestroy_v2");
    return api;
  }

  /// The entry points the smoke test needs, or the first one missing.
  std::optional<std::string> smoke_missing() const {
    const std::pair<bool, const char*> need[] = {
        {ctx_create != nullptr, "cuCtxCreate_v2"},
        {ctx_destroy != nullptr, "cuCtxDestroy_v2"},
        {ctx_synchronize != nullptr, "cuCtxSynchronize"},
        {module_load_data != nullptr, "cuModuleLoadData"},
        {module_get_function != nullptr, "cuModuleGetFunction"},
        {mem_alloc != nullptr, "cuMemAlloc_v2"},
        {mem_free != nullptr, "cuMemFree_v2"},
        {memcpy_htod != nullptr, "cuMemcpyHtoD_v2"},
        {memcpy_dtoh != nullptr, "cuMemcpyDtoH_v2"},
        {launch_kernel != nullptr, "cuLaunchKernel"},
        {event_create != nullptr, "cuEventCreate"},
        {event_record != nullptr, "cuEventRecord"},
        {event_synchronize != nullptr, "cuEventSynchronize"},
        {event_elapsed_time != nullptr, "cuEventElapsedTime"},
    };
    for (const auto& [present, name] : need) {
      if (!present) return std::string(name);
    }
    return std::nullopt;
  }
};

}  // namespace gpudoctor::cuda
