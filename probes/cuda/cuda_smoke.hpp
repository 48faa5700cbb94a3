#pragma once
#include <string>

#include "cuda/cuda_api.hpp"
#include "model/cuda.hpp"
#include "smoke/matmul_request.hpp"

namespace gpudoctor::cuda {

/// Runs the PTX matmul (req.n × req.n, fp32) on one device: JIT, copy in, launches timed as
/// smoke/timed_runs.hpp times every series (kernel_ms the best), copy back, and when req.verify
/// compare with the CPU reference. "pass" or "fail" with the error or the failed call,
/// "unverified" when not asked to compare; "skip" when this libcuda lacks an entry point the test
/// needs. Called after cuInit succeeded.
SmokeResult run_matmul_smoke(const CudaApi& api, CUdevice device, const std::string& label,
                             const smoke::MatmulRequest& req);

}  // namespace gpudoctor::cuda
