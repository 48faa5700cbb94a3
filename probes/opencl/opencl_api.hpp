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

  // What the matmul (opencl_matmul.hpp) needs; loaded when present, checked by compute_missing().
  decltype(&::clCreateContext) create_context = nullptr;
  decltype(&::clReleaseContext) release_context = nullptr;
  // The OpenCL 1.x call, deprecated in 2.0 yet in every loader, unlike its 2.0 replacement.
  cl_command_queue(CL_API_CALL* create_command_queue)(cl_context, cl_device_id,
                                                      cl_command_queue_properties,
                                                      cl_int*) = nullptr;
  decltype(&::clReleaseCommandQueue) release_command_queue = nullptr;
  decltype(&::clCreateProgramWithSource) create_program_with_source = nullptr;
  decltype(&::clBuildProgram) build_program = nullptr;
  decltype(&::clGetProgramBuildInfo) get_program_build_info = nullptr;
  decltype(&::clReleaseProgram) release_program = nullptr;
  decltype(&::clCreateKernel) create_kernel = nullptr;
  decltype(&::clReleaseKernel) release_kernel = nullptr;
  decltype(&::clSetKernelArg) set_kernel_arg = nullptr;
  decltype(&::clCreateBuffer) create_buffer = nullptr;
  decltype(&::clReleaseMemObject) release_mem_object = nullptr;
  decltype(&::clEnqueueWriteBuffer) enqueue_write_buffer = nullptr;
  decltype(&::clEnqueueReadBuffer) enqueue_read_buffer = nullptr;
  decltype(&::clEnqueueNDRangeKernel) enqueue_nd_range_kernel = nullptr;
  decltype(&::clFinish) finish = nullptr;
  decltype(&::clWaitForEvents) wait_for_events = nullptr;
  decltype(&::clGetEventProfilingInfo) get_event_profiling_info = nullptr;
  decltype(&::clReleaseEvent) release_event = nullptr;
  /// The first compute entry point this loader lacks, or nullopt when it has them all.
  std::optional<std::string> compute_missing() const { return compute_missing_; }

  /// Every entry point, or nullopt naming the first one missing in *missing.
  static std::optional<OpenClApi> load(const DynamicLibrary& lib, std::string* missing) {
    OpenClApi api;
    EntryPoints e(lib);
    e.need(api.get_platform_ids, "clGetPlatformIDs");
    e.need(api.get_platform_info, "clGetPlatformInfo");
    e.need(api.get_device_ids, "clGetDeviceIDs");
    e.need(api.get_device_info, "clGetDeviceInfo");
    e.need(api.get_extension_function_address, "clGetExtensionFunctionAddress");
    *missing = e.missing().value_or("");
    if (e.missing()) return std::nullopt;
    api.load_compute(lib);
    return api;
  }

 private:
  void load_compute(const DynamicLibrary& lib) {
    EntryPoints e(lib);
    e.need(create_context, "clCreateContext");
    e.need(release_context, "clReleaseContext");
    e.need(create_command_queue, "clCreateCommandQueue");
    e.need(release_command_queue, "clReleaseCommandQueue");
    e.need(create_program_with_source, "clCreateProgramWithSource");
    e.need(build_program, "clBuildProgram");
    e.need(get_program_build_info, "clGetProgramBuildInfo");
    e.need(release_program, "clReleaseProgram");
    e.need(create_kernel, "clCreateKernel");
    e.need(release_kernel, "clReleaseKernel");
    e.need(set_kernel_arg, "clSetKernelArg");
    e.need(create_buffer, "clCreateBuffer");
    e.need(release_mem_object, "clReleaseMemObject");
    e.need(enqueue_write_buffer, "clEnqueueWriteBuffer");
    e.need(enqueue_read_buffer, "clEnqueueReadBuffer");
    e.need(enqueue_nd_range_kernel, "clEnqueueNDRangeKernel");
    e.need(finish, "clFinish");
    e.need(wait_for_events, "clWaitForEvents");
    e.need(get_event_profiling_info, "clGetEventProfilingInfo");
    e.need(release_event, "clReleaseEvent");
    compute_missing_ = e.missing();
  }

  std::optional<std::string> compute_missing_;
};

}  // namespace gpudoctor::opencl
