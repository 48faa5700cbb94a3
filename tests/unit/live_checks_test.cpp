// The live state's findings (src/checks/live_checks.cpp) on snapshots built here, the amdgpu
// sysfs reader against its fixture tree, the pp_dpm_* parser, the query text at 80 columns, and
// the report's redaction of a process path.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "checks/checks.hpp"
#include "compat/compat_data.hpp"
#include "core/root.hpp"
#include "live/live_probe.hpp"
#include "render/live_text.hpp"
#include "report/redact.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace live_checks_test {

std::vector<Finding> checks_of(const Snapshot& s) {
  auto devices = merge_devices(s);
  return run_checks(CheckInput{s, devices, builtin_compat()});
}

std::vector<Finding> with_id(const std::vector<Finding>& all, const std::string& id) {
  std::vector<Finding> out;
  for (const auto& f : all) {
    if (f.id == id) out.push_back(f);
  }
  return out;
}

/// A snapshot of this machine now with one GPU in its live section.
Snapshot live_snapshot(const LiveGpu& g) {
  Snapshot s;
  s.origin = Origin::live;
  s.live = true;
  s.live_state = LiveState{};
  s.live_state->gpus.push_back(g);
  return s;
}

LiveGpu nvidia_gpu() {
  LiveGpu g;
  g.vendor = "nvidia";
  g.source = "nvml";
  g.index = 1;
  g.name = "Tesla P100-SXM2-16GB";
  g.pci_bus_id = "0000:05:00.0";
  g.memory_total_bytes = 16280ull << 20;
  g.memory_used_bytes = 12799ull << 20;
  g.memory_free_bytes = (16280ull - 12799ull) << 20;
  g.throttle_reasons = std::vector<std::string>{};
  g.processes = std::vector<LiveProcess>{};
  return g;
}

TEST(LiveMemoryHeld, NamesTheProcessHoldingMostOfTheMemory) {
  LiveGpu g = nvidia_gpu();
  g.processes->push_back(LiveProcess{23456, "python3", 12789ull << 20, "compute"});
  const auto found = with_id(checks_of(live_snapshot(g)), "live.memory_held");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::warn);
  EXPECT_NE(found[0].title.find("pid 23456 python3"), std::string::npos) << found[0].title;
  EXPECT_NE(found[0].title.find("79%"), std::string::npos) << found[0].title;
  ASSERT_TRUE(found[0].fix);
  EXPECT_NE(found[0].fix->find("kill 23456"), std::string::npos);
  ASSERT_TRUE(found[0].source);
  EXPECT_NE(found[0].source->find("docs.nvidia.com"), std::string::npos);
}

TEST(LiveMemoryHeld, QuietBelowHalfAndWithoutFigures) {
  LiveGpu g = nvidia_gpu();
  g.processes->push_back(LiveProcess{1, "Xorg", 600ull << 20, "graphics"});
  EXPECT_TRUE(with_id(checks_of(live_snapshot(g)), "live.memory_held").empty());
  // NVML's "N/A" for a process's memory cannot be weighed: nothing said, not "0 MiB held".
  LiveGpu n = nvidia_gpu();
  n.processes->push_back(LiveProcess{2, "python", std::nullopt, "compute"});
  EXPECT_TRUE(with_id(checks_of(live_snapshot(n)), "live.memory_held").empty());
}

TEST(LiveMemoryHeld, AmdgpuWithoutAProcessListOnlyWhenNearlyFull) {
  LiveGpu g;
  g.vendor = "amd";
  g.source = "amdgpu-sysfs";
  g.memory_total_bytes = 8573157376ull;
  g.memory_used_bytes = 6812925952ull;  // 79%: not nearly full
  EXPECT_TRUE(with_id(checks_of(live_snapshot(g)), "live.memory_held").empty());
  g.memory_used_bytes = 8200000000ull;  // 95%
  const auto found = with_id(checks_of(live_snapshot(g)), "live.memory_held");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].title.find("which processes hold it was not read"), std::string::npos);
  EXPECT_NE(found[0].fix->find("HIP_VISIBLE_DEVICES"), std::string::npos);
}

TEST(LiveChecks, NotExaminedOutsideALiveSnapshot) {
  LiveGpu g = nvidia_gpu();
  g.processes->push_back(LiveProcess{23456, "python3", 12789ull << 20, "compute"});
  g.ecc_uncorrected_volatile = 3;
  g.remapped_rows_pending = true;
  g.throttle_reasons = std::vector<std::string>{"hw_thermal_slowdown"};
  for (Origin o : {Origin::sysroot, Origin::report, Origin::paste}) {
    Snapshot s = live_snapshot(g);
    s.origin = o;
    s.live = o != Origin::sysroot;
    for (const auto& f : checks_of(s)) {
      EXPECT_NE(f.id.rfind("live.", 0), 0u) << f.id << " from origin " << enum_name(o);
    }
  }
  // A tree's files read as "not now" are not judged either, even under a live origin.
  Snapshot s = live_snapshot(g);
  s.live_state->live = false;
  for (const auto& f : checks_of(s)) EXPECT_NE(f.id.rfind("live.", 0), 0u) << f.id;
}

