// Issue 13, class 2 (processes): every child and everything it started ends with the run — at
// its deadline, when it exits leaving a helper behind, when gpudoctor gets SIGTERM, SIGINT or
// SIGHUP or is stopped by `timeout` — and none writes a core file. Issue 13 class 8 / issue 18
// §4 (scale): children are capped, each deadline counts from its own start, and the parent's
// descriptors stay few.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/child_guard.hpp"
#include "core/command_runner.hpp"
#include "core/isolate.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

extern char** environ;  // NOLINT

namespace gpudoctor {
namespace process_guard_test {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

IsolatedJob job(std::string label, std::function<JobReport()> body) {
  return IsolatedJob{"test", std::move(label), "libfake.so.1", std::move(body)};
}

/// Running (not a zombie): a process that is gone or dead and unreaped does not count.
bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

/// Live processes whose environment holds `entry` ("NAME=value").
std::vector<pid_t> processes_with(const std::string& entry) {
  std::vector<pid_t> out;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream env(e.path() / "environ", std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(env)), std::istreambuf_iterator<char>());
    const pid_t pid = std::stoi(name);
    if (text.find(entry + '\0') != std::string::npos && alive(pid)) out.push_back(pid);
  }
  return out;
}

/// Polls until `done` holds or `limit` passes: a run's end is asynchronous (reaping, reparenting).
template <typename Done>
bool eventually(Done done, std::chrono::milliseconds limit = 3000ms) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

long long now_ns() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

JobReport forks_helper(bool own_session) {
  const pid_t helper = ::fork();
  if (helper == 0) {
    if (own_session) ::setsid();
    for (;;) ::pause();  // holds the report and log pipes it inherited
  }
  return {ProbeStatus::ok, "", Json{{"helper", helper}}};
}

TEST(ProcessGuard, ChildThatLeavesAHelperHoldingItsPipesIsDoneWhenItExits) {
  for (bool own_session : {false, true}) {
    auto r =
        run_isolated({job("helper", [own_session] { return forks_helper(own_session); })}, 3000ms);
    ASSERT_EQ(r.size(), 1u);
    // Waiting for the pipes' end would have run into the deadline.
    EXPECT_EQ(r[0].outcome.status, ProbeStatus::ok) << r[0].outcome.detail;
    ASSERT_TRUE(r[0].data) << own_session;
    const pid_t helper = (*r[0].data)["helper"].get<pid_t>();
    EXPECT_TRUE(eventually([&] { return !alive(helper); })) << "helper " << helper << " lives";
  }
  EXPECT_EQ(tracked_children(), 0);
}

TEST(ProcessGuard, ChildrenMayNotDumpCore) {
  auto r = run_isolated(
      {job("rlimit",
           [] {
             rlimit l{};
             ::getrlimit(RLIMIT_CORE, &l);
             return JobReport{ProbeStatus::ok, "", Json{{"cur", l.rlim_cur}, {"max", l.rlim_max}}};
           })},
      2000ms);
  ASSERT_TRUE(r[0].data);
  EXPECT_EQ((*r[0].data)["cur"], 0);
  EXPECT_EQ((*r[0].data)["max"], 0);  // a driver cannot raise it again
}

TEST(ProcessGuard, CrashingChildLeavesNoCoreInTheWorkingDirectory) {
  test::TempTree dir;
  rlimit old{};
  ::getrlimit(RLIMIT_CORE, &old);
  rlimit open = old;
  open.rlim_cur = old.rlim_max;  // as a shell with `ulimit -c unlimited`
  ::setrlimit(RLIMIT_CORE, &open);
  const fs::path cwd = fs::current_path();
  fs::current_path(dir.path());
  auto r = run_isolated({job("segv",
                             []() -> JobReport {
                               volatile int* volatile nowhere = nullptr;
                               *nowhere = 1;
                               return {};
                             })},
                        3000ms);
  fs::current_path(cwd);
  ::setrlimit(RLIMIT_CORE, &old);
  EXPECT_EQ(r[0].outcome.status, ProbeStatus::crashed);
  for (const auto& e : fs::directory_iterator(dir.path())) {
    ADD_FAILURE() << "the crash left " << e.path();
  }
}

