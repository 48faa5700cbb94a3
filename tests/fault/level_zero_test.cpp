// Level Zero through the real loader (Debian's libze1) and fake drivers at its DDI ABI
// (tests/fakes/level_zero): an Arc A770 and a Max 1550 with two tiles enumerated, the smoke
// matmul run by the fake and verified against the CPU reference (a wrong result caught), and
// drivers that crash in zeInit, hang in zeDeviceGet or answer garbage, each blamed by name while
// the run goes on with the good driver beside it. Skipped where the loader or the fakes (built
// only with libze-dev's headers) are absent.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "checks/area_status.hpp"
#include "json.hpp"
#include "level_zero/level_zero_matmul.hpp"
#include "model/snapshot.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace level_zero_test {

std::string fake(const std::string& mode) {
  return std::string(GPUDOCTOR_FAKES) + "/level_zero/" + mode + "/libze_intel_gpu.so.1";
}
std::string fake_dir(const std::string& mode) {
  return std::string(GPUDOCTOR_FAKES) + "/level_zero/" + mode;
}

bool loader_here() {
  for (const char* dir :
       {"/usr/lib/x86_64-linux-gnu/", "/usr/lib64/", "/usr/lib/", "/usr/lib/aarch64-linux-gnu/"}) {
    if (::access((std::string(dir) + "libze_loader.so.1").c_str(), R_OK) == 0) return true;
  }
  return false;
}

#define SKIP_WITHOUT_LEVEL_ZERO()                                                     \
  if (!loader_here()) GTEST_SKIP() << "no Level Zero loader (libze1)";                \
  if (::access(fake("arc").c_str(), R_OK) != 0) {                                     \
    GTEST_SKIP() << "the fake Level Zero drivers were not built (libze-dev headers)"; \
  }

std::string alt(const std::vector<std::string>& modes) {
  std::string v = "ZE_ENABLE_ALT_DRIVERS=";
  for (std::size_t i = 0; i < modes.size(); ++i) v += (i ? "," : "") + fake(modes[i]);
  return v;
}

struct LzRun {
  test::CommandResult r;
  Json json;
};

LzRun gpudoctor_json(const std::vector<std::string>& args, const std::vector<std::string>& env) {
  LzRun run;
  run.r = test::run_gpudoctor(args, env);
  run.json = Json::parse(run.r.out, nullptr, /*allow_exceptions=*/false);
  return run;
}

LzRun query(const std::vector<std::string>& env) {
  return gpudoctor_json({"query", "--json", "--backend", "pci,level_zero", "--timeout", "5"}, env);
}

LzRun check(const std::vector<std::string>& env, const std::string& timeout = "5") {
  return gpudoctor_json({"check", "--json", "--backend", "pci,level_zero", "--timeout", timeout},
                        env);
}

const Json* outcome_of(const Json& snapshot, const std::string& library) {
  for (const auto& p : snapshot.at("probes")) {
    if (p.value("backend", "") == "level_zero" && p.value("library", Json()) == library) {
      return &p;
    }
  }
  return nullptr;
}

const Json* finding(const Json& report, const std::string& id, const std::string& naming) {
  for (const auto& f : report.at("findings")) {
    if (f.value("id", "") == id && f.value("title", "").find(naming) != std::string::npos) {
      return &f;
    }
  }
  return nullptr;
}

