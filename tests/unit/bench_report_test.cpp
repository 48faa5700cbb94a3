// `gpudoctor bench` from measurements to what it says: speed-ups, links that stand out (an eGPU
// at x4, a card at Gen1), a device far below its peak, the table and the SVG.
#include "bench/bench_report.hpp"

#include <gtest/gtest.h>

#include "bench/bench_svg.hpp"
#include "bench/bench_text.hpp"
#include "bench/clip.hpp"
#include "bench_series.hpp"

namespace gpudoctor::bench {
namespace {

using namespace test;

PciInfo pci_with_link(int gen, int width, int max_gen, int max_width) {
  PciDevice d;
  d.address = "0000:01:00.0";
  d.link_current.generation = gen;
  d.link_current.width = width;
  d.link_max.generation = max_gen;
  d.link_max.width = max_width;
  PciInfo info;
  info.devices.push_back(d);
  return info;
}

bool mentions(const std::vector<std::string>& warnings, const std::string& text) {
  for (const auto& w : warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(BenchReport, CpuFirstSpeedupsAndCrossover) {
  auto report = assemble_report({gpu({{256, 50}, {1024, 1500}}),
                                 series("blas", "Intel Core i7-7700", {{256, 100}, {1024, 150}})},
                                std::nullopt, {256, 1024});
  ASSERT_EQ(report.results.size(), 2u);
  EXPECT_EQ(report.results[0].series.api, "blas");
  const BenchResult& g = report.results[1];
  EXPECT_DOUBLE_EQ(*g.series.points[0].speedup_vs_cpu, 0.5);
  EXPECT_DOUBLE_EQ(*g.series.points[1].speedup_vs_cpu, 10.0);
  EXPECT_EQ(g.wins_from_n, 1024);
  EXPECT_EQ(g.best_n, 1024);
  ASSERT_TRUE(g.peak);
  EXPECT_NEAR(g.peak->gflops, 4372.48, 0.01);
  EXPECT_NEAR(*g.series.points[1].percent_of_peak, 1500 / 4372.48 * 100, 1e-9);
  EXPECT_TRUE(g.warnings.empty());
  EXPECT_FALSE(report.results[0].series.points[0].speedup_vs_cpu);
}

// Issue 18 §2: the CPU baseline is the fastest CPU BLAS at each size, and a device is judged
// (speed-up, far below its peak) on its fastest series, gpudoctor's kernel or a vendor BLAS.
TEST(BenchReport, JudgedOnTheFastestSeriesOfEachDevice) {
  auto openblas = series("blas", "Intel Core i7-7700", {{256, 100}, {1024, 150}});
  openblas.blas = "OpenBLAS";
  auto mkl = series("blas", "Intel Core i7-7700", {{256, 80}, {1024, 300}});
  mkl.blas = "MKL";
  auto own = gpu({{256, 20}, {1024, 40}});  // under 1 % of 4372 GFLOPS: far below, alone
  auto cublas = gpu({{256, 60}, {1024, 3000}});
  cublas.blas = "cuBLAS";
  auto report = assemble_report({own, openblas, cublas, mkl}, std::nullopt, {256, 1024});
  ASSERT_EQ(report.results.size(), 4u);
  const BenchResult& r_openblas = report.results[0];
  const BenchResult& r_mkl = report.results[1];
  const BenchResult& r_own = report.results[2];
  const BenchResult& r_cublas = report.results[3];
  EXPECT_FALSE(r_openblas.judged);
  EXPECT_TRUE(r_mkl.judged);
  EXPECT_EQ(r_mkl.series_of_device, 2);
  // n=256 against OpenBLAS's 100, n=1024 against MKL's 300.
  EXPECT_DOUBLE_EQ(*r_cublas.series.points[0].speedup_vs_cpu, 0.6);
  EXPECT_DOUBLE_EQ(*r_cublas.series.points[1].speedup_vs_cpu, 10.0);
  EXPECT_EQ(r_cublas.wins_from_n, 1024);
  EXPECT_TRUE(r_cublas.judged);
  EXPECT_FALSE(r_own.judged);
  EXPECT_EQ(r_own.series_of_device, 2);
  EXPECT_TRUE(r_own.warnings.empty());
  EXPECT_TRUE(r_cublas.warnings.empty());
  const std::string text = render_text(report);
  EXPECT_EQ(row_with(text, "cuBLAS", "NVIDIA GeForce GTX 1060").rfind("cuda ", 0), 0u) << text;
  EXPECT_EQ(row_with(text, "MKL", "Intel Core i7-7700").rfind("blas ", 0), 0u) << text;
  EXPECT_NE(text.find("the fastest of 2 series on this device: the one it is judged on"),
            std::string::npos);
  // Alone, the slow kernel is the device's only series and is judged, and warned about.
  report = assemble_report({own, openblas}, std::nullopt, {256, 1024});
  EXPECT_TRUE(report.results[1].judged);
  EXPECT_TRUE(mentions(report.results[1].warnings, "runs far below what it should"));
}

TEST(BenchReport, AnEgpuAtX4StandsOut) {
  auto s = gpu({{1024, 1500}});
  s.bandwidth = Bandwidth{};
  s.bandwidth->host_to_device_gbs = 2.6;
  auto report = assemble_report({s}, pci_with_link(3, 4, 3, 16), {1024});
  const BenchResult& r = report.results[0];
  ASSERT_TRUE(r.link);
  EXPECT_NEAR(*r.link->gbs, 3.938, 0.001);
  EXPECT_NEAR(*r.link->max_gbs, 15.754, 0.001);
  EXPECT_NEAR(*r.link->host_to_device_percent, 2.6 / 3.938 * 100, 0.1);
  EXPECT_TRUE(mentions(r.warnings, "runs at x4 while the card supports x16")) << r.warnings.size();
}

TEST(BenchReport, ACardStuckAtGen1StandsOutUnlessCopiesShowTheLinkCameUp) {
  auto slow = gpu({{1024, 1500}});
  slow.bandwidth = Bandwidth{};
  slow.bandwidth->host_to_device_gbs = 3.1;  // under Gen1 x16's 4 GB/s: it stayed at Gen1
  auto r = assemble_report({slow}, pci_with_link(1, 16, 3, 16), {1024}).results[0];
  EXPECT_TRUE(mentions(r.warnings, "trained at Gen1 while the card supports Gen3"));

  auto fast = slow;
  fast.bandwidth->host_to_device_gbs = 12.0;  // idle power saving: under load it ran at Gen3
  r = assemble_report({fast}, pci_with_link(1, 16, 3, 16), {1024}).results[0];
  EXPECT_TRUE(r.warnings.empty());
}

TEST(BenchReport, FarBelowItsPeakAtALargeSize) {
  auto r = assemble_report({gpu({{256, 20}, {1024, 40}})}, std::nullopt, {256, 1024}).results[0];
  EXPECT_TRUE(mentions(r.warnings, "runs far below what it should")) << r.warnings.size();
  // Small sizes alone are not judged: launch overhead dominates them.
  r = assemble_report({gpu({{256, 20}})}, std::nullopt, {256}).results[0];
  EXPECT_TRUE(r.warnings.empty());
}

TEST(BenchReport, VulkanBorrowsUnitsAndClockFromTheSameCardsCudaEntry) {
  BenchSeries vk = series("vulkan", "NVIDIA GeForce GTX 1060 6GB", {{1024, 900}});
  vk.traits.vendor_id = 0x10de;
  vk.traits.type = "gpu";
  vk.traits.pci_bus_id = "00000000:01:00.0";  // spelled differently, the same address
  BenchSeries other_card = vk;
  other_card.traits.pci_bus_id = "0000:02:00.0";
  auto report = assemble_report({gpu({{1024, 1500}}), vk, other_card}, std::nullopt, {1024});
  ASSERT_TRUE(report.results[1].peak);
  EXPECT_NEAR(report.results[1].peak->gflops, 4372.48, 0.01);
  EXPECT_FALSE(report.results[2].peak);
  EXPECT_TRUE(report.results[2].peak_unknown);
}

TEST(BenchReport, TextTableNamesEveryDeviceAndSize) {
  auto report =
      assemble_report({series("blas", "AMD EPYC 7B13", {{64, 12.5}, {128, 40}}),
                       series("opencl", "cpu-haswell-AMD EPYC 7B13", {{64, 1.5}, {128, 60}})},
                      std::nullopt, {64, 128});
  const std::string text = render_text(report);
  EXPECT_NE(text.find("n=64"), std::string::npos);
  EXPECT_NE(text.find("n=128"), std::string::npos);
  EXPECT_EQ(row_with(text, "BLAS", "AMD EPYC 7B13").rfind("blas ", 0), 0u) << text;
  EXPECT_EQ(row_with(text, "gpudoctor", "cpu-haswell-AMD EPYC 7B13").rfind("opencl ", 0), 0u);
  EXPECT_NE(text.find("60.0 (1.50×)"), std::string::npos);
  EXPECT_NE(text.find("faster than the CPU BLAS from n=128"), std::string::npos);
  EXPECT_NE(text.find("expected peak: unknown"), std::string::npos);
}

TEST(BenchText, CopiesNameTheMemoryTrafficOfAnOnDeviceCopy) {
  auto s = gpu({{1024, 1500}});
  s.bandwidth = Bandwidth{};
  s.bandwidth->bytes = std::uint64_t{64} << 20;
  s.bandwidth->host_to_device_gbs = 24.5;
  s.bandwidth->device_to_device_gbs = 1300;
  const std::string text = render_text(assemble_report({s}, std::nullopt, {1024}));
  EXPECT_NE(text.find("copies of 64 MiB: host→device 24.5 GB/s, on the device 1300.0 GB/s "
                      "(2600.0 GB/s of memory read and written)\n"),
            std::string::npos)
      << text;
}

TEST(BenchText, ClipCutsWholeCharacters) {
  EXPECT_EQ(clip("Radeon™ RX 570", 40), "Radeon™ RX 570");
  EXPECT_EQ(clip("Radeon™ RX 570", 8), "Radeon™…");
  EXPECT_EQ(columns(clip("ééééééééé", 5)), 5u);
}

TEST(BenchSvg, OneSeriesPerMeasuredDeviceWithEscapedNames) {
  auto failed = series("vulkan", "broken <driver> & co", {});
  failed.error = "vkCreateDevice returned VK_ERROR_INITIALIZATION_FAILED";
  auto report = assemble_report({series("blas", "CPU", {{16, 0.5}, {32, 2}}),
                                 series("opencl", "PoCL \"cpu\"", {{16, 0.1}, {32, 0.9}}), failed},
                                std::nullopt, {16, 32});
  const std::string svg = render_svg(report);
  EXPECT_EQ(count(svg, "<g class=\"series\""), 2u);
  EXPECT_EQ(count(svg, "<polyline"), 2u);
  EXPECT_NE(svg.find("vulkan: broken &lt;driver&gt; &amp; co: no result"), std::string::npos);
  EXPECT_NE(svg.find("PoCL &quot;cpu&quot;"), std::string::npos);
  EXPECT_EQ(svg.find("<driver>"), std::string::npos);
  // Axes: both sizes as ticks, decades of GFLOPS from 0.1 to 10.
  EXPECT_NE(svg.find(">16</text>"), std::string::npos);
  EXPECT_NE(svg.find(">32</text>"), std::string::npos);
  EXPECT_NE(svg.find(">0.1</text>"), std::string::npos);
  EXPECT_NE(svg.find(">10</text>"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor::bench