TEST(ProcessGuard, ManyChildrenEndingAtOnceAreToldApart) {
  std::vector<IsolatedJob> jobs;
  for (int i = 0; i < 4; ++i) {
    jobs.push_back(job("crash", []() -> JobReport {
      std::this_thread::sleep_for(100ms);
      ::raise(SIGSEGV);
      return {};
    }));
    jobs.push_back(job("hang", []() -> JobReport {
      for (;;) ::pause();
    }));
    jobs.push_back(job("silent", []() -> JobReport { ::_exit(0); }));  // exits, no report
    jobs.push_back(job("ok", [] { return JobReport{ProbeStatus::ok, "fine", Json{}}; }));
  }
  IsolatedRun run(std::move(jobs), 16);
  run.start();
  auto r = run.wait(400ms);
  ASSERT_EQ(r.size(), 16u);
  for (std::size_t i = 0; i < r.size(); ++i) {
    const ProbeStatus want[] = {ProbeStatus::crashed, ProbeStatus::timed_out, ProbeStatus::failed,
                                ProbeStatus::ok};
    EXPECT_EQ(r[i].outcome.status, want[i % 4]) << i << ": " << r[i].outcome.detail;
  }
  EXPECT_NE(r[2].outcome.detail.find("malformed"), std::string::npos) << r[2].outcome.detail;
}

TEST(ProcessGuard, AtMostMaxChildrenRunAtOnce) {
  std::vector<IsolatedJob> jobs;
  for (int i = 0; i < 9; ++i) {
    jobs.push_back(job("span", [] {
      const long long start = now_ns();
      std::this_thread::sleep_for(60ms);
      return JobReport{ProbeStatus::ok, "", Json{{"start", start}, {"end", now_ns()}}};
    }));
  }
  IsolatedRun run(std::move(jobs), 3);
  run.start();
  auto r = run.wait(5000ms);
  std::vector<std::pair<long long, int>> edges;
  for (const auto& x : r) {
    ASSERT_EQ(x.outcome.status, ProbeStatus::ok) << x.outcome.detail;
    edges.emplace_back((*x.data)["start"].get<long long>(), +1);
    edges.emplace_back((*x.data)["end"].get<long long>(), -1);
  }
  std::sort(edges.begin(), edges.end());
  int running = 0;
  int most = 0;
  for (const auto& e : edges) most = std::max(most, running += e.second);
  EXPECT_LE(most, 3);
  EXPECT_GE(most, 2);  // and they do run side by side
}

TEST(ProcessGuard, EachChildsDeadlineCountsFromItsOwnStart) {
  // Six 150 ms jobs two at a time take 450 ms, longer than the 300 ms deadline: none may be
  // killed for the time it waited for a slot.
  std::vector<IsolatedJob> jobs;
  for (int i = 0; i < 6; ++i) {
    jobs.push_back(job("slow", [] {
      std::this_thread::sleep_for(150ms);
      return JobReport{ProbeStatus::ok, "", Json{}};
    }));
  }
  IsolatedRun run(std::move(jobs), 2);
  run.start();
  for (const auto& x : run.wait(300ms)) {
    EXPECT_EQ(x.outcome.status, ProbeStatus::ok) << x.outcome.detail;
  }
}

TEST(ProcessGuard, ParentDescriptorsStayFewWithManyJobs) {
  std::vector<IsolatedJob> jobs;
  for (int i = 0; i < 200; ++i) {
    jobs.push_back(job("fds", [] {
      int n = 0;
      for (const auto& e : fs::directory_iterator("/proc/" + std::to_string(::getppid()) + "/fd")) {
        (void)e;
        ++n;
      }
      return JobReport{ProbeStatus::ok, "", Json{{"parent_fds", n}}};
    }));
  }
  auto r = run_isolated(std::move(jobs), 10000ms);
  int most = 0;
  for (const auto& x : r) {
    ASSERT_TRUE(x.data) << x.outcome.detail;
    most = std::max(most, (*x.data)["parent_fds"].get<int>());
  }
  EXPECT_LT(most, 200) << "two pipes a child, for every child at once";
}

