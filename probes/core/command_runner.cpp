#include "core/command_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/child_guard.hpp"
#include "core/pipe.hpp"
#include "core/unique_fd.hpp"

extern char** environ;

namespace gpudoctor {

namespace {

constexpr std::size_t kMaxOutput = 8u << 20;
constexpr std::chrono::milliseconds kKillGrace{500};

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

/// In the child: only async-signal-safe calls until exec. An exec that fails sends its errno
/// down `error_fd` (close-on-exec, so a successful exec closes it with nothing written).
[[noreturn]] void exec_child(char* const* argv, char* const* envp, int out_fd, int error_fd) {
  const int in = ::open("/dev/null", O_RDONLY);
  const int err = ::open("/dev/null", O_WRONLY);
  if (in >= 0) ::dup2(in, STDIN_FILENO);
  if (err >= 0) ::dup2(err, STDERR_FILENO);
  ::dup2(out_fd, STDOUT_FILENO);
  ::execve(argv[0], argv, envp);
  const int e = errno;
  if (::write(error_fd, &e, sizeof e) < 0) {
    // nothing more to do
  }
  ::_exit(127);
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
  int out_fds[2];
  int err_fds[2];
  if (!open_pipe_cloexec(out_fds)) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  if (!open_pipe_cloexec(err_fds)) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    ::close(out_fds[0]);
    ::close(out_fds[1]);
    return result;
  }
  std::vector<std::string> args = argv;
  std::vector<std::string> environment = merged_environment(env);
  auto c_args = c_strings(args);
  auto c_env = c_strings(environment);
  const pid_t pid = fork_guarded();
  if (pid == 0) exec_child(c_args.data(), c_env.data(), out_fds[1], err_fds[1]);
  ::close(out_fds[1]);
  ::close(err_fds[1]);
  UniqueFd out(out_fds[0]);
  UniqueFd exec_error(err_fds[0]);
  if (pid < 0) {
    result.error = std::string("fork: ") + std::strerror(errno);
    return result;
  }
  ::fcntl(out.get(), F_SETFL, ::fcntl(out.get(), F_GETFL) | O_NONBLOCK);

  // The whole run has the deadline, not only its output: a command that closes its output and
  // lingers is killed at the same time as one that keeps writing.
  const Clock::time_point until = Clock::now() + deadline;
  int status = 0;
  bool exited = false;
  while (!(exited = collect_if_exited(pid, status))) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
    if (left <= 0) break;
    pollfd fds[2] = {{out ? out.get() : -1, POLLIN, 0}, {child_exit_fd(), POLLIN, 0}};
    if (::poll(fds, 2, static_cast<int>(left) + 1) > 0) {
      drain_child_exits();
      if (out && fds[0].revents != 0 && !read_available(out.get(), result.out, kMaxOutput)) {
        out.reset();
      }
    }
  }
  if (out) read_available(out.get(), result.out, kMaxOutput);
  if (!exited) {
    kill_child(pid);
    result.timed_out = true;
    if (!reap_within(pid, kKillGrace, status)) {
      result.error = argv[0] + " did not die when killed (stuck in the kernel) and was left behind";
    }
  }
  kill_adopted_helpers();
  int exec_errno = 0;
  if (::read(exec_error.get(), &exec_errno, sizeof exec_errno) == sizeof exec_errno) {
    result.error = "exec " + argv[0] + ": " + std::strerror(exec_errno);
    return result;
  }
  if (!result.timed_out && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (!result.timed_out && WIFSIGNALED(status)) {
    result.error = argv[0] + " was killed by signal " + std::to_string(WTERMSIG(status));
  }
  return result;
}

}  // namespace gpudoctor
