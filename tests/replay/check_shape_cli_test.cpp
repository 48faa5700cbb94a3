// `gpudoctor check` short by default, -v complete, -q only problems; where its last line sends a
// reader of a recorded machine; `report --markdown` and `--html` as --help says; diff's order.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace check_shape_cli_test {

constexpr const char* kBroken = "rtx5090-torch-cu121-no-sm120";

std::string last_line(const std::string& out) {
  const auto end = out.find_last_not_of('\n');
  const auto start = out.rfind('\n', end);
  return out.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

test::CommandResult check(std::vector<std::string> extra) {
  std::vector<std::string> args = {"check", "--color", "never", "--sysroot", test::fixture_path(kBroken)};
  args.insert(args.end(), extra.begin(), extra.end());
  // As the fixture's replay.txt runs it: in the project's virtual environment.
  return test::run_gpudoctor(args, {"VIRTUAL_ENV=/home/user/berkeley-humanoid-lite/.venv",
                                    "HOME=/home/user", "PATH=/usr/local/bin:/usr/bin:/bin",
                                    "CONDA_PREFIX="});
}

TEST(CheckShapeCli, DefaultIsCauseAndFixVerboseAddsEvidenceAndSources) {
  const auto shown = check({});
  const auto verbose = check({"-v"});
  ASSERT_EQ(shown.exit_code, verbose.exit_code) << shown.err;
  EXPECT_NE(shown.out.find("fix: "), std::string::npos) << shown.out;
  EXPECT_EQ(shown.out.find("source: "), std::string::npos) << shown.out;
  EXPECT_NE(verbose.out.find("source: https://"), std::string::npos) << verbose.out;
  EXPECT_LT(shown.out.size(), verbose.out.size());
  // Every finding's title is in both; its id only in -v's.
  const Json j = Json::parse(check({"--json"}).out);
  for (const auto& f : j["findings"]) {
    const std::string title = f["title"].get<std::string>().substr(0, 30);
    EXPECT_NE(verbose.out.find(f["id"].get<std::string>()), std::string::npos) << f.dump();
    if (f["severity"] != "ok" && f["area"] != "opencl" && f["area"] != "vulkan") {
      EXPECT_NE(shown.out.find(title), std::string::npos) << title << "\n" << shown.out;
    }
  }
  EXPECT_NE(last_line(shown.out).find("gpudoctor check -v --sysroot "), std::string::npos)
      << shown.out;
}

TEST(CheckShapeCli, QuietPrintsOnlyTheProblemAreas) {
  const auto quiet = check({"-q"});
  const Json j = Json::parse(check({"--json"}).out);
  std::istringstream in(quiet.out);
  std::size_t areas = 0;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != ' ') ++areas;
  }
  std::size_t problems = 0;
  for (const auto& a : j["areas"]) problems += a["state"] == "warn" || a["state"] == "fail";
  EXPECT_GT(problems, 0U);
  EXPECT_EQ(areas, problems) << quiet.out;
  EXPECT_EQ(test::run_gpudoctor({"check", "-q", "-v"}).exit_code, 2) << "-q and -v exclude";
}

TEST(CheckShapeCli, ARecordedMachineIsNotSentToThisMachinesQuery) {
  const std::string paste =
      test::fixture_path("pastes") + "/collect_env/lhotse-793-torch-cu102-driver-9010.txt";
  for (const bool verbose : {false, true}) {
    std::vector<std::string> args = {"check", "--color", "never", "--from", paste};
    if (verbose) args.push_back("-v");
    const auto r = test::run_gpudoctor(args);
    // The verdict's paragraph (what was read from the paste follows it): the counts and where
    // more is.
    const auto at = std::min(r.out.rfind("Evidence and sources"), r.out.rfind("Every device and detail"));
    ASSERT_NE(at, std::string::npos) << r.out;
    const auto start = r.out.rfind("\n\n", at) + 2;
    const std::string verdict = r.out.substr(start, r.out.find("\n\n", at) - start);
    ASSERT_NE(verdict.find("failure"), std::string::npos) << r.out;
    EXPECT_NE(verdict.find("--from"), std::string::npos) << verdict;
    EXPECT_EQ(verdict.find("gpudoctor query"), std::string::npos) << verdict;
  }
}

