// Issue 29, cause 4: the whole run's deadline (--deadline). Jobs not started before it are not
// started, running ones are stopped at it, and both are reported as "not examined: deadline",
// never as fine and never as hung; the checks then give their verdict on what was examined.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "cli.hpp"
#include "core/isolate.hpp"
#include "model/not_examined.hpp"
#include "hanging_drivers.hpp"
#include "json.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

IsolatedJob hanging_job(const std::string& label) {
  IsolatedJob j;
  j.backend = "opencl";
  j.label = label;
  j.library = label;
  j.body = []() -> JobReport {
    for (;;) ::pause();
  };
  return j;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

TEST(RunDeadline, NothingStartsAfterItAndWhatRunsIsStoppedAtIt) {
  std::vector<IsolatedJob> jobs;
  for (int i = 0; i < 8; ++i) jobs.push_back(hanging_job("hang" + std::to_string(i)));
  IsolatedRun run(std::move(jobs), 2);
  const auto begun = Clock::now();
  run.set_end(begun + 1500ms, 1500ms);
  run.start();
  auto r = run.wait(10s);  // each job's own deadline is far away: only the run's can end them
  const double took = std::chrono::duration<double>(Clock::now() - begun).count();
  EXPECT_LE(took, 1.5 + 0.15);
  ASSERT_EQ(r.size(), 8u);
  for (std::size_t i = 0; i < r.size(); ++i) {
    const auto& o = r[i].outcome;
    EXPECT_EQ(o.status, ProbeStatus::skipped) << i << ": " << o.detail;
    EXPECT_TRUE(starts_with(o.detail, kNotExaminedDeadline)) << o.detail;
    // The first two ran and were stopped; the rest never started.
    EXPECT_NE(o.detail.find(i < 2 ? "stopped after" : "not started"), std::string::npos)
        << i << ": " << o.detail;
  }
}

TEST(RunDeadline, AJobWhoseOwnDeadlineComesFirstStillTimesOut) {
  std::vector<IsolatedJob> jobs{hanging_job("hang")};
  IsolatedRun run(std::move(jobs), 1);
  const auto begun = Clock::now();
  run.set_end(begun + 5s, 5s);
  run.start();
  auto r = run.wait(300ms);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].outcome.status, ProbeStatus::timed_out) << r[0].outcome.detail;
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - begun).count(), 2.0);
}

TEST(RunDeadline, ADeadlineAlreadyPastStartsNothing) {
  std::vector<IsolatedJob> jobs{hanging_job("a"), hanging_job("b")};
  IsolatedRun run(std::move(jobs), 4);
  run.set_end(Clock::now(), 1000ms);
  run.start();
  auto r = run.wait(10s);
  ASSERT_EQ(r.size(), 2u);
  for (const auto& x : r) {
    EXPECT_EQ(x.outcome.status, ProbeStatus::skipped);
    EXPECT_NE(x.outcome.detail.find("not started before gpudoctor's --deadline of 1 s"),
              std::string::npos)
        << x.outcome.detail;
  }
}

TEST(RunDeadline, TheOptionTakesSecondsAndRefusesWhatIsNotADeadline) {
  const auto ok = parse_cli({"check", "--deadline", "40"}, "1");
  ASSERT_TRUE(ok.options) << ok.err;
  EXPECT_EQ(ok.options->deadline_s, 40.0);
  EXPECT_FALSE(parse_cli({"query"}, "1").options->deadline_s);
  for (const char* bad : {"0", "-3", "nan", "soon"}) {
    const auto r = parse_cli({"report", "--deadline", bad}, "1");
    EXPECT_EQ(r.exit_code, kExitUsage) << bad;
  }
  // A recorded report is not probed: a deadline would do nothing.
  EXPECT_EQ(parse_cli({"check", "--from", "r.json", "--deadline", "5"}, "1").exit_code,
            kExitUsage);
}

TEST(RunDeadline, TheCheckEndsByItsDeadlineWithAVerdictNamingWhatWasNotExamined) {
  if (!test::opencl_loader_installed()) GTEST_SKIP() << "no OpenCL ICD loader";
  // Enough hanging drivers that, one --timeout each, they would take four times the deadline.
  const test::HangingDrivers drivers(4 * 3 * IsolatedRun::default_max_children());
  auto r = test::run_gpudoctor({"check", "--json", "--no-smoke", "--backend", "opencl",
                                "--timeout", "1", "--deadline", "3"},
                               {drivers.opencl_env()});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the drivers that hung to their --timeout fail
  EXPECT_LE(r.seconds, 3.0 + 0.3);
  const Json report = Json::parse(r.out, nullptr, false);
  ASSERT_TRUE(report.is_object() && report.contains("findings")) << r.out << r.err;
  const Json* cut = test::find_finding(report, "probe.not_examined");
  ASSERT_NE(cut, nullptr) << report.at("findings").dump(2);
  EXPECT_EQ(cut->value("severity", ""), "warn");
  EXPECT_NE(cut->value("title", "").find("libhang_"), std::string::npos) << cut->dump(2);
  EXPECT_NE(test::find_finding(report, "probe.timed_out"), nullptr);
  std::size_t skipped = 0;
  for (const auto& p : report.at("snapshot").at("probes")) {
    if (p.value("status", "") == "skipped" &&
        starts_with(p.value("detail", ""), kNotExaminedDeadline)) {
      ++skipped;
    }
  }
  EXPECT_GE(skipped, drivers.count() / 2);
  // No area with a driver it did not examine reads as fine.
  for (const auto& a : report.value("areas", Json::array())) {
    if (a.value("area", "") == "opencl") {
      EXPECT_NE(a.value("state", ""), "ok") << a.dump();
    }
  }
}

}  // namespace
}  // namespace gpudoctor