TEST(ProcessGuard, ChildThatCannotBeReapedIsLeftBehindAndReported) {
  // A process stuck in uninterruptible sleep cannot be made reliably; a traced one is hidden
  // from its parent's wait the same way until its tracer lets go. The job has a helper (in a
  // session of its own, so the group kill spares it) trace it, then hangs.
  auto r = run_isolated({job("traced",
                             []() -> JobReport {
                               ::prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY);
                               int ready[2];
                               if (::pipe(ready) != 0) return {ProbeStatus::failed, "pipe", Json{}};
                               const pid_t me = ::getpid();
                               if (::fork() == 0) {
                                 ::setsid();
                                 const char ok =
                                     ::ptrace(PTRACE_SEIZE, me, nullptr, nullptr) == 0 ? 1 : 0;
                                 if (::write(ready[1], &ok, 1) != 1) ::_exit(1);
                                 for (;;) ::pause();
                               }
                               char ok = 0;
                               if (::read(ready[0], &ok, 1) != 1) ok = 0;
                               report_progress(Json{{"traced", ok == 1}});
                               for (;;) ::pause();
                             })},
                        200ms);
  ASSERT_TRUE(r[0].data) << r[0].outcome.detail;
  if (!(*r[0].data)["traced"].get<bool>()) GTEST_SKIP() << "ptrace is not allowed here";
  EXPECT_EQ(r[0].outcome.status, ProbeStatus::timed_out);
  EXPECT_NE(r[0].outcome.detail.find("left behind"), std::string::npos) << r[0].outcome.detail;
  EXPECT_EQ(tracked_children(), 0);
}

// --- commands (sysctl, system_profiler, nvcc) -------------------------------------------------

TEST(ProcessGuard, CommandThatLeavesAHelperReturnsWhenItExits) {
  CommandOutput out =
      SpawnRunner().run({"/bin/sh", "-c", "sleep 30 & echo $!"}, {}, std::chrono::seconds(5));
  EXPECT_FALSE(out.timed_out);
  EXPECT_EQ(out.exit_code, 0) << out.error.value_or("");
  const pid_t helper = std::stoi(out.out);
  EXPECT_TRUE(eventually([&] { return !alive(helper); })) << "sleep " << helper << " lives";
}

TEST(ProcessGuard, CommandThatClosesItsOutputAndLingersIsKilledAtTheDeadline) {
  CommandOutput out =
      SpawnRunner().run({"/bin/sh", "-c", "echo hi; exec >&-; sleep 30"}, {}, 300ms);
  EXPECT_TRUE(out.timed_out);
  EXPECT_EQ(out.out, "hi\n");
  EXPECT_EQ(tracked_children(), 0);
}

TEST(ProcessGuard, CommandThatCannotBeRunSaysWhy) {
  CommandOutput out = SpawnRunner().run({"/nonexistent/tool"}, {}, 1000ms);
  ASSERT_TRUE(out.error);
  EXPECT_NE(out.error->find("No such file"), std::string::npos) << *out.error;
  EXPECT_FALSE(out.exit_code);
}

// --- the whole program, stopped from outside --------------------------------------------------

std::string fake_icd(const char* mode) {
  return std::string(GPUDOCTOR_FAKES) + "/opencl/libfake_opencl_" + mode + ".so";
}

/// Starts argv with the test's environment plus `extra`, output discarded.
pid_t start(const std::vector<std::string>& argv, const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  env.insert(env.end(), extra.begin(), extra.end());
  std::vector<char*> a;
  std::vector<char*> e;
  std::vector<std::string> args = argv;
  for (auto& s : args) a.push_back(s.data());
  for (auto& s : env) e.push_back(s.data());
  a.push_back(nullptr);
  e.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execve(a[0], a.data(), e.data());
    ::_exit(127);
  }
  return pid;
}

class StoppedFromOutside : public ::testing::TestWithParam<int> {};

