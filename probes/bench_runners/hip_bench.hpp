#pragma once
#include <string>
#include <vector>

#include "core/isolate.hpp"
#include "rocm/hip_probe.hpp"

namespace gpudoctor::bench {

/// The body of the ROCm bench job: the HIP probe's own child run for the device facts, then on
/// every device rocBLAS's SGEMM (what PyTorch and TensorFlow get on ROCm) from the first of
/// `rocblas_candidates` that opens, timed and verified as every series is (blas_point.hpp).
/// gpudoctor has no HIP kernel of its own, so a device with no rocBLAS has no series.
/// `libhip` as the HIP probe tries it (tests name a fake's path). Isolated child only.
JobReport hip_bench(const std::vector<int>& sizes,
                    const std::vector<std::string>& rocblas_candidates,
                    const std::vector<std::string>& libhip = hip::JobOptions{}.libraries);

}  // namespace gpudoctor::bench
