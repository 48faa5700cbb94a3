// The progress line end to end: `gpudoctor query` with a Vulkan driver that hangs
// (tests/fakes/vulkan, FAKE_HANG) until its 1.6 s deadline. With standard error on a
// pseudo-terminal the line says what it waits for, in place, and is erased at the end; with
// standard error on a pipe nothing of it is written.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "test_support.hpp"

extern char** environ;

namespace gpudoctor {
namespace {

struct Captured {
  std::string out;
  std::string err;
  int status = -1;
};

bool vulkan_loader_installed() {
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu/", "/usr/lib64/", "/usr/lib/",
                          "/usr/lib/aarch64-linux-gnu/"}) {
    if (::access((std::string(dir) + "libvulkan.so.1").c_str(), R_OK) == 0) return true;
  }
  return false;
}

/// Runs `gpudoctor query` on the hanging driver; standard error on a pseudo-terminal 100
/// columns wide when `tty`, else on a pipe. Standard output is always a pipe.
Captured run_query(bool tty, const std::vector<std::string>& args) {
  Captured c;
  int out[2];
  int err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return c;
  if (tty) {
    winsize ws{};
    ws.ws_col = 100;
    ws.ws_row = 30;
    if (::openpty(&err[0], &err[1], nullptr, nullptr, &ws) != 0) return c;
  } else if (::pipe2(err, O_CLOEXEC) != 0) {
    return c;
  }
  std::vector<std::string> env_s;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string v = *e;
    if (v.rfind("VK_", 0) != 0 && v.rfind("COLUMNS=", 0) != 0) env_s.push_back(v);
  }
  env_s.push_back("VK_DRIVER_FILES=" + std::string(GPUDOCTOR_FAKES) + "/vulkan/fake_vk_hang.json");
  env_s.push_back("LC_ALL=C.UTF-8");
  std::vector<std::string> argv_s{GPUDOCTOR_BIN};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  std::vector<char*> envp;
  for (auto& s : argv_s) argv.push_back(s.data());
  for (auto& s : env_s) envp.push_back(s.data());
  argv.push_back(nullptr);
  envp.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDONLY);
    ::dup2(null, 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* into[2] = {&c.out, &c.err};
  int open_fds = 2;
  while (open_fds > 0 && ::poll(fds, 2, 20000) > 0) {
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buf[4096];
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        into[i]->append(buf, static_cast<std::size_t>(n));
      } else {  // EOF on a pipe; EIO on a pseudo-terminal whose last writer has gone
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds) {
    if (f.fd >= 0) ::close(f.fd);
  }
  ::waitpid(pid, &c.status, 0);
  return c;
}

const std::vector<std::string> kQuery{"query", "--backend", "vulkan", "--timeout", "1.6"};

TEST(ProgressLine, OnATerminalSaysWhatItWaitsForInPlaceAndErasesIt) {
  if (!vulkan_loader_installed()) GTEST_SKIP() << "no Vulkan loader (libvulkan1)";
  const Captured c = run_query(true, kQuery);
  ASSERT_TRUE(WIFEXITED(c.status)) << c.err;
  const std::string says = "waiting for vulkan: fake_vk_hang.json (";
  const auto first = c.err.find("\r" + says);
  ASSERT_NE(first, std::string::npos) << c.err;
  // Rewritten in place: several drawings, each after a carriage return, none on a new line.
  const auto last = c.err.rfind("\r" + says);
  EXPECT_LT(first, last) << c.err;
  EXPECT_EQ(c.err.find('\n', first), std::string::npos) << c.err;
  EXPECT_NE(c.err.find(" s)…", first), std::string::npos) << c.err;
  // Erased at the end: after the last drawing, a carriage return, only spaces, another one.
  const auto erase = c.err.find('\r', last + 1);
  ASSERT_NE(erase, std::string::npos) << c.err;
  const auto end = c.err.find('\r', erase + 1);
  ASSERT_NE(end, std::string::npos) << c.err;
  EXPECT_GT(end - erase, says.size());
  EXPECT_EQ(c.err.substr(erase + 1, end - erase - 1).find_first_not_of(' '), std::string::npos)
      << c.err;
  EXPECT_EQ(c.err.substr(end + 1), "");
  // Standard output, a pipe, has the result and nothing of the line.
  EXPECT_NE(c.out.find("fake_vk_hang.json"), std::string::npos) << c.out;
  EXPECT_EQ(c.out.find("waiting for"), std::string::npos) << c.out;
}

TEST(ProgressLine, NeverWrittenWhenStandardErrorIsNotATerminal) {
  if (!vulkan_loader_installed()) GTEST_SKIP() << "no Vulkan loader (libvulkan1)";
  const Captured c = run_query(false, kQuery);
  ASSERT_TRUE(WIFEXITED(c.status)) << c.err;
  EXPECT_NE(c.out.find("fake_vk_hang.json"), std::string::npos) << c.out;
  EXPECT_EQ(c.err.find("waiting for"), std::string::npos) << c.err;
  EXPECT_EQ(c.err.find('\r'), std::string::npos) << c.err;
}

TEST(ProgressLine, NotWithJsonEvenOnATerminal) {
  if (!vulkan_loader_installed()) GTEST_SKIP() << "no Vulkan loader (libvulkan1)";
  std::vector<std::string> args = kQuery;
  args.push_back("--json");
  const Captured c = run_query(true, args);
  ASSERT_TRUE(WIFEXITED(c.status)) << c.err;
  EXPECT_EQ(c.err.find("waiting for"), std::string::npos) << c.err;
}

}  // namespace
}  // namespace gpudoctor
