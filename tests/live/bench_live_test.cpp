// `gpudoctor bench` on this machine: OpenBLAS, PoCL and lavapipe are real, so tiny sizes give
// real, verified timings in a couple of seconds.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include "cli.hpp"
#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

TEST(BenchCli, SizesPlotAndALongerDeadline) {
  auto r =
      parse_cli({"bench", "--sizes", "32,16", "--plot", "out.svg", "--backend", "opencl"}, "1");
  ASSERT_TRUE(r.options) << r.err;
  EXPECT_EQ(r.options->command, Command::bench);
  EXPECT_EQ(r.options->sizes, (std::vector<int>{32, 16}));
  EXPECT_EQ(r.options->plot, "out.svg");
  EXPECT_EQ(r.options->backends, (std::vector<std::string>{"opencl"}));
  EXPECT_EQ(r.options->timeout.count(), 300000);
  EXPECT_FALSE(r.options->no_vendor_blas);
  r = parse_cli({"bench", "--no-vendor-blas"}, "1");
  ASSERT_TRUE(r.options) << r.err;
  EXPECT_TRUE(r.options->no_vendor_blas);
}

TEST(BenchCli, ASizeOutOfRangeIsAUsageError) {
  for (const char* sizes : {"0", "16,abc", "100000"}) {
    auto r = parse_cli({"bench", "--sizes", sizes}, "1");
    EXPECT_FALSE(r.options) << sizes;
    EXPECT_EQ(r.exit_code, 2) << sizes;
  }
}

TEST(BenchCli, APlotThatCannotBeWrittenIsAnOutputError) {
  test::TempTree tmp;  // a directory that surely does not exist, whatever else ran on the machine
  const std::string plot = tmp.path() + "/missing-dir/plot.svg";
  auto run = test::run_gpudoctor({"bench", "--sizes", "16", "--backend", "cuda", "--plot", plot});
  EXPECT_EQ(run.exit_code, 74) << run.err;  // EX_IOERR: output, not usage
  EXPECT_NE(run.err.find(plot), std::string::npos) << run.err;
}

const Json* series_of(const Json& doc, const std::string& api) {
  for (const auto& r : doc["results"]) {
    if (r["series"]["api"] == api) return &r["series"];
  }
  return nullptr;
}

TEST(BenchLive, CpuBlasPoclAndLavapipeAtTinySizes) {
  auto run = test::run_gpudoctor({"bench", "--sizes", "16,32", "--json"});
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out.substr(0, 4000);
  EXPECT_LT(run.seconds, 20.0);
  const Json doc = Json::parse(run.out);
  for (const char* api : {"blas", "opencl", "vulkan"}) {
    const Json* s = series_of(doc, api);
    ASSERT_NE(s, nullptr) << api << " missing in " << run.out.substr(0, 4000);
    ASSERT_EQ((*s)["points"].size(), 2u) << api;
    for (const auto& p : (*s)["points"]) {
      EXPECT_TRUE(p["error"].is_null()) << api << ": " << p.dump();
      EXPECT_GT(p["gflops"].get<double>(), 0.0) << api;
    }
  }
  // Every point is timed five times at least, with the median and the spread.
  for (const char* api : {"blas", "opencl", "vulkan"}) {
    for (const auto& p : (*series_of(doc, api))["points"]) {
      EXPECT_GE(p["repeats"].get<int>(), 5) << api;
      EXPECT_GE(p["median_ms"].get<double>(), p["ms"].get<double>()) << api;
      EXPECT_GE(p["spread_percent"].get<double>(), 0.0) << api;
    }
  }
  // The CPU BLAS names itself; where CLBlast is installed (Debian's libclblast1), PoCL's device
  // gets its own CLBlast series next to gpudoctor's kernel, verified at these sizes.
  EXPECT_EQ(doc["results"][0]["series"]["blas"], "OpenBLAS");
  if (void* clblast = ::dlopen("libclblast.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    ::dlclose(clblast);
    const Json* own = series_of(doc, "opencl");
    const Json* lib = nullptr;
    for (const auto& r : doc["results"]) {
      if (r["series"]["api"] == "opencl" && r["series"]["blas"] == "CLBlast") lib = &r["series"];
    }
    ASSERT_NE(lib, nullptr) << run.out.substr(0, 4000);
    EXPECT_TRUE((*own)["blas"].is_null());
    EXPECT_EQ((*lib)["device"], (*own)["device"]);
    ASSERT_EQ((*lib)["points"].size(), 2u);
    for (const auto& p : (*lib)["points"]) {
      EXPECT_TRUE(p["error"].is_null()) << p.dump();
      EXPECT_GE(p["repeats"].get<int>(), 5);
    }
  }
  // lavapipe's FMA rate, measured by the peak shader, and each point's share of it.
  const Json& peak = (*series_of(doc, "vulkan"))["measured_peak"];
  EXPECT_GT(peak["gflops"].get<double>(), 0.0) << peak.dump();
  EXPECT_TRUE((*series_of(doc, "vulkan"))["points"][0]["percent_of_measured_peak"].is_number());
  // The CPU BLAS is the baseline; the others carry their speed-up over it.
  EXPECT_TRUE(doc["results"][0]["series"]["points"][0]["speedup_vs_cpu"].is_null());
  EXPECT_TRUE((*series_of(doc, "opencl"))["points"][0]["speedup_vs_cpu"].is_number());
  // PoCL and lavapipe copy through host memory, and say how fast, in all three directions.
  for (const char* api : {"opencl", "vulkan"}) {
    const Json& bw = (*series_of(doc, api))["bandwidth"];
    EXPECT_TRUE(bw["error"].is_null()) << api << ": " << bw.dump();
    EXPECT_GT(bw["bytes"].get<std::uint64_t>(), 0u) << api;
    for (const char* rate : {"host_to_device_gbs", "device_to_host_gbs", "device_to_device_gbs"}) {
      EXPECT_GT(bw[rate].get<double>(), 0.0) << api << " " << rate;
    }
  }
}

}  // namespace
}  // namespace gpudoctor
