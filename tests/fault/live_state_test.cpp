// The live state through the fake libnvidia-ml with three GPUs (tests/fakes/cuda, nvml-live):
// an idle H100, a P100 whose memory a process holds, an MX330 slowed down by heat. query shows
// each GPU's state in 80 columns and its report section; check finds the held memory and the
// heat, and nothing on the idle GPU.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "cuda_fakes.hpp"
#include "render/style.hpp"

namespace gpudoctor {
namespace live_state_test {

using test::cuda_fake_dir;
using test::query_json_with;

const Json* live_gpu(const Json& report, int index) {
  for (const auto& g : report["live_state"]["gpus"]) {
    if (g.value("index", -1) == index) return &g;
  }
  return nullptr;
}

TEST(LiveStateFakeNvml, QueryRecordsEachGpusState) {
  auto run = query_json_with(cuda_fake_dir("nvml-live"), "nvml");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  ASSERT_TRUE(run.json.is_object()) << run.result.out;
  ASSERT_TRUE(run.json["live_state"].is_object()) << run.result.out;
  EXPECT_EQ(run.json["live_state"]["live"], true);
  ASSERT_EQ(run.json["live_state"]["gpus"].size(), 3u);

  const Json* idle = live_gpu(run.json, 0);
  ASSERT_NE(idle, nullptr);
  EXPECT_EQ((*idle)["source"], "nvml");
  EXPECT_EQ((*idle)["memory_used_bytes"], 2ull << 20);
  EXPECT_EQ((*idle)["memory_free_bytes"], 81227ull << 20);
  EXPECT_EQ((*idle)["utilization_gpu_percent"], 0);
  EXPECT_EQ((*idle)["throttle_reasons"], Json::array({"gpu_idle"}));
  EXPECT_EQ((*idle)["remapped_rows_pending"], false);
  EXPECT_EQ((*idle)["remapped_rows_correctable"], 0);
  EXPECT_TRUE((*idle)["retired_pages_pending"].is_null());  // "Retired Pages: N/A"
  EXPECT_TRUE((*idle)["temperature_slowdown_c"].is_null());
  EXPECT_EQ((*idle)["processes"], Json::array());

  const Json* held = live_gpu(run.json, 1);
  ASSERT_NE(held, nullptr);
  EXPECT_EQ((*held)["pci_bus_id"], "0000:05:00.0");
  EXPECT_EQ((*held)["memory_used_bytes"], 12799ull << 20);
  ASSERT_EQ((*held)["processes"].size(), 1u);
  EXPECT_EQ((*held)["processes"][0]["pid"], 23456);
  EXPECT_EQ((*held)["processes"][0]["process_name"], "/home/alice/venv/bin/python3");
  EXPECT_EQ((*held)["processes"][0]["used_memory_bytes"], 12789ull << 20);
  EXPECT_EQ((*held)["processes"][0]["kind"], "compute");
  EXPECT_EQ((*held)["retired_pages_single_bit"], 0);
  EXPECT_EQ((*held)["retired_pages_pending"], false);
  EXPECT_TRUE((*held)["utilization_gpu_percent"].is_null());  // not answered: absent, not 0
  EXPECT_TRUE((*held)["clock_graphics_mhz"].is_null());

  const Json* hot = live_gpu(run.json, 2);
  ASSERT_NE(hot, nullptr);
  EXPECT_EQ((*hot)["temperature_c"], 67);
  EXPECT_EQ((*hot)["temperature_slowdown_c"], 97);
  EXPECT_EQ((*hot)["temperature_shutdown_c"], 102);
  EXPECT_EQ((*hot)["throttle_reasons"], Json::array({"sw_thermal_slowdown"}));
  EXPECT_TRUE((*hot)["power_draw_mw"].is_null());
  EXPECT_TRUE((*hot)["ecc_uncorrected_volatile"].is_null());

  // The NVML section keeps the raw answers the live section was made from.
  EXPECT_EQ(run.json["nvml"]["devices"][1]["processes"][0]["name"],
            "/home/alice/venv/bin/python3");
  EXPECT_EQ(run.json["nvml"]["devices"][2]["clock_event_reasons"], 0x20);
}

TEST(LiveStateFakeNvml, QueryTextShowsItIn80Columns) {
  test::ScopedLibraryPath path(cuda_fake_dir("nvml-live"));
  auto r = test::run_gpudoctor({"query", "--backend", "nvml", "--timeout", "2"}, {"NO_COLOR=1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto at = r.out.find("Live state");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string live = r.out.substr(at);
  EXPECT_NE(live.find("12799 MiB used of 16280 MiB"), std::string::npos) << live;
  EXPECT_NE(live.find("pid 23456  /home/alice/venv/bin/python3"), std::string::npos) << live;
  EXPECT_NE(live.find("67 C, slowdown at 97 C, shutdown at 102 C"), std::string::npos) << live;
  EXPECT_NE(live.find("sw_thermal_slowdown"), std::string::npos) << live;
  std::istringstream lines(live.substr(0, live.find("\n\n")));
  for (std::string line; std::getline(lines, line);) {
    EXPECT_LE(display_width(line), 80u) << line;
  }
}

TEST(LiveStateFakeNvml, CheckFindsTheHeldMemoryAndTheHeat) {
  test::ScopedLibraryPath path(cuda_fake_dir("nvml-live"));
  auto r = test::run_gpudoctor(
      {"check", "--json", "--no-smoke", "--backend", "nvml", "--timeout", "2"});
  const Json report = Json::parse(r.out, nullptr, false);
  ASSERT_TRUE(report.is_object()) << r.out << r.err;
  int held = 0;
  int hot = 0;
  for (const auto& f : report["findings"]) {
    const std::string id = f.value("id", "");
    const std::string title = f.value("title", "");
    if (id == "live.memory_held") {
      ++held;
      EXPECT_NE(title.find("GPU 1"), std::string::npos) << title;
      EXPECT_NE(title.find("pid 23456"), std::string::npos) << title;
      EXPECT_EQ(f["severity"], "warn");
      EXPECT_FALSE(f["source"].is_null());
    }
    if (id == "live.throttled") {
      ++hot;
      EXPECT_NE(title.find("GPU 2"), std::string::npos) << title;
      EXPECT_NE(title.find("heat"), std::string::npos) << title;
    }
    // The idle H100 gives no live finding.
    if (id.rfind("live.", 0) == 0) EXPECT_EQ(title.find("GPU 0"), std::string::npos) << title;
  }
  EXPECT_EQ(held, 1) << r.out;
  EXPECT_EQ(hot, 1) << r.out;
}

TEST(LiveStateFakeNvml, TheSingleH100AnswersTheNewCallsToo) {
  auto run = query_json_with(cuda_fake_dir("h100"), "nvml");
  ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
  ASSERT_EQ(run.json["live_state"]["gpus"].size(), 1u);
  const Json& g = run.json["live_state"]["gpus"][0];
  EXPECT_EQ(g["utilization_memory_percent"], 0);
  EXPECT_EQ(g["remapped_rows_failure"], false);
  EXPECT_EQ(g["processes"], Json::array());
}

}  // namespace live_state_test
}  // namespace gpudoctor
