#include "bench_runners/opencl_bandwidth.hpp"

#include <vector>

#include "bench_runners/copy_timer.hpp"
#include "api/opencl/opencl_codes.hpp"

namespace gpudoctor::bench {

namespace {

/// The context, queue and two device buffers, released whichever way the measurement ends.
struct ClObjects {
  const opencl::OpenClApi& api;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_mem buffers[2] = {nullptr, nullptr};

  ~ClObjects() {
    for (cl_mem b : buffers) {
      if (b != nullptr) api.release_mem_object(b);
    }
    if (queue != nullptr) api.release_command_queue(queue);
    if (context != nullptr) api.release_context(context);
  }
};

}  // namespace

Bandwidth opencl_bandwidth(const opencl::OpenClApi& api, const DynamicLibrary& loader,
                           cl_platform_id platform, cl_device_id device, std::size_t bytes) {
  Bandwidth bw;
  bw.bytes = bytes;
  auto* copy_buffer =
      loader.symbol<std::remove_pointer_t<decltype(&::clEnqueueCopyBuffer)>>("clEnqueueCopyBuffer");
  if (auto missing = api.compute_missing()) {
    bw.error = "the loader has no " + *missing;
    return bw;
  }
  ClObjects cl{api};
  cl_int rc = CL_SUCCESS;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(platform), 0};
  cl.context = api.create_context(props, 1, &device, nullptr, nullptr, &rc);
  if (cl.context == nullptr) {
    bw.error = cl_call_failed("clCreateContext", rc);
    return bw;
  }
  cl.queue = api.create_command_queue(cl.context, device, 0, &rc);
  if (cl.queue == nullptr) {
    bw.error = cl_call_failed("clCreateCommandQueue", rc);
    return bw;
  }
  for (cl_mem& b : cl.buffers) {
    b = api.create_buffer(cl.context, CL_MEM_READ_WRITE, bytes, nullptr, &rc);
    if (b == nullptr) {
      bw.error = cl_call_failed("clCreateBuffer", rc);
      return bw;
    }
  }
  std::vector<unsigned char> host(bytes, 1);
  bw.host_to_device_gbs = copy_gbs(bytes, [&] {
    return api.enqueue_write_buffer(cl.queue, cl.buffers[0], CL_TRUE, 0, bytes, host.data(), 0,
                                    nullptr, nullptr) == CL_SUCCESS;
  });
  bw.device_to_host_gbs = copy_gbs(bytes, [&] {
    return api.enqueue_read_buffer(cl.queue, cl.buffers[0], CL_TRUE, 0, bytes, host.data(), 0,
                                   nullptr, nullptr) == CL_SUCCESS;
  });
  if (copy_buffer != nullptr) {
    bw.device_to_device_gbs = copy_gbs(bytes, [&] {
      return copy_buffer(cl.queue, cl.buffers[0], cl.buffers[1], 0, 0, bytes, 0, nullptr,
                         nullptr) == CL_SUCCESS &&
             api.finish(cl.queue) == CL_SUCCESS;
    });
  }
  return bw;
}

}  // namespace gpudoctor::bench
