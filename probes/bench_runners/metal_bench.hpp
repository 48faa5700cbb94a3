#pragma once
#include <string>
#include <vector>

#include "bench/bench_model.hpp"
#include "core/isolate.hpp"
#include "metal/metal_calls.hpp"
#include "metal/metal_objc.hpp"

namespace gpudoctor::bench {

/// Every Metal device's sweep with gpudoctor's MSL kernel and, when `mps`, with
/// MPSMatrixMultiplication as the vendor-BLAS series (blas "MPS"): the GPU-vs-CPU curve a Mac
/// draws. Plain C++ over MetalCalls, so the unit tests drive it through a fake.
std::vector<BenchSeries> metal_series(metal::MetalCalls& calls, const std::string& library,
                                      const std::vector<int>& sizes, bool mps);

/// The body of the Metal bench job: opens the runtime and Metal, then metal_series.
/// Isolated child only.
JobReport metal_bench(const metal::MetalLibraries& libraries, const std::vector<int>& sizes,
                      bool mps);

}  // namespace gpudoctor::bench
