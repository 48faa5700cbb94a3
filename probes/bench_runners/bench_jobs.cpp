#include "bench_runners/bench_jobs.hpp"

#include <algorithm>

#include "backends.hpp"
#include "bench_runners/blas_sweep.hpp"
#include "bench_runners/cuda_bench.hpp"
#include "bench_runners/hip_bench.hpp"
#include "bench_runners/metal_bench.hpp"
#include "bench_runners/level_zero_bench.hpp"
#include "bench_runners/opencl_bench.hpp"
#include "bench_runners/vulkan_bench.hpp"
#include "core/host_platform.hpp"
#include "core/paths.hpp"
#include "cuda/cuda_probe.hpp"
#include "level_zero/level_zero_probe.hpp"
#include "opencl/opencl_probe.hpp"
#include "platform/library_names.hpp"
#include "platform/platform.hpp"
#include "vulkan/vulkan_probe.hpp"

namespace gpudoctor::bench {

namespace {

constexpr std::string_view kBackendBlas = "blas";

/// The query probe's job for an ICD, with the bench as its body.
std::vector<IsolatedJob> opencl_jobs(const ProbeContext& ctx, const std::vector<int>& sizes,
                                     bool clblast) {
  auto jobs = opencl::jobs(ctx, opencl::discover(ctx));
  for (auto& job : jobs) {
    job.body = [icd = job.library.value_or(""), sizes, clblast] {
      return opencl_bench(icd, sizes, clblast);
    };
  }
  return jobs;
}

/// The query probe's job for a driver manifest (labelled with the manifest's file name), with
/// the bench as its body.
std::vector<IsolatedJob> vulkan_jobs(const ProbeContext& ctx, const std::vector<int>& sizes) {
  const VulkanInfo found = vulkan::discover(ctx);
  auto jobs = vulkan::jobs(ctx, found);
  for (auto& job : jobs) {
    auto m = std::find_if(found.manifests.begin(), found.manifests.end(), [&](const auto& m) {
      return file_name(m.file) == job.label && m.resolved == job.library;
    });
    if (m == found.manifests.end()) continue;
    job.body = [manifest = m->file, sizes] { return vulkan_bench(manifest, sizes); };
  }
  return jobs;
}

}  // namespace

std::vector<IsolatedJob> bench_jobs(const ProbeContext& ctx, const BenchPlan& plan) {
  auto wanted = [&](std::string_view b) {
    return plan.backends.empty() ||
           std::find(plan.backends.begin(), plan.backends.end(), b) != plan.backends.end();
  };
  std::vector<IsolatedJob> jobs;
  if (!ctx.live) return jobs;
  // OpenBLAS on Linux, Accelerate on a Mac (platform/library_names.cpp).
  const std::vector<std::string> cpu_blas = library_names(host_platform()).blas;
  jobs.push_back({std::string(kBackendBlas), "OpenBLAS", cpu_blas.front(),
                  [libs = cpu_blas, sizes = plan.sizes, cpu = plan.cpu_name] {
                    return blas_sweep(libs, sizes, cpu, "install libopenblas0");
                  }});
  if (plan.vendor_series) {
    jobs.push_back({std::string(kBackendBlas), "MKL", "libmkl_rt",
                    [sizes = plan.sizes, cpu = plan.cpu_name, mkl = plan.vendor_blas.mkl] {
                      return blas_sweep(mkl, sizes, cpu, "Intel MKL (libmkl_rt) is not installed");
                    }});
  }
  auto append = [&](std::vector<IsolatedJob> more) {
    std::move(more.begin(), more.end(), std::back_inserter(jobs));
  };
  if (wanted(kBackendOpenCl)) append(opencl_jobs(ctx, plan.sizes, plan.vendor_series));
  if (wanted(kBackendVulkan)) append(vulkan_jobs(ctx, plan.sizes));
  if (wanted(kBackendCuda)) {
    IsolatedJob job = cuda::make_job(cuda::JobOptions{});
    job.body = [sizes = plan.sizes, cublas = plan.vendor_series ? plan.vendor_blas.cublas
                                                                  : std::vector<std::string>{}] {
      return cuda_bench(sizes, cublas);
    };
    jobs.push_back(std::move(job));
  }
  // ROCm: rocBLAS only (gpudoctor has no HIP kernel), so nothing without the vendor series.
  if (wanted(kBackendRocm) && plan.vendor_series) {
    IsolatedJob job = hip::make_job(hip::JobOptions{});
    job.body = [sizes = plan.sizes, rocblas = plan.vendor_blas.rocblas] {
      return hip_bench(sizes, rocblas);
    };
    jobs.push_back(std::move(job));
  }
  // Level Zero: the query probe's jobs (one per driver library), with the sweep as their body.
  if (wanted(kBackendLevelZero) && ctx.platform == kPlatformLinux) {
    LevelZeroInfo found;
    level_zero::discover(ctx, found);
    const std::vector<std::string> drivers = level_zero::driver_list(found);
    auto lz = level_zero::jobs(ctx, found);
    for (std::size_t i = 0; i < lz.size(); ++i) {
      std::optional<std::string> driver;
      if (i < drivers.size()) driver = drivers[i];
      lz[i].body = [driver, sizes = plan.sizes] { return level_zero_bench(driver, sizes); };
    }
    append(std::move(lz));
  }
  if (const auto metal = metal::metal_libraries(host_platform());
      wanted(kBackendMetal) && !metal.metal.empty()) {
    jobs.push_back({std::string(kBackendMetal), "Metal.framework", metal.metal,
                    [metal, sizes = plan.sizes, mps = plan.vendor_series] {
                      return metal_bench(metal, sizes, mps);
                    }});
  }
  return jobs;
}

BenchRun run_bench(std::vector<IsolatedJob> jobs, std::chrono::milliseconds per_job,
                   const BenchProgress& progress) {
  BenchRun run;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (progress) progress(i, jobs.size(), jobs[i]);
    auto results = run_isolated({jobs[i]}, per_job);
    if (results.empty()) continue;
    IsolatedResult& r = results.front();
    if (r.data) {
      try {
        auto report = r.data->get<BenchJobReport>();
        std::move(report.series.begin(), report.series.end(), std::back_inserter(run.series));
      } catch (const std::exception& e) {
        r.outcome.status = ProbeStatus::failed;
        r.outcome.detail =
            "the bench child sent back malformed data (" + std::string(e.what()) + ")";
      }
    }
    run.jobs.push_back(std::move(r.outcome));
  }
  return run;
}

}  // namespace gpudoctor::bench