TEST(LevelZeroFake, ArcA770EnumeratedThroughTheRealLoader) {
  SKIP_WITHOUT_LEVEL_ZERO();
  LzRun q = query({alt({"arc"})});
  ASSERT_EQ(q.r.exit_code, 0) << q.r.err;
  ASSERT_FALSE(q.json.is_discarded()) << q.r.out;
  const Json& lz = q.json.at("level_zero");
  EXPECT_NE(lz.at("library").get<std::string>().find("libze_loader.so.1"), std::string::npos);
  ASSERT_EQ(lz.at("drivers").size(), 1u) << lz.dump(2);
  EXPECT_EQ(lz.at("drivers")[0].at("driver_version"), "1.3.26241");
  EXPECT_EQ(lz.at("drivers")[0].at("api_version"), "1.3");
  EXPECT_EQ(lz.at("drivers")[0].at("uuid"), "d0d1d2d3d4d5d6d7d8d9dadbdcdddedf");
  ASSERT_EQ(lz.at("devices").size(), 1u) << lz.dump(2);
  const Json& d = lz.at("devices")[0];
  EXPECT_EQ(d.at("name"), "Intel(R) Arc(TM) A770 Graphics");
  EXPECT_EQ(d.at("type"), "gpu");
  EXPECT_EQ(d.at("vendor_id"), 0x8086);
  EXPECT_EQ(d.at("device_id"), 0x56a0);
  EXPECT_EQ(d.at("eu_count"), 512);
  EXPECT_EQ(d.at("pci_bus_id"), "0000:03:00.0");
  EXPECT_EQ(d.at("uuid"), "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf");
  EXPECT_TRUE(lz.at("tiles").empty());
  // One merged device, seen by Level Zero, named by it.
  ASSERT_EQ(q.json.at("devices").size(), 1u) << q.json.at("devices").dump(2);
  EXPECT_EQ(q.json.at("devices")[0].at("name"), "Intel(R) Arc(TM) A770 Graphics");
  EXPECT_EQ(q.json.at("devices")[0].at("level_zero").size(), 1u);
  // The child is named after the driver it loaded.
  const Json* child = outcome_of(q.json, fake("arc"));
  ASSERT_NE(child, nullptr) << q.json.at("probes").dump(2);
  EXPECT_EQ(child->at("status"), "ok");
}

const Json* live_intel_gpu(const Json& snapshot) {
  if (!snapshot.contains("live_state") || snapshot.at("live_state").is_null()) return nullptr;
  for (const auto& g : snapshot.at("live_state").at("gpus")) {
    if (g.value("source", "") == "level-zero-sysman") return &g;
  }
  return nullptr;
}

TEST(LevelZeroFake, SysmanLiveStateOfTheArc) {
  SKIP_WITHOUT_LEVEL_ZERO();
  // The fake's Sysman tables (zesGetDeviceProcAddrTable and its neighbours) through the real
  // loader: 16 GiB with 6 in use, 61 C, 2000 of 2400 MHz, engines busy half the time.
  LzRun q = query({alt({"arc"})});
  ASSERT_EQ(q.r.exit_code, 0) << q.r.err;
  const Json& sys = q.json.at("level_zero").at("devices").at(0).at("sysman");
  ASSERT_TRUE(sys.is_object()) << q.json.at("level_zero").dump(2);
  EXPECT_EQ(sys.at("memory_total_bytes"), 16ull << 30) << sys.dump(2);
  EXPECT_EQ(sys.at("memory_free_bytes"), 10ull << 30);
  EXPECT_EQ(sys.at("temperature_c"), 61);
  EXPECT_EQ(sys.at("clock_mhz"), 2000);
  EXPECT_EQ(sys.at("clock_max_mhz"), 2400);
  EXPECT_EQ(sys.at("utilization_percent"), 50);
  EXPECT_TRUE(sys.at("not_read").empty()) << sys.dump(2);
  // The same figures in the vendor-neutral live state NVML and amdgpu's sysfs fill.
  const Json* g = live_intel_gpu(q.json);
  ASSERT_NE(g, nullptr) << q.json.value("live_state", Json()).dump(2);
  EXPECT_EQ(g->at("vendor"), "intel");
  EXPECT_EQ(g->at("name"), "Intel(R) Arc(TM) A770 Graphics");
  EXPECT_EQ(g->at("pci_bus_id"), "0000:03:00.0");
  EXPECT_EQ(g->at("memory_used_bytes"), 6ull << 30);
  EXPECT_EQ(g->at("temperature_c"), 61);
  EXPECT_EQ(g->at("clock_graphics_mhz"), 2000);
  EXPECT_EQ(g->at("utilization_gpu_percent"), 50);
}

