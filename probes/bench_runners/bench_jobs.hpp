#pragma once
// `gpudoctor bench`'s isolated children: one per CPU BLAS (OpenBLAS, MKL), one per OpenCL ICD
// (gpudoctor's kernel, then CLBlast), one per Vulkan driver, one for CUDA (the PTX kernel, then
// cuBLAS), one for ROCm (rocBLAS); run one after the other, each with its own deadline.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "bench/bench_model.hpp"
#include "bench/vendor_blas.hpp"
#include "core/isolate.hpp"
#include "probe_context.hpp"

namespace gpudoctor::bench {

struct BenchPlan {
  std::vector<int> sizes;
  std::vector<std::string> backends;  ///< opencl, vulkan, cuda, rocm; empty: all of them
  std::string cpu_name = "CPU";
  VendorBlasPaths vendor_blas;  ///< where cuBLAS, rocBLAS and MKL may be (vendor_blas_paths)
  /// false (--no-vendor-blas): no CLBlast, cuBLAS, rocBLAS or MKL series
  bool vendor_series = true;
};

/// The CPU BLAS libraries first, then the GPU APIs. The ICDs and driver manifests are the ones
/// the query probes would load (same discovery, same de-duplication). None that loads a driver unless
/// ctx.live.
std::vector<IsolatedJob> bench_jobs(const ProbeContext& ctx, const BenchPlan& plan);

struct BenchRun {
  std::vector<BenchSeries> series;
  std::vector<ProbeOutcome> jobs;
};

/// Called before each job starts: its index, the number of jobs, the job.
using BenchProgress = std::function<void(std::size_t, std::size_t, const IsolatedJob&)>;

/// One job at a time: CPU drivers (PoCL, lavapipe) and the CPU BLAS share the cores, and would
/// slow each other down if timed together. A job that crashes, hangs past `per_job` or sends
/// back garbage leaves its outcome and no series.
BenchRun run_bench(std::vector<IsolatedJob> jobs, std::chrono::milliseconds per_job,
                   const BenchProgress& progress);

}  // namespace gpudoctor::bench
