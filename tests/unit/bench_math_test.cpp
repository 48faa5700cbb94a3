// The arithmetic of `gpudoctor bench`: GFLOPS, speed-ups, the crossover size, PCIe link rates,
// expected peaks checked against the vendors' own datasheet figures.
#include "bench/bench_math.hpp"

#include <gtest/gtest.h>

#include <variant>

#include "bench/peak_model.hpp"
#include "smoke/matmul_reference.hpp"
#include "smoke/timed_runs.hpp"

namespace gpudoctor::bench {
namespace {

std::vector<BenchPoint> points(std::vector<std::pair<int, double>> n_gflops) {
  std::vector<BenchPoint> out;
  for (auto [n, g] : n_gflops) {
    BenchPoint p;
    p.n = n;
    p.gflops = g;
    out.push_back(p);
  }
  return out;
}

TEST(BenchMath, GflopsIsTwoNCubedOverTime) {
  // 2·1024³ FLOP in 10 ms = 214.7 GFLOPS.
  EXPECT_NEAR(*smoke::matmul_gflops(1024, 10.0), 2.0 * 1024 * 1024 * 1024 / 0.010 / 1e9, 1e-9);
  EXPECT_FALSE(smoke::matmul_gflops(1024, 0.0));
}

TEST(BenchMath, EverySizeAsksForAtLeastFiveRunsWithinABudget) {
  for (int n : {64, 1024, 4096}) {
    const smoke::MatmulRequest req = sweep_request(n);
    EXPECT_EQ(req.repeats, kMinRepeats) << n;
    EXPECT_EQ(req.max_repeats, kMaxRepeats) << n;
    EXPECT_GE(req.repeats, 5) << n;
    EXPECT_GT(req.budget_ms, 0.0) << n;
    EXPECT_GT(req.cap_ms, req.budget_ms) << n;
  }
  EXPECT_TRUE(sweep_request(256).verify);
  EXPECT_FALSE(sweep_request(512).verify);
}

TEST(BenchMath, RunsGoOnToTheMinimumThenWhileTheBudgetLastsThenStopAtTheCap) {
  smoke::MatmulRequest req = sweep_request(1024);
  // Slow runs (200 ms each): exactly the minimum, the budget buys no more.
  EXPECT_TRUE(smoke::wants_another_run(req, 4, 800));
  EXPECT_FALSE(smoke::wants_another_run(req, 5, 1000));
  // Fast runs (1 ms each): more, up to the maximum.
  EXPECT_TRUE(smoke::wants_another_run(req, 5, 5));
  EXPECT_TRUE(smoke::wants_another_run(req, kMaxRepeats - 1, kMaxRepeats - 1.0));
  EXPECT_FALSE(smoke::wants_another_run(req, kMaxRepeats, kMaxRepeats));
  // A device far too slow for n: the cap ends it short of the minimum, after at least one run.
  EXPECT_FALSE(smoke::wants_another_run(req, 2, kPointCapMs));
  EXPECT_TRUE(smoke::wants_another_run(req, 0, 0));
}

TEST(BenchMath, TimeRunsWarmsUpThenTimesEachRunOnItsOwn) {
  smoke::MatmulRequest req;
  req.repeats = 5;
  std::vector<double> sink;
  req.times_ms = &sink;
  int calls = 0;
  const smoke::TimedRuns t = smoke::time_runs(req, [&]() -> std::optional<std::string> {
    ++calls;
    return std::nullopt;
  });
  EXPECT_EQ(calls, 6);  // the untimed warm-up and five timed runs
  ASSERT_EQ(t.ms.size(), 5u);
  EXPECT_EQ(sink, t.ms);
  EXPECT_FALSE(t.error);
  EXPECT_EQ(smoke::best_ms({3.0, 1.5, 2.0}), 1.5);
  EXPECT_FALSE(smoke::best_ms({}));
}

TEST(BenchMath, TimeRunsStopsAtTheFirstFailure) {
  smoke::MatmulRequest req;
  req.repeats = 5;
  int calls = 0;
  const smoke::TimedRuns t = smoke::time_runs(req, [&]() -> std::optional<std::string> {
    return ++calls == 3 ? std::optional<std::string>("clFinish returned -5") : std::nullopt;
  });
  EXPECT_EQ(t.error, "clFinish returned -5");
  EXPECT_EQ(t.ms.size(), 1u);  // warm-up, one timed run, then the failure
}

TEST(BenchMath, MedianOfOddAndEvenCounts) {
  EXPECT_EQ(median({5, 1, 3}), 3.0);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_FALSE(median({}));
}

TEST(BenchMath, PointFromAPassKeepsBestMedianAndSpreadAndAFailKeepsNone) {
  SmokeResult pass;
  pass.n = 1024;
  pass.status = "pass";
  pass.kernel_ms = 10.0;
  pass.gflops = smoke::matmul_gflops(1024, 10.0);
  const std::vector<double> times = {12.0, 10.0, 11.0, 15.0, 10.5};
  BenchPoint p = point_from(pass, times);
  EXPECT_EQ(p.n, 1024);
  EXPECT_EQ(p.ms, 10.0);
  EXPECT_EQ(p.gflops, pass.gflops);
  EXPECT_EQ(p.repeats, 5);
  EXPECT_EQ(p.median_ms, 11.0);
  EXPECT_DOUBLE_EQ(*p.spread_percent, 50.0);  // the slowest, 15 ms, is half again the best
  EXPECT_FALSE(p.error);

  SmokeResult unchecked = pass;
  unchecked.status = "unverified";  // what the runners say when verify is false
  EXPECT_EQ(point_from(unchecked, times).gflops, pass.gflops);

  SmokeResult wrong = pass;
  wrong.n = 256;
  wrong.status = "fail";
  wrong.reason = "12 of 65536 entries wrong";
  p = point_from(wrong, times);
  EXPECT_FALSE(p.gflops);
  EXPECT_FALSE(p.median_ms);
  EXPECT_EQ(p.error, "fail: 12 of 65536 entries wrong");
}

TEST(BenchMath, SizesAreSortedWithoutRepeats) {
  EXPECT_EQ(normalized_sizes({512, 64, 512, 128}), (std::vector<int>{64, 128, 512}));
}

TEST(BenchMath, RatioAndPercentNeedBothValues) {
  EXPECT_DOUBLE_EQ(*ratio(30.0, 10.0), 3.0);
  EXPECT_FALSE(ratio(30.0, std::nullopt));
  EXPECT_FALSE(ratio(30.0, 0.0));
  EXPECT_DOUBLE_EQ(*percent(5.0, 200.0), 2.5);
}

TEST(BenchMath, WinsFromTheSizeAfterWhichItNeverLoses) {
  const auto cpu = points({{64, 10}, {128, 20}, {256, 30}, {512, 40}});
  // Ahead at 128, behind at 256, ahead from 512 on: the crossover is 512.
  EXPECT_EQ(wins_from(cpu, points({{64, 1}, {128, 25}, {256, 20}, {512, 80}})), 512);
  EXPECT_EQ(wins_from(cpu, points({{64, 1}, {128, 25}, {256, 31}, {512, 80}})), 128);
  // Behind at the largest size: it does not win.
  EXPECT_FALSE(wins_from(cpu, points({{64, 100}, {128, 100}, {256, 100}, {512, 39}})));
  // A size only one side measured does not count.
  EXPECT_EQ(wins_from(cpu, points({{256, 31}, {1024, 1}})), 256);
}

TEST(BenchMath, BestPointIsTheFastest) {
  const auto p = points({{64, 3}, {128, 9}, {256, 7}});
  ASSERT_NE(best_point(p), nullptr);
  EXPECT_EQ(best_point(p)->n, 128);
  EXPECT_EQ(best_point({}), nullptr);
}

TEST(BenchMath, PcieLinkRatesPerDirection) {
  EXPECT_DOUBLE_EQ(*pcie_link_gbs(1, 16), 4.0);       // 2.5 GT/s, 8b/10b
  EXPECT_NEAR(*pcie_link_gbs(3, 16), 15.754, 0.001);  // 8 GT/s, 128b/130b
  EXPECT_NEAR(*pcie_link_gbs(4, 16), 31.508, 0.001);
  EXPECT_NEAR(*pcie_link_gbs(4, 4), 7.877, 0.001);  // an eGPU's x4
  EXPECT_NEAR(*pcie_link_gbs(5, 16), 63.015, 0.001);
  EXPECT_FALSE(pcie_link_gbs(9, 16));
  EXPECT_FALSE(pcie_link_gbs(4, std::nullopt));
}

DeviceTraits traits(std::uint32_t vendor, const char* type, std::uint32_t units,
                    std::uint32_t mhz) {
  DeviceTraits t;
  t.vendor_id = vendor;
  t.type = type;
  t.compute_units = units;
  t.clock_mhz = mhz;
  return t;
}

double peak(const DeviceTraits& t, const char* name = "x") {
  auto p = expected_peak(t, std::string(name));
  EXPECT_TRUE(std::holds_alternative<PeakEstimate>(p)) << std::get<std::string>(p);
  return std::holds_alternative<PeakEstimate>(p) ? std::get<PeakEstimate>(p).gflops : 0;
}

TEST(BenchPeak, NvidiaFromSmsCoresAndClockMatchesTheDatasheets) {
  // A100 SXM: 108 SMs at 1410 MHz, cc 8.0; NVIDIA states 19.5 TFLOPS FP32
  // (https://www.nvidia.com/en-us/data-center/a100/).
  DeviceTraits a100 = traits(0x10de, "gpu", 108, 1410);
  a100.cc_major = 8;
  a100.cc_minor = 0;
  EXPECT_NEAR(peak(a100), 19500, 50);
  // H100 SXM: 132 SMs at 1980 MHz, cc 9.0; NVIDIA states 67 TFLOPS FP32
  // (https://www.nvidia.com/en-us/data-center/h100/).
  DeviceTraits h100 = traits(0x10de, "gpu", 132, 1980);
  h100.cc_major = 9;
  h100.cc_minor = 0;
  EXPECT_NEAR(peak(h100), 67000, 200);
}

TEST(BenchPeak, IntelEuAndAmdGcnCu) {
  // UHD Graphics 630: 24 EUs × 16 FLOPs × 1150 MHz.
  EXPECT_NEAR(peak(traits(0x8086, "gpu", 24, 1150)), 441.6, 0.01);
  // gfx906 (Instinct MI50): 60 CUs × 64 lanes × 2 × 1725 MHz.
  EXPECT_NEAR(peak(traits(0x1002, "gpu", 60, 1725), "gfx906"), 13248, 1);
}

TEST(BenchPeak, UnknownIsSaidNotGuessed) {
  EXPECT_TRUE(std::holds_alternative<std::string>(
      expected_peak(traits(0x1002, "gpu", 96, 2500), std::string("gfx1100"))));
  EXPECT_TRUE(std::holds_alternative<std::string>(
      expected_peak(traits(0x8086, "cpu", 16, 3000), std::string("pthread-haswell"))));
  DeviceTraits no_clock;
  no_clock.vendor_id = 0x10de;
  EXPECT_TRUE(std::holds_alternative<std::string>(expected_peak(no_clock, std::nullopt)));
  DeviceTraits future = traits(0x10de, "gpu", 100, 2000);
  future.cc_major = 42;
  future.cc_minor = 0;
  EXPECT_TRUE(std::holds_alternative<std::string>(expected_peak(future, std::nullopt)));
}

}  // namespace
}  // namespace gpudoctor::bench