TEST(LevelZeroFake, FoundByTheLoadersOwnSearchOnTheLibraryPath) {
  SKIP_WITHOUT_LEVEL_ZERO();
  // No ZE_ENABLE_ALT_DRIVERS: gpudoctor finds libze_intel_gpu.so.1 on LD_LIBRARY_PATH as the
  // loader would, and lists it.
  LzRun q = query({"LD_LIBRARY_PATH=" + fake_dir("arc")});
  ASSERT_EQ(q.r.exit_code, 0) << q.r.err;
  const Json& lz = q.json.at("level_zero");
  ASSERT_EQ(lz.at("driver_libraries").size(), 1u) << lz.dump(2);
  EXPECT_EQ(lz.at("driver_libraries")[0], fake("arc"));
  ASSERT_EQ(lz.at("devices").size(), 1u) << lz.dump(2);
  EXPECT_EQ(lz.at("devices")[0].at("device_id"), 0x56a0);
}

TEST(LevelZeroFake, Max1550WithItsTwoTiles) {
  SKIP_WITHOUT_LEVEL_ZERO();
  LzRun q = query({alt({"max"})});
  ASSERT_EQ(q.r.exit_code, 0) << q.r.err;
  const Json& lz = q.json.at("level_zero");
  ASSERT_EQ(lz.at("devices").size(), 1u) << lz.dump(2);
  const Json& d = lz.at("devices")[0];
  EXPECT_EQ(d.at("device_id"), 0x0bd5);
  EXPECT_EQ(d.at("subdevices"), 2);
  EXPECT_EQ(d.at("eu_count"), 1024);
  EXPECT_TRUE(d.at("flags").empty());
  ASSERT_EQ(lz.at("tiles").size(), 2u) << lz.dump(2);
  for (int t = 0; t < 2; ++t) {
    const Json& tile = lz.at("tiles")[static_cast<std::size_t>(t)];
    EXPECT_EQ(tile.at("parent"), 0);
    EXPECT_EQ(tile.at("subdevice_id"), t);
    EXPECT_EQ(tile.at("eu_count"), 512);
    EXPECT_EQ(tile.at("flags"), Json::array({"subdevice"}));
  }
  EXPECT_NE(lz.at("tiles")[0].at("uuid"), lz.at("tiles")[1].at("uuid"));
  // The driver's UUID is all zeros: unknown, not a UUID.
  EXPECT_TRUE(lz.at("drivers")[0].at("uuid").is_null()) << lz.at("drivers").dump(2);
  // One merged device (the tiles are its parts, not devices of their own), with its tiles.
  ASSERT_EQ(q.json.at("devices").size(), 1u) << q.json.at("devices").dump(2);
  EXPECT_EQ(q.json.at("devices")[0].at("level_zero")[0].at("tiles").size(), 2u);
}

TEST(LevelZeroFake, QueryTextKeepsASpaceAfterTheLevelZeroLabel) {
  SKIP_WITHOUT_LEVEL_ZERO();
  auto r = test::run_gpudoctor({"query", "--backend", "pci,level_zero"}, {alt({"max"})});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Level Zero Intel(R) Data Center GPU Max 1550"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Level ZeroIntel"), std::string::npos) << r.out;
  // The rows under it start in the same column as the label's text.
  const std::size_t label = r.out.find("Level Zero Intel");
  const std::size_t line = r.out.rfind('\n', label) + 1;
  const std::size_t column = r.out.find("Intel", label) - line;
  const std::size_t next = r.out.find('\n', label) + 1;
  EXPECT_EQ(r.out.find_first_not_of(' ', next) - next, column) << r.out;
  auto c = test::run_gpudoctor({"check", "--backend", "pci,level_zero"}, {alt({"max"})});
  EXPECT_NE(c.out.find("level_zero  Intel(R) Data Center GPU Max 1550"), std::string::npos)
      << c.out;
}

TEST(LevelZeroFake, SmokeMatmulRunsOnTheFakeAndPassesVerification) {
  SKIP_WITHOUT_LEVEL_ZERO();
  LzRun c = check({alt({"arc"})});
  ASSERT_EQ(c.r.exit_code, 0) << c.r.err << c.r.out;
  const Json& smoke = c.json.at("snapshot").at("level_zero").at("smoke");
  ASSERT_EQ(smoke.size(), 1u) << smoke.dump(2);
  EXPECT_EQ(smoke[0].at("status"), "pass") << smoke.dump(2);
  EXPECT_EQ(smoke[0].at("api"), "level_zero");
  EXPECT_EQ(smoke[0].at("n"), 256);
  EXPECT_EQ(smoke[0].at("wrong_entries"), 0);
  EXPECT_LE(smoke[0].at("max_abs_error").get<double>(), smoke[0].at("tolerance").get<double>());
  EXPECT_EQ(smoke[0].at("library"), fake("arc"));
  EXPECT_NE(smoke[0].at("kernel").get<std::string>().find("SPIR-V"), std::string::npos);
}

