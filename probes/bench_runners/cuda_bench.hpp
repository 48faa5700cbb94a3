#pragma once
#include <string>
#include <vector>

#include "core/isolate.hpp"
#include "cuda/cuda_probe.hpp"

namespace gpudoctor::bench {

/// The body of the CUDA bench job: the CUDA probe's own child run for the device facts, then on
/// every device the PTX matmul at each size (cuda/cuda_smoke.hpp) and its copy rates (pinned
/// host memory, as CUDA's bandwidthTest), then cuBLAS's SGEMM from the first of
/// `cublas_candidates` that opens (bench/vendor_blas.hpp). `libcuda` as the CUDA probe tries
/// it (tests name a fake's path). Isolated child only.
JobReport cuda_bench(const std::vector<int>& sizes,
                     const std::vector<std::string>& cublas_candidates,
                     const std::vector<std::string>& libcuda = cuda::JobOptions{}.libraries);

}  // namespace gpudoctor::bench
