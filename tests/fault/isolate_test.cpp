// The isolated-child runner: whatever a job does (crash, hang, lie, print), the parent gets a
// result in bounded time that says what happened.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

#include "core/isolate.hpp"

namespace gpudoctor {
namespace {

using namespace std::chrono_literals;

IsolatedJob job(std::string label, std::function<JobReport()> body) {
  return IsolatedJob{"test", std::move(label), "libfake.so.1", std::move(body)};
}

TEST(Isolate, ReportsDataFromAWellBehavedChild) {
  auto r = run_isolated({job("good", [] {
                           return JobReport{ProbeStatus::ok, "fine", Json{{"answer", 42}}};
                         })},
                        2000ms);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].outcome.status, ProbeStatus::ok);
  EXPECT_EQ(r[0].outcome.detail, "fine");
  EXPECT_EQ(r[0].outcome.library, "libfake.so.1");
  ASSERT_TRUE(r[0].data);
  EXPECT_EQ((*r[0].data)["answer"], 42);
}

TEST(Isolate, SegfaultBecomesCrashedNamingTheSignalAndLibrary) {
  auto r = run_isolated({job("segv", []() -> JobReport {
                           std::raise(SIGSEGV);
                           return {};
                         })},
                        2000ms);
  EXPECT_EQ(r[0].outcome.status, ProbeStatus::crashed);
  EXPECT_NE(r[0].outcome.detail.find("SIGSEGV"), std::string::npos) << r[0].outcome.detail;
  EXPECT_NE(r[0].outcome.detail.find("libfake.so.1"), std::string::npos);
  EXPECT_FALSE(r[0].data);
}

TEST(Isolate, AbortBecomesCrashed) {
  auto r = run_isolated({job("abort", []() -> JobReport { std::abort(); })}, 2000ms);
  EXPECT_EQ(r[0].outcome.status, ProbeStatus::crashed);
  EXPECT_NE(r[0].outcome.detail.find("SIGABRT"), std::string::npos);
}

TEST(Isolate, HangIsKilledAtTheDeadline) {
  auto start = std::chrono::steady_clock::now();
  auto r = run_isolated({job("hang",
                             []() -> JobReport {
                               for (;;) ::pause();
                             }),
                         job("quick", [] { return JobReport{ProbeStatus::ok, "", Json{}}; })},
                        300ms);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r[0].outcome.status, ProbeStatus::timed_out);
  EXPECT_NE(r[0].outcome.detail.find("300 ms"), std::string::npos) << r[0].outcome.detail;
  EXPECT_EQ(r[1].outcome.status, ProbeStatus::ok);
  EXPECT_LT(took, 2.0);
}

TEST(Isolate, ExitWithoutReportIsFailedWithTheStatus) {
  auto r = run_isolated({job("exit3", []() -> JobReport { ::_exit(3); })}, 2000ms);
  EXPECT_EQ(r[0].outcome.status, ProbeStatus::failed);
  EXPECT_NE(r[0].outcome.detail.find("status 3"), std::string::npos);
}

TEST(Isolate, GarbageOnTheReportPipeIsFailedNotTrusted) {
  // A library that writes to a file descriptor it does not own: here, straight onto the
  // report pipe, ahead of the real report.
  auto r = run_isolated({job("garbage",
                             []() -> JobReport {
                               for (int fd = 3; fd < 64; ++fd) {
                                 if (::write(fd, "\x01\xff{{", 4) < 0) continue;
                               }
                               return {ProbeStatus::ok, "", Json{}};
                             })},
                        2000ms);
  EXPECT_EQ(r[0].outcome.status, ProbeStatus::failed);
  EXPECT_NE(r[0].outcome.detail.find("malformed"), std::string::npos) << r[0].outcome.detail;
}

TEST(Isolate, WhatADriverPrintsIsCapturedNotLeaked) {
  auto r = run_isolated({job("chatty",
                             [] {
                               std::printf("driver says hello\n");
                               std::fflush(stdout);
                               std::fprintf(stderr, "driver warning\n");
                               return JobReport{ProbeStatus::ok, "", Json{}};
                             })},
                        2000ms);
  EXPECT_EQ(r[0].outcome.status, ProbeStatus::ok);
  ASSERT_TRUE(r[0].outcome.stderr_tail);
  EXPECT_NE(r[0].outcome.stderr_tail->find("driver says hello"), std::string::npos);
  EXPECT_NE(r[0].outcome.stderr_tail->find("driver warning"), std::string::npos);
}

TEST(Isolate, InvalidUtf8FromADriverStillComesBack) {
  auto r = run_isolated({job("utf8",
                             [] {
                               return JobReport{ProbeStatus::ok, "",
                                                Json{{"name", std::string("GPU\xff\xfe")}}};
                             })},
                        2000ms);
  EXPECT_EQ(r[0].outcome.status, ProbeStatus::ok);
  ASSERT_TRUE(r[0].data);
  EXPECT_EQ((*r[0].data)["name"].get<std::string>().substr(0, 3), "GPU");
}

TEST(Isolate, ExceptionInTheBodyIsFailed) {
  auto r = run_isolated(
      {job("throws", []() -> JobReport { throw std::runtime_error("boom"); })}, 2000ms);
  EXPECT_EQ(r[0].outcome.status, ProbeStatus::failed);
  EXPECT_NE(r[0].outcome.detail.find("boom"), std::string::npos);
}

TEST(Isolate, JobsRunConcurrently) {
  std::vector<IsolatedJob> jobs;
  for (int i = 0; i < 4; ++i) {
    jobs.push_back(job("sleep", [] {
      std::this_thread::sleep_for(200ms);
      return JobReport{ProbeStatus::ok, "", Json{}};
    }));
  }
  auto start = std::chrono::steady_clock::now();
  auto r = run_isolated(std::move(jobs), 3000ms);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (auto& x : r) EXPECT_EQ(x.outcome.status, ProbeStatus::ok);
  EXPECT_LT(took, 0.7);  // four 200 ms jobs in sequence would take 800 ms
}

TEST(Isolate, LargeReportArrivesWhole) {
  auto r = run_isolated({job("big",
                             [] {
                               Json arr = Json::array();
                               for (int i = 0; i < 20000; ++i) arr.push_back("extension_" + std::to_string(i));
                               return JobReport{ProbeStatus::ok, "", arr};
                             })},
                        3000ms);
  ASSERT_TRUE(r[0].data);
  EXPECT_EQ(r[0].data->size(), 20000u);
}

}  // namespace
}  // namespace gpudoctor
