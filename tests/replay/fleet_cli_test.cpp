// gpudoctor on a fleet, end to end on fixture machines (issue 16): check --oneline and its exit
// status, --fail-on, --prometheus (checked by promtool when it is installed), the node's name in
// reports, report --brief, and summary over reports good and bad.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

// The H100 server of vllm-project/vllm#11778, healthy; its conda environment active as there.
const std::vector<std::string> kH100Env = {"CONDA_PREFIX=/opt/conda",
                                           "SLURMD_NODENAME=", "NODE_NAME="};

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string fixture(const std::string& name) { return test::fixture_path(name); }

/// Output of a shell pipeline, and its exit status.
std::pair<std::string, int> shell(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return {"", -1};
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = ::pclose(p);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

bool has_program(const std::string& name) {
  return shell("command -v " + name + " >/dev/null 2>&1").second == 0;
}

/// `promtool check metrics` finds nothing to say of the file; skipped, with a word, without it.
void expect_promtool_clean(const std::string& prom) {
  if (!has_program("promtool")) {
    std::printf("promtool not installed (Debian: prometheus): the lint part is skipped\n");
    return;
  }
  auto lint = shell("promtool check metrics < '" + prom + "' 2>&1");
  EXPECT_EQ(lint.second, 0) << lint.first;
}

TEST(FleetCheck, OnelineFailsADriverLibraryMismatch) {
  // oddmario/NVIDIA-Ubuntu-Driver-Guide#4: module 550.90.07, libraries 550.107.02.
  auto r = test::run_gpudoctor(
      {"check", "--oneline", "--sysroot", fixture("nvidia-driver-library-mismatch")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.back(), '\n');
  const std::string line = r.out.substr(0, r.out.size() - 1);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_LE(line.size(), 200U);
  EXPECT_EQ(line.substr(0, 80).rfind("FAIL 1: nvidia.driver_library_mismatch", 0), 0U) << line;
}

TEST(FleetCheck, OnelineOnAHealthyServerExitsZero) {
  auto r = test::run_gpudoctor(
      {"check", "--oneline", "--no-smoke", "--sysroot", fixture("server-h100-torch-cu124")},
      kH100Env);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "OK: 8 GPUs, no failure or warning, 2 notes\n");
}

TEST(FleetCheck, FailOnWarnTurnsAWarningIntoExitOne) {
  // Umio-Yasuno/amdgpu_top#92: the user is not in the render group (a warning).
  const std::vector<std::string> args = {"check", "--oneline", "--sysroot",
                                         fixture("rocm-desktop-not-in-render")};
  auto plain = test::run_gpudoctor(args);
  EXPECT_EQ(plain.exit_code, 0) << plain.out;
  EXPECT_EQ(plain.out.rfind("WARN 1: rocm.not_in_group", 0), 0U) << plain.out;
  auto args_warn = args;
  args_warn.insert(args_warn.end(), {"--fail-on", "warn"});
  auto strict = test::run_gpudoctor(args_warn);
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_EQ(strict.out, plain.out);
  auto bad = test::run_gpudoctor({"check", "--fail-on", "info"});
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(FleetCheck, AMachineThatCannotBeReadIsUnknown) {
  test::TempTree t;
  const std::string prom = t.path() + "/gpudoctor.prom";
  auto r = test::run_gpudoctor({"check", "--oneline", "--sysroot", t.path() + "/missing",
                                "--prometheus", prom, "--node-name", "n9"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out.rfind("UNKNOWN: --sysroot ", 0), 0U) << r.out;
  EXPECT_NE(read(prom).find("gpudoctor_check_success{Hostname=\"n9\"} 0\n"), std::string::npos);
}

TEST(FleetCheck, PrometheusTextfileIsWrittenAtomicallyAndPassesPromtool) {
  test::TempTree t;
  const std::string prom = t.path() + "/gpudoctor.prom";
  auto r = test::run_gpudoctor({"check", "--oneline", "--prometheus", prom, "--sysroot",
                                fixture("nvidia-driver-library-mismatch")},
                               {"SLURMD_NODENAME=gpu-r012-n06", "NODE_NAME=ignored"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string text = read(prom);
  EXPECT_NE(text.find("gpudoctor_finding{Hostname=\"gpu-r012-n06\",id=\"nvidia.driver_library_"
                      "mismatch\",level=\"fail\",area=\"nvidia\"} 1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("gpudoctor_version_info{Hostname=\"gpu-r012-n06\",area=\"driver\","
                      "component=\"NVIDIA kernel module\",version=\"550.90.07\"} 1\n"),
            std::string::npos)
      << text;
  // Only the file itself: the temporary file was renamed over it.
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(t.path())) files += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 1U);
  expect_promtool_clean(prom);
}

TEST(FleetCheck, HealthyServerMetricsNameEveryGpuAndPassPromtool) {
  test::TempTree t;
  const std::string prom = t.path() + "/gpudoctor.prom";
  auto r = test::run_gpudoctor({"check", "--no-smoke", "--prometheus", prom, "--sysroot",
                                fixture("server-h100-torch-cu124"), "--node-name", "h100-1"},
                               kH100Env);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string text = read(prom);
  EXPECT_NE(text.find("gpudoctor_gpus{Hostname=\"h100-1\"} 8\n"), std::string::npos) << text;
  EXPECT_NE(text.find("pci_bus_id=\"00000000:DF:00.0\""), std::string::npos) << text;
  EXPECT_NE(text.find("gpudoctor_findings{Hostname=\"h100-1\",level=\"fail\"} 0\n"),
            std::string::npos);
  expect_promtool_clean(prom);
}

TEST(FleetCheck, AnUnwritableTextfileIsAnOutputError) {
  test::TempTree t;
  auto r = test::run_gpudoctor({"check", "--no-smoke", "--prometheus", t.path() + "/no/dir/x.prom",
                                "--sysroot", fixture("server-h100-torch-cu124")},
                               kH100Env);
  EXPECT_EQ(r.exit_code, 74);  // EX_IOERR: output that cannot be written, as for -o
  EXPECT_NE(r.err.find("--prometheus "), std::string::npos) << r.err;
}

// Issue 29 §7 changed this on purpose: a plain `report` is for a public ticket and names no
// node; the name survives redaction where the report is made for the fleet.
TEST(FleetReport, TheNodeNameSurvivesRedaction) {
  const std::vector<std::string> env{"CONDA_PREFIX=/opt/conda", "SLURMD_NODENAME=gpu-r012-n06"};
  auto plain = test::run_gpudoctor(
      {"report", "--no-smoke", "--sysroot", fixture("server-h100-torch-cu124")}, env);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_TRUE(Json::parse(plain.out)["node"].is_null());
  EXPECT_EQ(plain.out.find("gpu-r012-n06"), std::string::npos);
  const auto brief = test::run_gpudoctor(
      {"report", "--brief", "--no-smoke", "--sysroot", fixture("server-h100-torch-cu124")}, env);
  EXPECT_EQ(Json::parse(brief.out)["node"], "gpu-r012-n06");
  auto r = test::run_gpudoctor({"report", "--no-smoke", "--node-name", "gpu-r012-n06",
                                "--sysroot", fixture("server-h100-torch-cu124")},
                               env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json doc = Json::parse(r.out);
  EXPECT_EQ(doc["redaction"]["redacted"], true);
  EXPECT_EQ(doc["node"]["name"], "gpu-r012-n06");
  EXPECT_EQ(doc["node"]["source"], "--node-name");
  EXPECT_EQ(doc["brief"]["node"], "gpu-r012-n06");
  EXPECT_EQ(doc["brief"]["gpus"][0]["count"], 8);
  EXPECT_EQ(doc["brief"]["versions"]["driver"]["NVIDIA kernel module"], "550.127.05");
  EXPECT_EQ(doc["brief"]["versions"]["driver"]["libcuda the loader picks"], "550.127.05");
  EXPECT_EQ(doc["brief"]["versions"]["framework"]["torch"], "2.5.1+cu124");
}

TEST(FleetReport, BriefIsOneLineOfAboutAKilobyte) {
  auto r = test::run_gpudoctor({"report", "--brief", "--no-smoke", "--sysroot",
                                fixture("server-h100-torch-cu124"), "--node-name", "n1"},
                               kH100Env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1);
  EXPECT_LT(r.out.size(), 2048U);
  const Json b = Json::parse(r.out);
  EXPECT_EQ(b["kind"], "gpudoctor-brief");
  EXPECT_EQ(b["node"], "n1");
  EXPECT_EQ(b["summary"]["failures"], 0);
}

/// A copy of the H100 server with its last board gone from the PCI bus, as when a GPU falls
/// off the bus (cBio/cbio-cluster#24 "gpu-2-5 has lost a GPU", #81 "Some nodes are missing
/// GPUs").
std::string h100_missing_a_gpu(const test::TempTree& t) {
  const std::string root = t.path() + "/h100-seven";
  fs::copy(fixture("server-h100-torch-cu124"), root,
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::remove_all(root + "/sys/bus/pci/devices/0000:df:00.0");
  return root;
}

TEST(FleetSummary, ReportsOfManyNodesGoodAndBad) {
  test::TempTree t;
  const std::string dir = t.mkdir("reports");
  for (const char* n : {"gpu-r012-n01", "gpu-r012-n02", "gpu-r012-n03"}) {
    auto r = test::run_gpudoctor(
        {"report", "--no-smoke", "--sysroot", fixture("server-h100-torch-cu124"), "--node-name", n,
         "-o", dir + "/" + n + ".json"},
        kH100Env);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  auto seven =
      test::run_gpudoctor({"report", "--no-smoke", "--sysroot", h100_missing_a_gpu(t),
                           "--node-name", "gpu-r012-n04", "-o", dir + "/gpu-r012-n04.json"},
                          kH100Env);
  ASSERT_EQ(seven.exit_code, 0) << seven.err;
  auto bad_node = test::run_gpudoctor({"report", "--brief", "--sysroot",
                                       fixture("nvidia-driver-library-mismatch"), "--node-name",
                                       "gpu-r012-n06", "-o", dir + "/gpu-r012-n06.json"});
  ASSERT_EQ(bad_node.exit_code, 0) << bad_node.err;
  const std::string full = read(dir + "/gpu-r012-n01.json");
  t.write("reports/truncated.json", full.substr(0, full.size() / 2));
  t.write("reports/empty.json", "");
  t.write("reports/binary.json", std::string("\x7f"
                                             "ELF\x02\x01\x01\0\0\0",
                                             10));
  t.write("reports/array.json", "[1,2,3]");
  t.write("reports/deep.json", std::string(100000, '[') + std::string(100000, ']'));
  t.write("reports/newer.json", R"({"brief":{"schema_version":99,"node":"x"}})");
  t.write("reports/wrong-type.json",
          R"({"brief":{"node":"y","gpus":[{"model":"m","count":"8"}]}})");
  t.write("reports/not-a-report.json", R"({"hello":"world"})");
  t.write("reports/notes.txt", "not a report, and not *.json: not read");
  t.mkdir("reports/dir.json");

  auto r = test::run_gpudoctor({"summary", dir, t.path() + "/missing.json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // a node fails
  EXPECT_NE(r.out.find("gpudoctor summary: 5 nodes from 14 reports (9 unreadable)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("FAIL nvidia.driver_library_mismatch on 1 node: gpu-r012-n06"),
            std::string::npos)
      << r.out;
  // An API with no driver is one line after the findings, not a finding of its own.
  EXPECT_NE(r.out.find("also possible, not set up: opencl on 5 nodes, vulkan on 5 nodes"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("note opencl.no_icd"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fewer GPUs  GH100[H100 SXM5 80GB] \u00d77, usually \u00d78: gpu-r012-n04"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("truncated.json: not JSON: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("empty.json: not JSON: unexpected end at byte 0"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("deep.json: not JSON: nested too deep"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("newer.json: written by a newer gpudoctor"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrong-type.json: brief.gpus[0].count: not a count"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("missing.json: does not exist"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("notes.txt"), std::string::npos);

  auto j = test::run_gpudoctor({"summary", "--json", dir});
  const Json s = Json::parse(j.out);
  EXPECT_EQ(s["failing"]["hostlist"], "gpu-r012-n06");
  EXPECT_EQ(s["unreadable"].size(), 8U);
  EXPECT_EQ(s["nodes"].size(), 5U);
}

TEST(FleetSummary, BriefRecordsOnStandardInput) {
  test::TempTree t;
  std::string records;
  for (const char* n : {"n1", "n2"}) {
    auto r = test::run_gpudoctor({"report", "--brief", "--no-smoke", "--sysroot",
                                  fixture("server-h100-torch-cu124"), "--node-name", n},
                                 kH100Env);
    ASSERT_EQ(r.exit_code, 0);
    records += r.out;
  }
  const std::string file = t.write("records.jsonl", records + "{\"cut\":");
  auto r = shell(std::string(GPUDOCTOR_BIN) + " summary - < '" + file + "'");
  EXPECT_EQ(r.second, 0) << r.first;
  EXPECT_NE(r.first.find("gpudoctor summary: 2 nodes from 3 reports (1 unreadable)"),
            std::string::npos)
      << r.first;
  EXPECT_NE(r.first.find("GH100[H100 SXM5 80GB]: \u00d78 on 2 nodes"), std::string::npos)
      << r.first;
  EXPECT_NE(r.first.find("-: not JSON: document 3: unexpected end"), std::string::npos) << r.first;
}

TEST(FleetSummary, NothingReadableIsAnInputError) {
  test::TempTree t;
  t.write("x.json", "{");
  auto r = test::run_gpudoctor({"summary", t.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("Unreadable (1)"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("no readable report"), std::string::npos) << r.err;
}

TEST(FleetSummary, EntriesThatAreNotFilesAreNamedNotWaitedOn) {
  // A FIFO named *.json would block a plain open() until a writer came; /dev/zero never ends; a
  // dangling link has nothing behind it. Each is one unreadable report, named.
  test::TempTree t;
  const std::string dir = t.mkdir("reports");
  ASSERT_EQ(::mkfifo((dir + "/fifo.json").c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", dir + "/zero.json");
  fs::create_symlink(dir + "/gone", dir + "/dangling.json");
  t.write("reports/x.json", "{");
  auto r = test::run_gpudoctor({"summary", dir, dir + "/fifo.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("Unreadable (5)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("zero.json: not a regular file"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dangling.json: cannot be read (No such file or directory)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(dir + "/fifo.json: not a regular file"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpudoctor
