// Issue 29, cause 2: a driver cannot stop, kill or signal the run, nor reach its terminal. Each
// attack is a fake OpenCL ICD or Vulkan driver (tests/fakes/attack.h) loaded by the real loader
// in gpudoctor's isolated child; `gpudoctor check --json` must end in bounded time, print its
// verdict, and name the driver in a finding that says what it tried.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

struct Attack {
  const char* mode;    ///< libfake_opencl_<mode>.so
  const char* status;  ///< the driver's outcome: the finding is probe.<status>
  const char* says;    ///< what the outcome's detail, and so the finding, must say
};

void PrintTo(const Attack& a, std::ostream* os) { *os << a.mode; }

const Attack kAttacks[] = {
    {"sigstop_parent", "failed", "kill(gpudoctor, SIGSTOP)"},
    {"sigtstp_parent", "failed", "kill(gpudoctor, SIGTSTP)"},
    {"sigterm_parent", "failed", "kill(gpudoctor, SIGTERM)"},
    {"sigkill_parent", "failed", "kill(gpudoctor, SIGKILL)"},
    {"sigusr1_parent", "failed", "kill(gpudoctor, SIGUSR1)"},
    {"tgkill_parent", "failed", "tgkill(gpudoctor, SIGKILL)"},
    {"sigqueue_parent", "failed", "sigqueue(gpudoctor, SIGTERM)"},
    {"pidfd_parent", "failed", "pidfd_send_signal(SIGKILL)"},
    {"setown_parent", "failed", "fcntl(F_SETOWN, gpudoctor)"},
    {"kill_parent_group", "failed", "kill(gpudoctor's process group, SIGTERM)"},
    {"kill_all", "failed", "kill(-1: every process it may signal, SIGCONT)"},
    // kill(0, …) reaches the driver's own group only: it ends or stops itself, and is blamed
    // for that as for any crash or hang.
    {"kill_own_group", "crashed", "SIGKILL"},
    {"stop_own_group", "timed_out", "did not finish within 1000 ms"},
};

const Json* finding_for(const Json& report, const std::string& id, const std::string& library) {
  for (const auto& f : report.at("findings")) {
    if (f.value("id", "") == id && f.value("title", "").find(library) != std::string::npos) {
      return &f;
    }
  }
  return nullptr;
}

std::string evidence_of(const Json& finding) {
  std::string all;
  for (const auto& e : finding.value("evidence", Json::array())) all += e.get<std::string>() + "\n";
  return all;
}

class SignalFence : public ::testing::TestWithParam<Attack> {};

TEST_P(SignalFence, TheRunSurvivesWithItsVerdictAndBlamesTheDriver) {
  const Attack& a = GetParam();
  if (::access("/usr/lib/x86_64-linux-gnu/libOpenCL.so.1", R_OK) != 0 &&
      ::access("/usr/lib/aarch64-linux-gnu/libOpenCL.so.1", R_OK) != 0) {
    GTEST_SKIP() << "no OpenCL ICD loader (ocl-icd-libopencl1)";
  }
  test::TempTree empty;
  const std::string library = std::string("libfake_opencl_") + a.mode + ".so";
  auto r = test::run_gpudoctor(
      {"check", "--json", "--no-smoke", "--backend", "opencl", "--timeout", "1"},
      {"OCL_ICD_VENDORS=" + empty.path(),
       "OCL_ICD_FILENAMES=" + std::string(GPUDOCTOR_FAKES) + "/opencl/" + library});
  // gpudoctor itself ended normally, with the verdict that a check failed.
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_LT(r.seconds, 8.0);
  const Json report = Json::parse(r.out, nullptr, false);
  ASSERT_TRUE(report.is_object() && report.contains("findings")) << r.out << r.err;
  const Json* f = finding_for(report, std::string("probe.") + a.status, library);
  ASSERT_NE(f, nullptr) << report.at("findings").dump(2);
  EXPECT_NE(evidence_of(*f).find(a.says), std::string::npos) << f->dump(2);
}

INSTANTIATE_TEST_SUITE_P(Attacks, SignalFence, ::testing::ValuesIn(kAttacks),
                         [](const auto& info) { return std::string(info.param.mode); });

