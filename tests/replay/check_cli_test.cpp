// `gpudoctor check` as a user runs it: exit codes, --from replay, explain.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "json.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using test::run_gpudoctor;

std::string temp_file(const std::string& content) {
  char path[] = "/tmp/gpudoctor-test-XXXXXX";
  int fd = ::mkstemp(path);
  EXPECT_GE(fd, 0);
  ::close(fd);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

TEST(CheckCli, ThisMachineHasNoFailure) {
  auto r = run_gpudoctor({"check", "--color", "never"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // The last paragraph: "No problems found." or the warnings' count, never a failure.
  const std::string verdict = r.out.substr(r.out.rfind("\n\n") + 2);
  EXPECT_EQ(verdict.find("failure"), std::string::npos) << r.out;
  EXPECT_TRUE(verdict.rfind("No problems found", 0) == 0 ||
              verdict.find(" warning") != std::string::npos)
      << r.out;
  // The same in -v: the counts, with zero failures.
  const auto v = run_gpudoctor({"check", "-v", "--no-smoke", "--color", "never"});
  const std::string counts = v.out.substr(v.out.rfind("\n\n") + 2);
  EXPECT_TRUE(counts.rfind("No problems found", 0) == 0 || counts.rfind("0 failures", 0) == 0)
      << v.out;
}

TEST(CheckCli, JsonHasFindingsAndTheSnapshot) {
  auto r = run_gpudoctor({"check", "--json"});
  Json j = Json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_TRUE(j["findings"].is_array());
  EXPECT_TRUE(j["snapshot"]["probes"].is_array());
  for (const auto& f : j["findings"]) {
    EXPECT_FALSE(f["id"].get<std::string>().empty());
    EXPECT_TRUE(f["severity"] == "ok" || f["severity"] == "info" || f["severity"] == "warn" ||
                f["severity"] == "fail");
  }
}

TEST(CheckCli, FromReplaysARecordedSnapshotToTheSameFindings) {
  auto live = run_gpudoctor({"query", "--json"});
  ASSERT_EQ(live.exit_code, 0);
  std::string file = temp_file(live.out);
  auto a = run_gpudoctor({"check", "--json", "--from", file});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  auto b = run_gpudoctor({"check", "--json", "--from", file});
  EXPECT_EQ(Json::parse(a.out)["findings"], Json::parse(b.out)["findings"]);
  // A check --json output is accepted as input too.
  std::string again = temp_file(a.out);
  auto c = run_gpudoctor({"check", "--json", "--from", again});
  EXPECT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(Json::parse(a.out)["findings"], Json::parse(c.out)["findings"]);
  std::remove(file.c_str());
  std::remove(again.c_str());
}

TEST(CheckCli, BadFromInputIsOneLineAndExitTwo) {
  auto missing = run_gpudoctor({"check", "--from", "/nonexistent/report.json"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("cannot be read"), std::string::npos);

  std::string garbage = temp_file("{\"schema_version\": 1, \"probes\": [tru");
  auto g = run_gpudoctor({"check", "--from", garbage});
  EXPECT_EQ(g.exit_code, 2);
  EXPECT_NE(g.err.find("not JSON"), std::string::npos) << g.err;
  EXPECT_EQ(std::count(g.err.begin(), g.err.end(), '\n'), 1);

  std::string newer = temp_file("{\"schema_version\": 99}");
  auto n = run_gpudoctor({"check", "--from", newer});
  EXPECT_EQ(n.exit_code, 2);
  EXPECT_NE(n.err.find("newer gpudoctor"), std::string::npos) << n.err;

  std::string wrong_type = temp_file("{\"schema_version\": 1, \"host\": {\"cpu_cores\": \"many\"}}");
  auto w = run_gpudoctor({"check", "--from", wrong_type});
  EXPECT_EQ(w.exit_code, 2);
  EXPECT_NE(w.err.find("malformed"), std::string::npos) << w.err;
  for (auto* f : {&garbage, &newer, &wrong_type}) std::remove(f->c_str());
}

TEST(CheckCli, ExplainKnownAndUnknown) {
  auto e = run_gpudoctor({"explain", "cuda.stub_libcuda"});
  EXPECT_EQ(e.exit_code, 0);
  EXPECT_NE(e.out.find("Looks at:"), std::string::npos);
  EXPECT_NE(e.out.find("https://"), std::string::npos);
  auto u = run_gpudoctor({"explain", "no.such.check"});
  EXPECT_EQ(u.exit_code, 2);
  // One line that says where the ids are (`explain` alone lists them), not the whole list.
  EXPECT_NE(u.err.find("gpudoctor explain lists every id"), std::string::npos) << u.err;
  EXPECT_EQ(std::count(u.err.begin(), u.err.end(), '\n'), 1) << u.err;
}

}  // namespace
}  // namespace gpudoctor
