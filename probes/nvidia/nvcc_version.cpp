// `nvcc --version`, for a toolkit that has no version file. Only ever run on this machine
// (never under --sysroot), with a deadline, and only when no file tells the version.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

#include "nvidia/nvidia_readers.hpp"
#include "core/pipe.hpp"

extern char** environ;  // NOLINT

namespace gpudoctor {

std::optional<std::string> run_nvcc_version(const std::string& nvcc) {
  int fds[2];
  if (!open_pipe_cloexec(fds)) return std::nullopt;
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  ::posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::string arg0 = nvcc;
  std::string arg1 = "--version";
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, nvcc.c_str(), &actions, nullptr, argv, environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return std::nullopt;
  }

  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  bool timed_out = false;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int n = ::poll(&p, 1, static_cast<int>(left));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      timed_out = n == 0;
      break;
    }
    char buf[4096];
    ssize_t got = ::read(fds[0], buf, sizeof buf);
    if (got <= 0) break;
    if (out.size() < 64 * 1024) out.append(buf, static_cast<std::size_t>(got));
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

}  // namespace gpudoctor
