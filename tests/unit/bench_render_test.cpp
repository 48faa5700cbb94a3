// What `gpudoctor bench` shows people: the text table in columns whatever the names, every
// device's error, the plot's legend whole however long and many the names, the expected peak
// drawn, and the note when no GPU was benchmarked. On a recorded bench (tests/fixtures/bench)
// and on made-up series where no recording has the case (a GPU with a known peak, an error).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "bench/bench_report.hpp"
#include "bench/bench_svg.hpp"
#include "bench/bench_text.hpp"
#include "bench/clip.hpp"
#include "bench_series.hpp"
#include "test_support.hpp"

namespace gpudoctor::bench {
namespace {

using test::count;
using test::gpu;
using test::row_with;
using test::series;

BenchReport recorded(const std::string& name) {
  std::ifstream in(gpudoctor::test::fixture_path("bench/" + name));
  return Json::parse(std::string((std::istreambuf_iterator<char>(in)),
                                 std::istreambuf_iterator<char>()))
      .get<BenchReport>();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const auto end = text.find('\n', at);
    if (end == std::string::npos) break;
    out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

/// The table: the lines from its header ("api …") to the first empty line.
std::vector<std::string> table_of(const std::string& text) {
  std::vector<std::string> rows;
  bool in = false;
  for (const auto& l : lines_of(text)) {
    if (l.rfind("api ", 0) == 0) in = true;
    if (in && l.empty()) break;
    if (in) rows.push_back(l);
  }
  return rows;
}

/// Where each column of figures ends: the header's "n=…" labels are right-aligned over them.
void expect_columns_aligned(const std::vector<std::string>& rows, const std::vector<int>& sizes) {
  ASSERT_GE(rows.size(), 2u);
  for (int n : sizes) {
    const std::string label = "n=" + std::to_string(n);
    const auto at = rows[0].find(label);
    ASSERT_NE(at, std::string::npos) << rows[0];
    const std::size_t end = columns(rows[0].substr(0, at + label.size()));
    for (std::size_t i = 1; i < rows.size(); ++i) {
      if (rows[i].find("✗") != std::string::npos) continue;  // an error in place of figures
      // The figure of this size ends in the same column as its label, and a space (or the end
      // of the line) follows.
      const std::string row = rows[i];
      std::size_t cols = 0, byte = 0;
      while (byte < row.size() && cols < end) {
        if ((static_cast<unsigned char>(row[byte]) & 0xc0) != 0x80) ++cols;
        ++byte;
        while (byte < row.size() && (static_cast<unsigned char>(row[byte]) & 0xc0) == 0x80) ++byte;
      }
      EXPECT_EQ(cols, end) << row;
      EXPECT_NE(row[byte - 1], ' ') << "n=" << n << ": " << row;
      EXPECT_TRUE(byte == row.size() || row[byte] == ' ') << "n=" << n << ": " << row;
    }
  }
}

TEST(BenchTextRecorded, PoclLavapipeOpenblasTableInColumnsAndTheCpuOnlyNote) {
  const BenchReport report = recorded("pocl-lavapipe-openblas.json");
  const BenchReport assembled = assemble_report(
      [&] {
        std::vector<BenchSeries> s;
        for (const auto& r : report.results) s.push_back(r.series);
        return s;
      }(),
      std::nullopt, report.sizes);
  for (const BenchReport* r : {&report, &assembled}) {
    const std::string text = render_text(*r);
    const auto rows = table_of(text);
    ASSERT_EQ(rows.size(), 1 + report.results.size()) << text;
    expect_columns_aligned(rows, report.sizes);
    EXPECT_EQ(row_with(text, "CLBlast", "pthread-skylake-avx512-AMD EPYC").rfind("opencl ", 0), 0u);
    EXPECT_EQ(row_with(text, "gpudoctor", "llvmpipe (LLVM 15.0.6, 256 bits)").rfind("vulkan ", 0),
              0u);
    // PoCL and lavapipe are the only devices: no GPU was measured, and the text says so.
    EXPECT_NE(text.find("! No GPU was benchmarked: every device here is a CPU device"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("vulkan: llvmpipe (LLVM 15.0.6, 256 bits)"), std::string::npos);
  }
}

TEST(BenchText, LongDeviceNamesKeepTheColumnsAndAreWholeInTheDetails) {
  const std::string long_name =
      "pthread-sapphirerapids-Intel(R) Xeon(R) Platinum 8480+ with a very long model suffix";
  auto cpu = series("blas", "Intel(R) Xeon(R) Platinum 8480+", {{64, 120}, {4096, 2900}});
  cpu.blas = "OpenBLAS";
  auto pocl = series("opencl", long_name, {{64, 1.25}, {4096, 3100.5}});
  pocl.traits.type = "cpu";
  auto report = assemble_report({cpu, pocl, gpu({{64, 12}, {4096, 4100}})}, std::nullopt,
                                {64, 4096});
  const std::string text = render_text(report);
  expect_columns_aligned(table_of(text), {64, 4096});
  EXPECT_NE(text.find(clip(long_name, 48)), std::string::npos) << text;
  EXPECT_NE(text.find("\n" + long_name + " (opencl"), std::string::npos) << text;
  // A GPU was measured: no note.
  EXPECT_EQ(text.find("No GPU was benchmarked"), std::string::npos) << text;
}

TEST(BenchText, EveryDevicesErrorIsShown) {
  auto cpu = series("blas", "AMD EPYC", {{256, 90}, {1024, 95}});
  auto broken = series("vulkan", "AMD Radeon RX 580 (RADV POLARIS10)", {});
  broken.error = "vkCreateDevice returned VK_ERROR_INITIALIZATION_FAILED";
  broken.traits.type = "gpu";
  auto partly = gpu({{256, 600}});
  BenchPoint oom;
  oom.n = 1024;
  oom.error = "cuMemAlloc returned CUDA_ERROR_OUT_OF_MEMORY";
  partly.points.push_back(oom);
  const std::string text =
      render_text(assemble_report({cpu, broken, partly}, std::nullopt, {256, 1024}));
  // In the table: the device's error in its row, the size's as "error" in its cell.
  const std::string row = row_with(text, "gpudoctor", "AMD Radeon RX 580");
  EXPECT_NE(row.find("✗ vkCreateDevice returned VK_ERROR_INITIALIZATION_FAILED"),
            std::string::npos)
      << text;
  EXPECT_NE(row_with(text, "gpudoctor", "GTX 1060").find("error"), std::string::npos) << text;
  // In the details, both whole.
  EXPECT_NE(text.find("  ✗ vkCreateDevice returned VK_ERROR_INITIALIZATION_FAILED\n"),
            std::string::npos);
  EXPECT_NE(text.find("  n=1024: ✗ cuMemAlloc returned CUDA_ERROR_OUT_OF_MEMORY\n"),
            std::string::npos)
      << text;
}

/// The legend's lines of text: every <text> of <g class="legend">.
std::vector<std::string> legend_lines(const std::string& svg) {
  std::vector<std::string> out;
  const auto begin = svg.find("<g class=\"legend\"");
  const auto end = svg.find("</g>\n<g class=", begin);  // the legend closes before the plot
  for (auto at = svg.find("<text", begin); at < end; at = svg.find("<text", at + 1)) {
    const auto open = svg.find('>', at) + 1;
    out.push_back(svg.substr(open, svg.find("</text>", open) - open));
  }
  return out;
}

double attribute(const std::string& svg, std::size_t from, const std::string& name) {
  const auto at = svg.find(name + "=\"", from);
  return std::stod(svg.substr(at + name.size() + 2));
}

TEST(BenchSvg, TheLegendIsNeverClippedHoweverLongAndManyTheNames) {
  std::vector<BenchSeries> many;
  const std::string long_name =
      "pthread-sapphirerapids-Intel(R) Xeon(R) Platinum 8480+ 56-Core Processor with a model "
      "suffix that goes on and on past any legend box";
  for (int i = 0; i < 30; ++i) {
    many.push_back(series("opencl", long_name + " #" + std::to_string(i), {{64, 1.0 + i}}));
  }
  const std::string svg = render_svg(assemble_report(many, std::nullopt, {64}));
  const double height = attribute(svg, svg.find("<svg"), "height");
  const auto lines = legend_lines(svg);
  std::string all;
  for (const auto& l : lines) {
    all += l + " ";
    EXPECT_EQ(l.find("…"), std::string::npos) << l;  // wrapped, not cut
    EXPECT_LE(columns(l), 120u) << l;                  // fits the 900 px width at 7 px a letter
  }
  for (int i = 0; i < 30; ++i) {
    EXPECT_NE(all.find("past any legend box #" + std::to_string(i)), std::string::npos) << i;
  }
  // Every line of the legend lies inside the picture, which grew to hold them.
  for (auto at = svg.find("<text", svg.find("<g class=\"legend\"")); at != std::string::npos;
       at = svg.find("<text", at + 1)) {
    EXPECT_LT(attribute(svg, at, "y"), height - 4);
  }
  EXPECT_GT(height, 30 * 2 * 16.0);
}

TEST(BenchSvg, TheExpectedPeakIsADashedLineInItsSeriesColour) {
  auto report = assemble_report({series("blas", "Intel Core i7-7700", {{256, 100}, {1024, 150}}),
                                 gpu({{256, 50}, {1024, 1500}})},
                                std::nullopt, {256, 1024});
  ASSERT_TRUE(report.results[1].peak);
  const std::string svg = render_svg(report);
  EXPECT_EQ(count(svg, "<g class=\"peak\">"), 1u);
  EXPECT_NE(svg.find(">peak 4372</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray"),
            std::string::npos);
  EXPECT_NE(svg.find("expected peak 4372 GFLOPS (dashed)"), std::string::npos);
  // The axis reaches the peak: its decade (10000) is a tick.
  EXPECT_NE(svg.find(">10000</text>"), std::string::npos);
  // No peak known (the CPU, PoCL, lavapipe): no line.
  EXPECT_EQ(count(render_svg(recorded("pocl-lavapipe-openblas.json")), "class=\"peak\""), 0u);
}

TEST(BenchSvg, ANoteWhenEveryGpuIsACpuDeviceAndTheErrorOfADeviceWithoutResults) {
  BenchReport report = recorded("pocl-lavapipe-openblas.json");
  BenchResult failed;
  failed.series.api = "vulkan";
  failed.series.device = "lavapipe again";
  failed.series.traits.type = "cpu";
  failed.series.error = "vkAllocateMemory returned VK_ERROR_OUT_OF_DEVICE_MEMORY";
  report.results.push_back(failed);
  const std::string svg = render_svg(report);
  EXPECT_NE(svg.find("<g class=\"note\""), std::string::npos);
  std::string all;
  for (const auto& l : legend_lines(svg)) all += l + " ";
  EXPECT_NE(all.find("No GPU was benchmarked"), std::string::npos) << all;
  EXPECT_NE(all.find("vulkan: lavapipe again: no result (vkAllocateMemory returned "
                     "VK_ERROR_OUT_OF_DEVICE_MEMORY)"),
            std::string::npos)
      << all;
  report.results.push_back(assemble_report({gpu({{64, 100}})}, std::nullopt, {64}).results[0]);
  EXPECT_EQ(render_svg(report).find("<g class=\"note\""), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor::bench
