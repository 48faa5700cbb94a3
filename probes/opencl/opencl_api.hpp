#pragma once
// The few OpenCL entry points gpudoctor calls, as a struct of function pointers filled from
// libOpenCL.so.1 at run time. Types and constants come from the Khronos headers; nothing
// links libOpenCL.
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <optional>
#include <string>
#include <type_traits>

#include "core/dynlib.hpp"

namespace gpudoctor::opencl {

// cl_nv_device_attribute_query: not in the Khronos headers.
inline constexpr cl_device_info kDevicePciBusIdNv = 0x4008;
inline constexpr cl_device_info kDevicePciSlotIdNv = 0x4009;
inline constexpr cl_device_info kDevicePciDomainIdNv = 0x400A;

/// ocl-icd's loader query, also answered by the Khronos loader.
using GetIcdLoaderInfoFn = cl_int(CL_API_CALL*)(cl_uint param_name, size_t size, void* value,
                                                size_t* size_ret);
inline constexpr cl_uint kIcdLoaderVersion = 2;
inline constexpr cl_uint kIcdLoaderName = 3;

struct OpenClApi {
  decltype(&::clGetPlatformIDs) get_platform_ids = nullptr;
  decltype(&::clGetPlatformInfo) get_platform_info = nullptr;
  decltype(&::clGetDeviceIDs) get_device_ids = nullptr;
  decltype(&::clGetDeviceInfo) get_device_info = nullptr;
  // Spelled out: the header marks it deprecated since OpenCL 1.1, yet every loader has it.
  void*(CL_API_CALL* get_extension_function_address)(const char* name) = nullptr;

  /// Every entry point, or nullopt naming the first one missing in *missing.
  static std::optional<OpenClApi> load(const DynamicLibrary& lib, std::string* missing) {
    OpenClApi api;
    auto need = [&](auto& fn, const char* name) {
      fn = lib.symbol<std::remove_pointer_t<std::remove_reference_t<decltype(fn)>>>(name);
      if (fn == nullptr && missing->empty()) *missing = name;
    };
    missing->clear();
    need(api.get_platform_ids, "clGetPlatformIDs");
    need(api.get_platform_info, "clGetPlatformInfo");
    need(api.get_device_ids, "clGetDeviceIDs");
    need(api.get_device_info, "clGetDeviceInfo");
    need(api.get_extension_function_address, "clGetExtensionFunctionAddress");
    if (!missing->empty()) return std::nullopt;
    return api;
  }
};

}  // namespace gpudoctor::opencl
