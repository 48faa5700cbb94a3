#pragma once
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_model.hpp"
#include "cuda/cuda_api.hpp"

namespace gpudoctor::bench {

/// cuBLAS's SGEMM on one CUDA device as its own series (what PyTorch, JAX and TensorFlow get),
/// from the first of `candidates` that opens (bench/vendor_blas.hpp), timed and checked as every
/// series is (blas_point.hpp); nullopt when none opens. `base` names the device. Isolated child
/// only, after cuInit.
std::optional<BenchSeries> cublas_series(const cuda::CudaApi& api, cuda::CUdevice device,
                                         const BenchSeries& base,
                                         const std::vector<std::string>& candidates,
                                         const std::vector<int>& sizes);

}  // namespace gpudoctor::bench