TEST(LevelZeroFake, WrongResultIsCaughtByTheVerification) {
  SKIP_WITHOUT_LEVEL_ZERO();
  LzRun c = check({alt({"wrong-result"})});
  EXPECT_EQ(c.r.exit_code, 1) << c.r.err << c.r.out;
  ASSERT_FALSE(c.json.is_discarded()) << c.r.out;
  const Json& smoke = c.json.at("snapshot").at("level_zero").at("smoke");
  ASSERT_EQ(smoke.size(), 1u) << smoke.dump(2);
  EXPECT_EQ(smoke[0].at("status"), "fail");
  EXPECT_EQ(smoke[0].at("wrong_entries"), 1);
  // The fake adds 1 to C[n/2][7] (tests/fakes/level_zero/fake_ze_driver.c); n is padded to 256.
  EXPECT_EQ(smoke[0].at("worst_row"), 128);
  EXPECT_EQ(smoke[0].at("worst_col"), 7);
  const Json* f = finding(c.json, "smoke.failed", "Level Zero smoke matmul");
  ASSERT_NE(f, nullptr) << c.json.at("findings").dump(2);
  EXPECT_EQ(f->at("severity"), "fail");
  EXPECT_NE(f->at("title").get<std::string>().find("wrong results"), std::string::npos);
}

TEST(LevelZeroFake, BenchHasALevelZeroSeriesPerDevice) {
  SKIP_WITHOUT_LEVEL_ZERO();
  auto r = test::run_gpudoctor(
      {"bench", "--sizes", "16,32", "--json", "--backend", "level_zero", "--no-vendor-blas"},
      {alt({"arc", "wrong-result"})});
  // 1: a device returned a wrong result (docs/bench.md, exit status).
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out.substr(0, 4000);
  const Json doc = Json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out.substr(0, 4000);
  std::vector<const Json*> series;
  for (const auto& result : doc.at("results")) {
    if (result.at("series").at("api") == "level_zero") series.push_back(&result.at("series"));
  }
  ASSERT_EQ(series.size(), 2u) << r.out.substr(0, 4000);
  for (const Json* s : series) {
    EXPECT_EQ(s->at("device"), "Intel(R) Arc(TM) A770 Graphics");
    ASSERT_EQ(s->at("points").size(), 2u) << s->dump(2);
  }
  // The good driver's points are verified; the lying one's each carry the error.
  const bool first_good = series[0]->at("library") == fake("arc");
  const Json& good = *series[first_good ? 0 : 1];
  const Json& bad = *series[first_good ? 1 : 0];
  EXPECT_EQ(good.at("library"), fake("arc"));
  for (const auto& p : good.at("points")) {
    EXPECT_TRUE(p.at("error").is_null()) << p.dump();
    EXPECT_GT(p.at("gflops").get<double>(), 0.0);
  }
  for (const auto& p : bad.at("points")) EXPECT_FALSE(p.at("error").is_null()) << p.dump();
}

