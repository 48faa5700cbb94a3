#pragma once
#include "bench/bench_model.hpp"
#include "core/dynlib.hpp"
#include "opencl/opencl_api.hpp"

namespace gpudoctor::bench {

/// Host→device (clEnqueueWriteBuffer from pageable memory), device→host (clEnqueueReadBuffer)
/// and on-device (clEnqueueCopyBuffer) copy rates, each a blocking copy of `bytes`. `loader` is
/// the libOpenCL the api came from (clEnqueueCopyBuffer is looked up there). Isolated child only.
Bandwidth opencl_bandwidth(const opencl::OpenClApi& api, const DynamicLibrary& loader,
                           cl_platform_id platform, cl_device_id device, std::size_t bytes);

}  // namespace gpudoctor::bench