TEST_P(StoppedFromOutside, NoProcessOfTheRunRemains) {
  const int sig = GetParam();
  test::TempTree empty;
  const std::string marker =
      "GPUDOCTOR_TEST_RUN=signal-" + std::to_string(sig) + "-" + std::to_string(::getpid());
  // A driver that forks a helper, then hangs: gpudoctor, its child and the helper.
  const pid_t gd = start(
      {GPUDOCTOR_BIN, "query", "--backend", "opencl", "--timeout", "60"},
      {marker, "OCL_ICD_VENDORS=" + empty.path(), "OCL_ICD_FILENAMES=" + fake_icd("helper_hang")});
  ASSERT_GT(gd, 0);
  ASSERT_TRUE(eventually([&] { return processes_with(marker).size() >= 3; }, 10000ms))
      << processes_with(marker).size() << " processes of the run";
  ::kill(gd, sig);
  int status = 0;
  ASSERT_EQ(::waitpid(gd, &status, 0), gd);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
  EXPECT_TRUE(eventually([&] { return processes_with(marker).empty(); }))
      << processes_with(marker).size() << " processes of the run remain";
  for (pid_t p : processes_with(marker)) ::kill(p, SIGKILL);
}

INSTANTIATE_TEST_SUITE_P(Signals, StoppedFromOutside, ::testing::Values(SIGTERM, SIGINT, SIGHUP),
                         [](const auto& info) { return std::string(sigabbrev_np(info.param)); });

TEST(StoppedByTimeout, NoProcessOfTheRunRemains) {
  if (::access("/usr/bin/timeout", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/timeout";
  test::TempTree empty;
  const std::string marker = "GPUDOCTOR_TEST_RUN=timeout-" + std::to_string(::getpid());
  const pid_t t = start(
      {"/usr/bin/timeout", "1", GPUDOCTOR_BIN, "query", "--backend", "opencl", "--timeout", "60"},
      {marker, "OCL_ICD_VENDORS=" + empty.path(), "OCL_ICD_FILENAMES=" + fake_icd("helper_hang")});
  int status = 0;
  ASSERT_EQ(::waitpid(t, &status, 0), t);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 124) << status;
  EXPECT_TRUE(eventually([&] { return processes_with(marker).empty(); }))
      << processes_with(marker).size() << " processes of the run remain";
  for (pid_t p : processes_with(marker)) ::kill(p, SIGKILL);
}

TEST(StoppedByDeadline, AHelperOfAHungDriverDoesNotOutliveTheRun) {
  test::TempTree empty;
  const std::string marker = "GPUDOCTOR_TEST_RUN=deadline-" + std::to_string(::getpid());
  auto r = test::run_gpudoctor(
      {"query", "--json", "--backend", "opencl", "--timeout", "0.5"},
      {marker, "OCL_ICD_VENDORS=" + empty.path(), "OCL_ICD_FILENAMES=" + fake_icd("helper_hang")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"timed_out\""), std::string::npos) << r.out;
  EXPECT_TRUE(eventually([&] { return processes_with(marker).empty(); }))
      << processes_with(marker).size() << " processes of the run remain";
  for (pid_t p : processes_with(marker)) ::kill(p, SIGKILL);
}

TEST(ProcessGuard, DriversThatAllHangCannotHoldTheRunPastItsBudget) {
  // Forty drivers that each hang to their 100 ms deadline, one at a time, would hold the run
  // for 4 s; with a 300 ms budget the ones not started by then are reported as skipped.
  std::vector<IsolatedJob> jobs;
  for (int i = 0; i < 40; ++i) {
    jobs.push_back(job("hang", [] {
      for (;;) std::this_thread::sleep_for(1s);
      return JobReport{};
    }));
  }
  IsolatedRun run(std::move(jobs), 1);
  run.set_budget(300ms);
  run.start();
  const auto r = run.wait(100ms);
  ASSERT_EQ(r.size(), 40u);
  std::size_t timed_out = 0;
  std::size_t skipped = 0;
  for (const auto& x : r) {
    if (x.outcome.status == ProbeStatus::timed_out) ++timed_out;
    if (x.outcome.status == ProbeStatus::skipped) {
      ++skipped;
      EXPECT_NE(x.outcome.detail.find("time budget"), std::string::npos) << x.outcome.detail;
    }
  }
  EXPECT_GE(timed_out, 1u);
  EXPECT_GE(skipped, 20u);  // at most ~4 of the 40 fit in 300 ms at 100 ms each (load aside)
  EXPECT_EQ(timed_out + skipped, 40u);
}

}  // namespace process_guard_test
}  // namespace gpudoctor