TEST(SignalFenceVulkan, ADriverThatKillsGpudoctorIsBlamedAndTheRunGoesOn) {
  if (::access("/usr/lib/x86_64-linux-gnu/libvulkan.so.1", R_OK) != 0 &&
      ::access("/usr/lib/aarch64-linux-gnu/libvulkan.so.1", R_OK) != 0) {
    GTEST_SKIP() << "no Vulkan loader (libvulkan1)";
  }
  auto r = test::run_gpudoctor(
      {"check", "--json", "--no-smoke", "--backend", "vulkan", "--timeout", "2"},
      {"VK_DRIVER_FILES=" + std::string(GPUDOCTOR_FAKES) + "/vulkan/fake_vk_sigkill_parent.json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const Json report = Json::parse(r.out, nullptr, false);
  ASSERT_TRUE(report.is_object() && report.contains("findings")) << r.out << r.err;
  const Json* f = finding_for(report, "probe.failed", "libfake_vk_sigkill_parent.so");
  ASSERT_NE(f, nullptr) << report.at("findings").dump(2);
  EXPECT_NE(evidence_of(*f).find("kill(gpudoctor, SIGKILL)"), std::string::npos) << f->dump(2);
}

/// Runs argv in a session of its own whose controlling terminal is a new pseudo-terminal, with
/// standard output and error on it, as a person at a terminal runs gpudoctor; returns all that
/// reached the terminal and the exit status.
std::pair<std::string, int> run_on_controlling_terminal(std::vector<std::string> argv,
                                                        const std::vector<std::string>& env) {
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) return {"forkpty failed", -1};
  if (pid == 0) {
    for (const auto& kv : env) ::putenv(const_cast<char*>(kv.c_str()));
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  std::string seen;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (;;) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 200) < 0 && errno != EINTR) break;
    char buf[4096];
    const ssize_t n = (p.revents != 0) ? ::read(master, buf, sizeof buf) : 0;
    if (n > 0) seen.append(buf, static_cast<std::size_t>(n));
    if (n < 0 || std::chrono::steady_clock::now() > until) break;  // EIO: the last writer left
  }
  ::close(master);
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return {seen, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st)};
}

TEST(SignalFenceTerminal, ADriverCannotWriteToTheTerminalGpudoctorRunsOn) {
  if (::access("/usr/lib/x86_64-linux-gnu/libOpenCL.so.1", R_OK) != 0 &&
      ::access("/usr/lib/aarch64-linux-gnu/libOpenCL.so.1", R_OK) != 0) {
    GTEST_SKIP() << "no OpenCL ICD loader (ocl-icd-libopencl1)";
  }
  // The harness can see such a write: a process of that session that opens /dev/tty reaches it.
  auto control = run_on_controlling_terminal(
      {"/bin/sh", "-c", "echo FAKE-DRIVER-ON-THE-TERMINAL > /dev/tty"}, {});
  ASSERT_NE(control.first.find("FAKE-DRIVER-ON-THE-TERMINAL"), std::string::npos) << control.first;

  test::TempTree empty;
  const std::string vendors = "OCL_ICD_VENDORS=" + empty.path();
  const std::string filenames =
      "OCL_ICD_FILENAMES=" + std::string(GPUDOCTOR_FAKES) + "/opencl/libfake_opencl_tty.so";
  auto [seen, status] = run_on_controlling_terminal(
      {GPUDOCTOR_BIN, "check", "--no-smoke", "--color", "never", "--backend", "opencl",
       "--timeout", "2"},
      {vendors, filenames});
  EXPECT_EQ(seen.find("FAKE-DRIVER-ON-THE-TERMINAL"), std::string::npos) << seen;
  // The verdict reached the terminal, and names the driver (it offers no device after its
  // attempt: opencl.no_device, a warn).
  EXPECT_EQ(status, 0) << seen;
  EXPECT_NE(seen.find("1 warning."), std::string::npos) << seen;
  EXPECT_NE(seen.find("libfake_opencl_tty.so"), std::string::npos) << seen;
}

}  // namespace
}  // namespace gpudoctor
