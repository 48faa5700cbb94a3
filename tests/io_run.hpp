#pragma once
// Runs the built gpudoctor with its standard streams set up as an attack would set them: input
// from a file or a device, output closed or into /dev/full; and with a deadline, so that a
// hang fails the test instead of stalling the suite.
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace gpudoctor::test {

struct IoSetup {
  std::string stdin_path = "/dev/null";
  /// nullopt: a pipe the test reads; "" : closed; a path: opened for writing.
  std::optional<std::string> stdout_path;
  double timeout_s = 20;
  /// Run as this account (the test must be root to give it): how an output is written by
  /// someone who is not root.
  std::optional<uid_t> as_user;
};

struct IoResult {
  CommandResult r;
  bool timed_out = false;
  long max_rss_kib = 0;  ///< the command's peak resident memory (getrusage's ru_maxrss)
};

inline IoResult run_io(const std::vector<std::string>& args, const IoSetup& setup) {
  IoResult result;
  int out[2];
  int err[2];
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) return result;
  std::vector<std::string> argv_s{GPUDOCTOR_BIN};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int in = ::open(setup.stdin_path.c_str(), O_RDONLY | O_NONBLOCK);
    if (in >= 0) {
      ::fcntl(in, F_SETFL, 0);
      ::dup2(in, 0);
    }
    if (!setup.stdout_path) {
      ::dup2(out[1], 1);
    } else if (setup.stdout_path->empty()) {
      ::close(1);
    } else {
      const int fd = ::open(setup.stdout_path->c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 1);
    }
    ::dup2(err[1], 2);
    if (setup.as_user && (::setgroups(0, nullptr) != 0 || ::setgid(*setup.as_user) != 0 ||
                          ::setuid(*setup.as_user) != 0)) {
      ::_exit(126);
    }
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  int open_fds = 2;
  const auto deadline = start + std::chrono::duration<double>(setup.timeout_s);
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    if (::poll(fds, 2, static_cast<int>(left.count())) < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buf[8192];
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        (i == 0 ? result.r.out : result.r.err).append(buf, static_cast<std::size_t>(n));
      } else {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds) {
    if (f.fd >= 0) ::close(f.fd);
  }
  int st = 0;
  struct rusage usage {};
  ::wait4(pid, &st, 0, &usage);
  result.max_rss_kib = usage.ru_maxrss;
  result.r.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return result;
}

}  // namespace gpudoctor::test
