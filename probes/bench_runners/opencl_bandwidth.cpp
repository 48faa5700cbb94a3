#include "bench_runners/opencl_bandwidth.hpp"

#include <vector>

#include "bench_runners/cl_queue.hpp"
#include "bench_runners/copy_timer.hpp"
#include "api/opencl/opencl_codes.hpp"

namespace gpudoctor::bench {

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
  ClQueue cl{api};
  if (auto e = cl.open(platform, device)) {
    bw.error = *e;
    return bw;
  }
  if (auto e = cl.make_buffers(2, bytes)) {
    bw.error = *e;
    return bw;
  }
  std::vector<unsigned char> host(bytes, 1);
  bw.host_to_device_gbs = copy_gbs(bytes, [&] {
    return api.enqueue_write_buffer(cl.queue(), cl.buffer(0), CL_TRUE, 0, bytes, host.data(), 0,
                                    nullptr, nullptr) == CL_SUCCESS;
  });
  bw.device_to_host_gbs = copy_gbs(bytes, [&] {
    return api.enqueue_read_buffer(cl.queue(), cl.buffer(0), CL_TRUE, 0, bytes, host.data(), 0,
                                   nullptr, nullptr) == CL_SUCCESS;
  });
  if (copy_buffer != nullptr) {
    bw.device_to_device_gbs = copy_gbs(bytes, [&] {
      return copy_buffer(cl.queue(), cl.buffer(0), cl.buffer(1), 0, 0, bytes, 0, nullptr,
                         nullptr) == CL_SUCCESS &&
             api.finish(cl.queue()) == CL_SUCCESS;
    });
  }
  return bw;
}

}  // namespace gpudoctor::bench
