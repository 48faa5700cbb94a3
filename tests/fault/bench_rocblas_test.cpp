// The bench's rocBLAS series (issue 18 §2) against the fake libamdhip64 of a Radeon RX 470/480
// and fake librocblas builds at the rocBLAS C ABI (tests/fakes/rocm), which compute on the CPU
// and say so in their version string: no AMD GPU is needed, none ran these, and the figures
// are not a GPU's. The series must be timed and verified as every series is, and a rocBLAS
// that cannot start or computes the wrong product must say so.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "bench/bench_model.hpp"
#include "bench_runners/hip_bench.hpp"
#include "core/isolate.hpp"

namespace gpudoctor {
namespace bench_rocblas_test {

using namespace std::chrono_literals;

std::string fake(const std::string& dir, const std::string& file) {
  return std::string(GPUDOCTOR_FAKES) + "/rocm/" + dir + "/" + file;
}

std::vector<BenchSeries> bench_with(const std::string& rocblas_dir,
                                    const std::string& hip_dir = "rx480-bench") {
  IsolatedJob job;
  job.backend = "rocm";
  job.label = "libamdhip64.so";
  job.body = [rocblas_dir, hip_dir] {
    return bench::hip_bench({16, 32},
                            {"/nonexistent/librocblas.so.5", fake(rocblas_dir, "librocblas.so.4")},
                            {fake(hip_dir, "libamdhip64.so")});
  };
  auto results = run_isolated({job}, 30s);
  EXPECT_EQ(results.size(), 1u);
  if (results.empty()) return {};
  EXPECT_EQ(results[0].outcome.status, ProbeStatus::ok) << results[0].outcome.detail;
  if (!results[0].data) return {};
  return results[0].data->get<BenchJobReport>().series;
}

TEST(BenchRocblasFake, ASeriesPerDeviceTimedAndVerifiedNamingTheFake) {
  const auto series = bench_with("rocblas");
  ASSERT_EQ(series.size(), 1u);
  const BenchSeries& s = series[0];
  EXPECT_EQ(s.blas, "rocBLAS");
  EXPECT_EQ(s.api, "hip");
  EXPECT_EQ(s.device, "Ellesmere [Radeon RX 470/480]");
  EXPECT_EQ(s.library, fake("rx480-bench", "libamdhip64.so"));
  // What ran, as the library itself says: a fake on the CPU, at its path.
  EXPECT_EQ(s.kernel, "rocblas_sgemm, rocBLAS fake (gpudoctor tests/fakes/rocm, computed on the "
                      "CPU), " + fake("rocblas", "librocblas.so.4"));
  EXPECT_FALSE(s.error) << *s.error;
  EXPECT_EQ(s.traits.vendor_id, 0x1002u);
  EXPECT_EQ(s.traits.compute_units, 32u);
  EXPECT_EQ(s.traits.clock_mhz, 1130u);
  ASSERT_EQ(s.points.size(), 2u);
  for (const auto& p : s.points) {
    EXPECT_FALSE(p.error) << p.n << ": " << *p.error;
    EXPECT_GT(p.gflops.value_or(0), 0.0) << p.n;
    EXPECT_GE(p.repeats.value_or(0), 5) << p.n;
  }
}

TEST(BenchRocblasFake, ARocblasThatCannotStartSaysWhy) {
  const auto series = bench_with("rocblas-create-1");
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].blas, "rocBLAS");
  EXPECT_EQ(series[0].error, "rocblas_create_handle returned 1 (rocblas_status_invalid_handle)");
  EXPECT_TRUE(series[0].points.empty());
}

// This fake reads its operands row-major, so the bench's B-first column-major call gets Bᵀ·Aᵀ
// back transposed: the check at these sizes must catch it.
TEST(BenchRocblasFake, AWrongProductFailsTheCheck) {
  const auto series = bench_with("rocblas-row-major");
  ASSERT_EQ(series.size(), 1u);
  ASSERT_EQ(series[0].points.size(), 2u);
  for (const auto& p : series[0].points) {
    EXPECT_FALSE(p.gflops) << p.n;
    EXPECT_EQ(p.error.value_or("").rfind("fail", 0), 0u) << p.error.value_or("");
  }
}

// A runtime without device memory (the plain RX 480 fake exports no hipMalloc) is said.
TEST(BenchRocblasFake, AHipRuntimeWithoutTheMemoryCallsSaysSo) {
  const auto series = bench_with("rocblas", "rx480");
  ASSERT_EQ(series.size(), 1u);
  EXPECT_NE(series[0].error.value_or("").find("libamdhip64 the calls the bench needs"),
            std::string::npos)
      << series[0].error.value_or("");
  EXPECT_TRUE(series[0].points.empty());
}

// No rocBLAS anywhere: no series (gpudoctor has no HIP kernel of its own), the job still ok.
TEST(BenchRocblasFake, NoRocblasNoSeries) {
  EXPECT_TRUE(bench_with("nonexistent").empty());
}

}  // namespace bench_rocblas_test
}  // namespace gpudoctor