TEST(LiveThrottled, HeatIsAWarningThePowerCapANote) {
  LiveGpu g = nvidia_gpu();
  g.name = "NVIDIA GeForce MX330";
  g.temperature_c = 67;
  g.temperature_slowdown_c = 97;
  g.throttle_reasons = std::vector<std::string>{"sw_thermal_slowdown"};
  auto found = with_id(checks_of(live_snapshot(g)), "live.throttled");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::warn);
  EXPECT_NE(found[0].title.find("slowed down by heat"), std::string::npos) << found[0].title;

  g.throttle_reasons = std::vector<std::string>{"sw_power_cap"};
  found = with_id(checks_of(live_snapshot(g)), "live.throttled");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::info);

  g.throttle_reasons = std::vector<std::string>{"gpu_idle"};
  EXPECT_TRUE(with_id(checks_of(live_snapshot(g)), "live.throttled").empty());

  // Above its slowdown temperature with no reason read (amdgpu): still heat.
  g.throttle_reasons.reset();
  g.temperature_c = 98;
  found = with_id(checks_of(live_snapshot(g)), "live.throttled");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::warn);
}

TEST(LivePendingReset, PendingRemapWarnsAFailedOneFails) {
  LiveGpu g = nvidia_gpu();
  g.remapped_rows_correctable = 2;
  g.remapped_rows_uncorrectable = 1;
  g.remapped_rows_pending = true;
  g.remapped_rows_failure = false;
  auto found = with_id(checks_of(live_snapshot(g)), "live.pending_reset");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::warn);
  EXPECT_NE(found[0].fix->find("nvidia-smi -r -i 1"), std::string::npos);

  g.remapped_rows_failure = true;
  found = with_id(checks_of(live_snapshot(g)), "live.pending_reset");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::fail);

  LiveGpu pages = nvidia_gpu();
  pages.retired_pages_pending = true;
  pages.retired_pages_double_bit = 2;
  found = with_id(checks_of(live_snapshot(pages)), "live.pending_reset");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].title.find("retired memory pages"), std::string::npos);

  LiveGpu clean = nvidia_gpu();
  clean.remapped_rows_pending = false;
  clean.retired_pages_pending = false;
  EXPECT_TRUE(with_id(checks_of(live_snapshot(clean)), "live.pending_reset").empty());
}

TEST(LiveEcc, UncorrectedSinceTheDriverLoadedFails) {
  LiveGpu g = nvidia_gpu();
  g.ecc_uncorrected_volatile = 0;
  g.ecc_uncorrected_aggregate = 4;  // in the past: not this run's problem
  EXPECT_TRUE(with_id(checks_of(live_snapshot(g)), "live.ecc_uncorrected").empty());
  g.ecc_uncorrected_volatile = 2;
  const auto found = with_id(checks_of(live_snapshot(g)), "live.ecc_uncorrected");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::fail);
  EXPECT_NE(found[0].title.find("2 uncorrectable ECC memory errors"), std::string::npos);
}

TEST(LiveAmdgpu, PpDpmLevels) {
  auto l = live::parse_pp_dpm("0: 300Mhz\n1: 608Mhz\n2: 1340Mhz *\n");
  EXPECT_EQ(l.current_mhz, 1340u);
  EXPECT_EQ(l.max_mhz, 1340u);
  l = live::parse_pp_dpm("S: 19Mhz *\n0: 500Mhz \n1: 2482Mhz \n");
  EXPECT_EQ(l.current_mhz, 19u);
  EXPECT_EQ(l.max_mhz, 2482u);
  l = live::parse_pp_dpm("garbage\n0: lots\n");
  EXPECT_FALSE(l.current_mhz);
  EXPECT_FALSE(l.max_mhz);
}

