// The bench's cuBLAS series (issue 18 §2) against the fake libcuda of an H100 and fake
// libcublas builds at the cuBLAS ABI (tests/fakes/cuda): no CUDA GPU is needed, and none ran
// these. The series must exist next to the PTX kernel's, be timed and verified as every series
// is, and a cuBLAS that cannot start or computes the wrong product must say so.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "bench/bench_model.hpp"
#include "bench_runners/cuda_bench.hpp"
#include "core/isolate.hpp"
#include "cuda_fakes.hpp"

namespace gpudoctor {
namespace {

using namespace std::chrono_literals;
using test::cuda_fake_dir;

std::vector<BenchSeries> bench_with(const std::string& cublas_dir) {
  IsolatedJob job;
  job.backend = "cuda";
  job.label = "libcuda.so.1";
  job.body = [cublas_dir] {
    return bench::cuda_bench(
        {16, 32}, {"/nonexistent/libcublas.so.13", cuda_fake_dir(cublas_dir) + "/libcublas.so.13"},
        {cuda_fake_dir("h100") + "/libcuda.so.1"});
  };
  auto results = run_isolated({job}, 30s);
  EXPECT_EQ(results.size(), 1u);
  if (results.empty()) return {};
  EXPECT_EQ(results[0].outcome.status, ProbeStatus::ok) << results[0].outcome.detail;
  if (!results[0].data) return {};
  return results[0].data->get<BenchJobReport>().series;
}

TEST(BenchCublasFake, ASeriesNextToThePtxKernelTimedAndVerified) {
  const auto series = bench_with("cublas");
  ASSERT_EQ(series.size(), 2u);
  EXPECT_FALSE(series[0].blas);  // gpudoctor's PTX kernel
  const BenchSeries& s = series[1];
  EXPECT_EQ(s.blas, "cuBLAS");
  EXPECT_EQ(s.api, "cuda");
  EXPECT_EQ(s.device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(s.library, series[0].library);
  EXPECT_NE(s.kernel.value_or("").find(cuda_fake_dir("cublas") + "/libcublas.so.13"),
            std::string::npos)
      << s.kernel.value_or("");
  EXPECT_FALSE(s.error) << *s.error;
  EXPECT_EQ(s.traits.cc_major, 9);
  ASSERT_EQ(s.points.size(), 2u);
  for (const auto& p : s.points) {
    EXPECT_FALSE(p.error) << p.n << ": " << *p.error;
    EXPECT_GT(p.gflops.value_or(0), 0.0) << p.n;
    EXPECT_GE(p.repeats.value_or(0), 5) << p.n;
  }
}

TEST(BenchCublasFake, ACublasThatCannotStartSaysWhy) {
  const auto series = bench_with("cublas-create-1");
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[1].blas, "cuBLAS");
  EXPECT_EQ(series[1].error, "cublasCreate_v2 returned 1 (CUBLAS_STATUS_NOT_INITIALIZED)");
  EXPECT_TRUE(series[1].points.empty());
  EXPECT_EQ(series[0].points.size(), 2u);  // the PTX kernel's series is untouched
}

// This fake reads its operands row-major, so the bench's B-first column-major call gets Bᵀ·Aᵀ
// back transposed: the check at these sizes must catch it.
TEST(BenchCublasFake, AWrongProductFailsTheCheck) {
  const auto series = bench_with("cublas-row-major");
  ASSERT_EQ(series.size(), 2u);
  for (const auto& p : series[1].points) {
    EXPECT_FALSE(p.gflops) << p.n;
    EXPECT_EQ(p.error.value_or("").rfind("fail", 0), 0u) << p.error.value_or("");
  }
}

TEST(BenchCublasFake, NoCublasNoSeries) {
  IsolatedJob job;
  job.backend = "cuda";
  job.label = "libcuda.so.1";
  job.body = [] {
    return bench::cuda_bench({16}, {"/nonexistent/libcublas.so.13"},
                             {cuda_fake_dir("h100") + "/libcuda.so.1"});
  };
  auto results = run_isolated({job}, 30s);
  ASSERT_EQ(results.size(), 1u);
  ASSERT_TRUE(results[0].data);
  const auto series = results[0].data->get<BenchJobReport>().series;
  ASSERT_EQ(series.size(), 1u);
  EXPECT_FALSE(series[0].blas);
}

}  // namespace
}  // namespace gpudoctor
