#include "core/command_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace gpudoctor {

namespace {

constexpr std::size_t kMaxOutput = 8u << 20;

using Clock = std::chrono::steady_clock;

/// This process's environment with `extra` ("NAME=value") added or replacing.
std::vector<std::string> merged_environment(const std::vector<std::string>& extra) {
  auto name_of = [](const std::string& kv) { return kv.substr(0, kv.find('=')); };
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    std::string kv(*e);
    bool replaced = false;
    for (const auto& x : extra) replaced = replaced || name_of(x) == name_of(kv);
    if (!replaced) out.push_back(std::move(kv));
  }
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

std::vector<char*> c_strings(std::vector<std::string>& v) {
  std::vector<char*> out;
  for (auto& s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

/// Reads the pipe until EOF or the deadline; false when the deadline passed first.
bool drain(int fd, Clock::time_point until, std::string& out) {
  char buf[65536];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    int n = ::poll(&p, 1, static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n == 0 ? false : true;
    ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return true;
    if (out.size() < kMaxOutput) {
      out.append(buf, std::min(static_cast<std::size_t>(got), kMaxOutput - out.size()));
    }
  }
}

/// Polls for the child's exit until the deadline; true when it exited (status filled in).
bool wait_until(pid_t pid, Clock::time_point until, int& status) {
  for (;;) {
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) return true;  // already reaped: nothing left to kill
    if (Clock::now() >= until) return false;
    ::usleep(2000);
  }
}

}  // namespace

CommandOutput SpawnRunner::run(const std::vector<std::string>& argv,
                               const std::vector<std::string>& env,
                               std::chrono::milliseconds deadline) const {
  CommandOutput result;
  if (argv.empty()) {
    result.error = "no command";
    return result;
  }
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  ::fcntl(pipe_fds[0], F_SETFD, FD_CLOEXEC);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);

  std::vector<std::string> args = argv;
  std::vector<std::string> environment = merged_environment(env);
  auto c_args = c_strings(args);
  auto c_env = c_strings(environment);
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, c_args.data(), c_env.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (rc != 0) {
    ::close(pipe_fds[0]);
    result.error = "posix_spawn " + argv[0] + ": " + std::strerror(rc);
    return result;
  }
  const Clock::time_point until = Clock::now() + deadline;
  const bool finished = drain(pipe_fds[0], until, result.out);
  ::close(pipe_fds[0]);
  int status = 0;
  // A command may close its output and linger; it gets the rest of the deadline to exit.
  bool exited = finished && wait_until(pid, until, status);
  if (!exited) {
    ::kill(pid, SIGKILL);
    result.timed_out = true;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (!result.timed_out && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (!result.timed_out && WIFSIGNALED(status)) {
    result.error = argv[0] + " was killed by signal " + std::to_string(WTERMSIG(status));
  }
  return result;
}

}  // namespace gpudoctor