TEST(CheckShapeCli, ALongPointerCommandStandsWholeOnItsOwnLine) {
  // A recorded machine's path makes the pointer too long for the counts' line: the command is
  // then one line of its own, never split where a copy would lose half of it.
  const std::string root = test::fixture_path("mac-m1-miniforge-tf-metal");
  const auto r = test::run_gpudoctor({"check", "--color", "never", "--sysroot", root},
                                     {"COLUMNS=80"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const std::string command = "gpudoctor check -v --sysroot " + root;
  ASSERT_GT(command.size(), 40U);
  EXPECT_NE(r.out.find("1 failure. Evidence and sources:\n  " + command + "\n"), std::string::npos)
      << r.out;
}

TEST(ReportOutputs, AMarkdownVerdictDoesNotCallUnexaminedAreasFine) {
  // Seed 000's Hackintosh under --sysroot: nothing failed, but its GPU list, OpenCL and Metal
  // were not examined; the heading says so, as check's last line does.
  const auto md = test::run_gpudoctor(
      {"report", "--sysroot", test::fixture_path("mac-hackintosh-rx570-tf-metal"), "--markdown", "-"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.rfind("### gpudoctor: No problems found in what could be examined (3 areas not examined)\n", 0),
            0U)
      << md.out.substr(0, 200);
}

TEST(ReportOutputs, MarkdownToStdoutAndHtmlWritesOnlyItsFile) {
  test::TempTree t;
  const auto md = test::run_gpudoctor({"report", "--sysroot", test::fixture_path(kBroken), "--markdown", "-"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.rfind("### gpudoctor: ", 0), 0U) << md.out.substr(0, 200);
  EXPECT_NE(md.out.find("<details><summary>The machine (redacted"), std::string::npos);
  EXPECT_LT(md.out.size(), 65536U);
  const std::string page = t.path() + "/r.html";
  const auto html = test::run_gpudoctor({"report", "--sysroot", test::fixture_path(kBroken), "--html", page});
  EXPECT_EQ(html.exit_code, 0) << html.err;
  EXPECT_EQ(html.out, "") << "--help says --html writes the page; the JSON only with -o";
  std::string page_text;
  {
    std::ifstream in(page);
    std::ostringstream all;
    all << in.rdbuf();
    page_text = all.str();
  }
  // The areas' ✓ / ! / ✗ before the findings; no blank cell and no header without a name.
  const auto areas = page_text.find("<table class=\"areas\">");
  ASSERT_NE(areas, std::string::npos);
  EXPECT_LT(areas, page_text.find("<h2>Findings</h2>"));
  EXPECT_NE(page_text.find("<td class=\"mark\">✗</td><th>python</th>"), std::string::npos);
  EXPECT_EQ(page_text.find("<td></td>"), std::string::npos);
  EXPECT_EQ(page_text.find("<th></th>"), std::string::npos);
  const auto help = test::run_gpudoctor({"report", "--help"});
  EXPECT_NE(help.out.find("the JSON is then written only"), std::string::npos) << help.out;
}

TEST(DiffOrder, FailuresAndDevicesBeforePackageLines) {
  test::TempTree t;
  const std::string a = t.path() + "/a.json", b = t.path() + "/b.json";
  ASSERT_EQ(test::run_gpudoctor({"report", "--sysroot", test::fixture_path(kBroken), "-o", a}).exit_code, 0);
  ASSERT_EQ(test::run_gpudoctor({"report", "--sysroot", test::fixture_path("server-h100-torch-cu124"),
                                 "-o", b},
                                {"CONDA_PREFIX=/opt/conda", "HOME=/home/user"})
                .exit_code,
            0);
  const auto r = test::run_gpudoctor({"diff", a, b});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto finding = r.out.find("\nfinding: ");
  const auto devices = r.out.find("\ndevices: ");
  const auto framework = r.out.find("\nframework: ");
  ASSERT_NE(devices, std::string::npos) << r.out;
  ASSERT_NE(framework, std::string::npos) << r.out;
  EXPECT_LT(finding, devices) << r.out;
  EXPECT_LT(devices, framework) << r.out;
  EXPECT_LT(devices, r.out.find("\ndriver: ")) << r.out;
}

}  // namespace check_shape_cli_test
}  // namespace gpudoctor
