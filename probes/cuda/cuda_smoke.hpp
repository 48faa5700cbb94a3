#pragma once
#include <string>

#include "cuda/cuda_api.hpp"
#include "model/cuda.hpp"

namespace gpudoctor::cuda {

/// Runs the PTX matmul (n×n, fp32) on one device: JIT, copy in, launch, time with events, copy
/// back, compare with the CPU reference. "pass" or "fail" with the error or the failed call;
/// "skip" when this libcuda lacks an entry point the test needs. Called after cuInit succeeded.
SmokeResult run_matmul_smoke(const CudaApi& api, CUdevice device, const std::string& label, int n);

}  // namespace gpudoctor::cuda
