#pragma once
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_model.hpp"
#include "opencl/opencl_api.hpp"

namespace gpudoctor::bench {

/// CLBlast's SGEMM on one OpenCL device as its own series (what an OpenCL framework gets), timed
/// and checked as every series is (blas_point.hpp); nullopt when no CLBlast library opens.
/// `base` names the device (api, device, library, traits). Isolated child only, in the child
/// whose loader sees the one ICD the device comes from.
std::optional<BenchSeries> clblast_series(const opencl::OpenClApi& api, cl_platform_id platform,
                                          cl_device_id device, const BenchSeries& base,
                                          const std::vector<int>& sizes);

}  // namespace gpudoctor::bench