TEST(LevelZeroNoKernel, ABuildWithoutTheSpirvKernelSaysNotExaminedNeverOk) {
  // What a build without clang or llvm-spirv links (matmul_spirv_none.cpp): an empty module.
  level_zero::LevelZeroMatmul runner(nullptr, "", nullptr, nullptr,
                                     "Intel(R) Arc(TM) A770 Graphics", "libze_intel_gpu.so.1", {});
  SmokeResult r = runner.run({256});
  EXPECT_EQ(r.status, "skip");
  EXPECT_EQ(r.reason, std::optional<std::string>("not examined: built without a SPIR-V kernel"));
  EXPECT_EQ(r.api, "level_zero");

  Snapshot snap;
  snap.live = true;
  LevelZeroInfo lz;
  lz.library = "/usr/lib/x86_64-linux-gnu/libze_loader.so.1";
  lz.drivers.emplace_back();
  LevelZeroDevice d;
  d.name = r.device;
  lz.devices.push_back(d);
  lz.smoke.push_back(r);
  snap.level_zero = lz;
  bool seen = false;
  for (const AreaStatus& a : area_statuses(snap, {}, {})) {
    if (a.area != "level_zero") continue;
    seen = true;
    EXPECT_EQ(a.state, AreaState::not_examined) << a.summary;
    EXPECT_NE(a.summary.find("SKIP"), std::string::npos) << a.summary;
  }
  EXPECT_TRUE(seen);
  // The same device with a smoke test that passed is ok.
  snap.level_zero->smoke.front().status = "pass";
  snap.level_zero->smoke.front().reason.reset();
  for (const AreaStatus& a : area_statuses(snap, {}, {})) {
    if (a.area == "level_zero") EXPECT_EQ(a.state, AreaState::ok) << a.summary;
  }
}

struct Fault {
  const char* mode;    ///< the fake driver's directory
  const char* status;  ///< its outcome's status
  const char* says;    ///< what its detail must say
};

void PrintTo(const Fault& f, std::ostream* os) { *os << f.mode; }

const Fault kFaults[] = {
    {"init-crash", "crashed", "SIGSEGV"},
    {"device-hang", "timed_out", "within 2000 ms"},
    {"garbage", "failed", "answered implausibly"},
};

class LevelZeroFaults : public ::testing::TestWithParam<Fault> {};

TEST_P(LevelZeroFaults, TheDriverIsBlamedAndTheArcBesideItStillCounts) {
  SKIP_WITHOUT_LEVEL_ZERO();
  const Fault& f = GetParam();
  LzRun c = check({alt({f.mode, "arc"})}, "2");
  EXPECT_EQ(c.r.exit_code, 1) << c.r.err;
  EXPECT_LT(c.r.seconds, 2.0 + 6.0);
  ASSERT_FALSE(c.json.is_discarded()) << c.r.out << c.r.err;
  const Json& snapshot = c.json.at("snapshot");
  const Json* bad = outcome_of(snapshot, fake(f.mode));
  ASSERT_NE(bad, nullptr) << snapshot.at("probes").dump(2);
  EXPECT_EQ(bad->at("status"), f.status) << bad->dump(2);
  EXPECT_NE(bad->at("detail").get<std::string>().find(f.says), std::string::npos) << bad->dump(2);
  const Json* blamed = finding(c.json, std::string("probe.") + f.status, fake(f.mode));
  ASSERT_NE(blamed, nullptr) << c.json.at("findings").dump(2);
  EXPECT_EQ(blamed->at("severity"), "fail");
  EXPECT_EQ(blamed->at("title").get<std::string>().find("libze_loader"), std::string::npos)
      << "the loader is not the culprit: " << blamed->dump(2);
  // The run went on: the good driver's device and its smoke test are there, and nothing of the
  // faulty driver's answers became a device.
  const Json& lz = snapshot.at("level_zero");
  ASSERT_EQ(lz.at("devices").size(), 1u) << lz.dump(2);
  EXPECT_EQ(lz.at("devices")[0].at("name"), "Intel(R) Arc(TM) A770 Graphics");
  ASSERT_EQ(lz.at("smoke").size(), 1u) << lz.dump(2);
  EXPECT_EQ(lz.at("smoke")[0].at("status"), "pass");
  ASSERT_EQ(snapshot.at("devices").size(), 1u) << snapshot.at("devices").dump(2);
  const Json* good = outcome_of(snapshot, fake("arc"));
  ASSERT_NE(good, nullptr);
  EXPECT_EQ(good->at("status"), "ok");
}

INSTANTIATE_TEST_SUITE_P(EveryFault, LevelZeroFaults, ::testing::ValuesIn(kFaults),
                         [](const auto& info) {
                           std::string name = info.param.mode;
                           for (char& ch : name) ch = ch == '-' ? '_' : ch;
                           return name;
                         });

}  // namespace level_zero_test
}  // namespace gpudoctor