TEST(LiveAmdgpu, ReadsTheFixtureTree) {
  const Root root(test::fixture_path("live-amdgpu-vram-79pct"));
  const auto gpus = live::read_amdgpu(root);
  ASSERT_EQ(gpus.size(), 1u);
  const LiveGpu& g = gpus[0];
  EXPECT_EQ(g.vendor, "amd");
  EXPECT_EQ(g.source, "amdgpu-sysfs");
  EXPECT_EQ(g.index, 0);
  EXPECT_EQ(g.memory_total_bytes, 8573157376ull);
  EXPECT_EQ(g.memory_used_bytes, 6812925952ull);
  EXPECT_EQ(g.memory_free_bytes, 8573157376ull - 6812925952ull);
  EXPECT_EQ(g.utilization_memory_percent, 1);
  EXPECT_EQ(g.utilization_gpu_percent, 2);
  EXPECT_EQ(g.clock_graphics_mhz, 700u);
  EXPECT_EQ(g.clock_graphics_max_mhz, 2491u);
  EXPECT_EQ(g.temperature_c, 45);
  EXPECT_EQ(g.temperature_slowdown_c, 100);
  EXPECT_EQ(g.power_draw_mw, 9000u);
  // Not in the tree: absent, never 0.
  EXPECT_FALSE(g.temperature_shutdown_c);
  EXPECT_FALSE(g.clock_memory_mhz);
  EXPECT_FALSE(g.processes);
  EXPECT_FALSE(g.throttle_reasons);
  // card0-DP-1 is a connector, and card1 is bound to another driver: neither is read.
}

TEST(LiveLevelZero, SysmanFiguresAsLiveGpusAndAbsentOnesStayAbsent) {
  LevelZeroInfo lz;
  LevelZeroDevice read;
  read.name = "Intel(R) Arc(TM) A770 Graphics";
  read.pci_bus_id = "0000:03:00.0";
  read.sysman = LevelZeroSysman{};
  read.sysman->memory_total_bytes = 16ull << 30;
  read.sysman->memory_free_bytes = 10ull << 30;
  read.sysman->temperature_c = 61;
  LevelZeroDevice unread;  // Sysman not read at all: no live GPU
  unread.name = "Intel(R) UHD Graphics 770";
  lz.devices = {read, unread};
  const auto gpus = live::from_level_zero(lz);
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_EQ(gpus[0].vendor, "intel");
  EXPECT_EQ(gpus[0].source, "level-zero-sysman");
  EXPECT_EQ(gpus[0].memory_used_bytes, std::optional<std::uint64_t>(6ull << 30));
  EXPECT_EQ(gpus[0].temperature_c, std::optional<int>(61));
  EXPECT_FALSE(gpus[0].clock_graphics_mhz);        // not given: absent, not 0
  EXPECT_FALSE(gpus[0].utilization_gpu_percent);
}

TEST(LiveMemoryHeld, IntelNearlyFullNamesIntelsTools) {
  LiveGpu g;
  g.vendor = "intel";
  g.source = "level-zero-sysman";
  g.name = "Intel(R) Arc(TM) A770 Graphics";
  g.memory_total_bytes = 16ull << 30;
  g.memory_used_bytes = 15ull << 30;  // 94%, no process list
  const auto found = with_id(checks_of(live_snapshot(g)), "live.memory_held");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].fix->find("xpu-smi ps"), std::string::npos) << *found[0].fix;
}

TEST(LiveText, EveryLineFitsIn80ColumnsAndAbsentFiguresAreNotShown) {
  LiveGpu g = nvidia_gpu();
  g.processes->push_back(LiveProcess{
      23456, "/home/someone/a/very/long/path/to/a/virtual/environment/bin/python3.12-debug",
      12789ull << 20, "compute"});
  g.name = "NVIDIA A Very Long Product Name That Goes On And On For Quite A While Indeed";
  Snapshot s = live_snapshot(g);
  s.live_state->not_examined.push_back("NVML: a reason long enough to need cutting at the edge "
                                       "of an eighty-column terminal window, and then more");
  std::ostringstream os;
  render_live_text(os, s, Style::plain().with_unicode(false));
  const std::string text = os.str();
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_LE(display_width(line), 80u) << line;
  }
  EXPECT_NE(text.find("12799 MiB used of 16280 MiB"), std::string::npos) << text;
  EXPECT_NE(text.find("pid 23456"), std::string::npos) << text;
  EXPECT_NE(text.find("not examined: NVML"), std::string::npos) << text;
  EXPECT_EQ(text.find("temp"), std::string::npos) << text;  // no temperature was read
}

TEST(LiveText, NothingWithoutALiveSection) {
  Snapshot s;
  std::ostringstream os;
  render_live_text(os, s, Style::plain());
  EXPECT_TRUE(os.str().empty());
}

TEST(LiveRedaction, AProcessPathLosesItsUserName) {
  LiveGpu g = nvidia_gpu();
  g.processes->push_back(LiveProcess{23456, "/home/alice/venv/bin/python3", 1ull << 30,
                                     "compute"});
  const Snapshot s = live_snapshot(g);
  const Redacted r = redact(Json(s), {"alice"});
  const std::string name = r.doc["live_state"]["gpus"][0]["processes"][0]["process_name"];
  EXPECT_EQ(name.find("alice"), std::string::npos) << name;
  EXPECT_NE(name.find("/home/<user"), std::string::npos) << name;
}

}  // namespace live_checks_test
}  // namespace gpudoctor
