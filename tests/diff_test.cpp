// `gpudoctor diff`: what differs that matters between a machine that works and one that does
// not, most important first.
#include "report/diff.hpp"

#include <gtest/gtest.h>

#include "devices.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

/// `gpudoctor report` of a fixture machine, written to a file in `tmp`.
std::string report_of(const test::TempTree& tmp, const std::string& fixture) {
  const std::string file = tmp.path() + "/" + fixture + ".json";
  auto r = test::run_gpudoctor({"report", "-o", file, "--sysroot", test::fixture_path(fixture)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return file;
}

TEST(DiffCli, MismatchedDriverAgainstAHealthyMachineLeadsWithTheFailure) {
  test::TempTree tmp;
  const std::string healthy = report_of(tmp, "nvidia-several-toolkits");
  const std::string broken = report_of(tmp, "nvidia-driver-library-mismatch");

  auto r = test::run_gpudoctor({"diff", "--json", healthy, broken});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json diffs = Json::parse(r.out)["differences"];
  ASSERT_GE(diffs.size(), 3u);
  EXPECT_EQ(diffs[0]["area"], "finding");
  EXPECT_EQ(diffs[0]["what"], "nvidia.driver_library_mismatch");
  EXPECT_TRUE(diffs[0]["a"].is_null());
  EXPECT_NE(diffs[0]["b"].get<std::string>().find("fail"), std::string::npos);
  bool saw_module = false;
  bool saw_toolkits = false;
  for (const auto& d : diffs) {
    if (d["what"] == "NVIDIA kernel module") {
      saw_module = true;
      EXPECT_EQ(d["b"], "550.90.07");
    }
    if (d["what"] == "CUDA toolkits") saw_toolkits = !d["a"].is_null() && d["b"].is_null();
  }
  EXPECT_TRUE(saw_module) << r.out;
  EXPECT_TRUE(saw_toolkits) << r.out;
  for (std::size_t i = 1; i < diffs.size(); ++i) {
    EXPECT_LE(diffs[i - 1]["rank"].get<int>(), diffs[i]["rank"].get<int>());
  }

  auto text = test::run_gpudoctor({"diff", healthy, broken});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_EQ(text.out.find("finding: nvidia.driver_library_mismatch\n  A: (none)\n  B: fail: "),
            text.out.find("finding:"));
  EXPECT_NE(text.out.find("most important first"), std::string::npos);
}

TEST(DiffCli, AReportAgainstItselfHasNoDifferences) {
  test::TempTree tmp;
  const std::string a = report_of(tmp, "nvidia-dkms-stale-module");
  auto r = test::run_gpudoctor({"diff", a, a});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("No differences that matter."), std::string::npos) << r.out;
}

Snapshot with_torch(const std::string& build, const std::string& python) {
  Snapshot s;
  s.python = PythonInfo{};
  PythonEnv env;
  env.kind = "venv";
  env.prefix = "/opt/venv";
  env.python_version = python;
  PythonPackage torch;
  torch.name = "torch";
  torch.version = build.substr(0, build.find('+'));
  torch.torch = TorchBuildInfo{};
  torch.torch->version = build;
  env.packages.push_back(torch);
  s.python->envs.push_back(env);
  s.host = HostInfo{};
  s.host->os_pretty_name = "Debian GNU/Linux 12 (bookworm)";
  return s;
}

TEST(DiffMachines, FrameworkBuildComesBeforePythonAndTheSameOsIsNotADifference) {
  const Snapshot a = with_torch("2.5.1+cu124", "3.11.9");
  const Snapshot b = with_torch("2.5.1+cpu", "3.12.3");
  const std::vector<MergedDevice> none;
  const std::vector<Finding> no_findings;
  const auto diffs = diff_machines({a, none, no_findings}, {b, none, no_findings});
  ASSERT_EQ(diffs.size(), 2u);
  EXPECT_EQ(diffs[0].what, "torch");
  EXPECT_EQ(diffs[0].a, "2.5.1+cu124");
  EXPECT_EQ(diffs[0].b, "2.5.1+cpu");
  EXPECT_EQ(diffs[1].what, "Python versions");
}

}  // namespace
}  // namespace gpudoctor
