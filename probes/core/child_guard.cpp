#include "core/child_guard.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "core/child_guard_platform.hpp"
#include "core/pipe.hpp"

namespace gpudoctor {

namespace {

// Children alive at once stay far below this (IsolatedRun caps them near the core count); a
// child that finds no slot is still covered by its parent-death signal.
constexpr int kMaxTracked = 1024;
constexpr int kFatalSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
// How long a dying gpudoctor waits for its killed children, so that their helpers are handed
// to it and can be killed too.
constexpr long kHandlerGraceNs = 200'000'000;

std::atomic<pid_t> g_tracked[kMaxTracked];
int g_exit_pipe[2] = {-1, -1};
bool g_installed = false;

void sleep_ns(long ns) {
  timespec t{0, ns};
  ::nanosleep(&t, nullptr);
}

long now_ns() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1'000'000'000L + t.tv_nsec;
}

void track(pid_t pid) {
  for (auto& slot : g_tracked) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pid)) return;
  }
}

void untrack(pid_t pid) {
  for (auto& slot : g_tracked) {
    pid_t mine = pid;
    if (slot.compare_exchange_strong(mine, 0)) return;
  }
}

/// Kills the adopted helpers and reaps them (briefly: a zombie left over is harmless).
int kill_and_reap_adopted() {
  pid_t killed[256];
  const int n = platform::kill_untracked_children(g_tracked, kMaxTracked, killed, 256);
  const long until = now_ns() + 100'000'000;
  for (int i = 0; i < n && i < 256; ++i) {
    while (::waitpid(killed[i], nullptr, WNOHANG) == 0 && now_ns() < until) sleep_ns(1'000'000);
  }
  return n;
}

void on_child_exit(int) {
  const int saved = errno;
  const char byte = 0;
  if (::write(g_exit_pipe[1], &byte, 1) < 0) {
    // full: poll() is woken already
  }
  errno = saved;
}

/// SIGINT, SIGTERM, SIGHUP, SIGQUIT: every child and helper dies first, then gpudoctor, of the
/// same signal (its parent sees what killed it, as if there had been no handler).
void on_fatal_signal(int sig) {
  for (auto& slot : g_tracked) {
    const pid_t pid = slot.load();
    if (pid <= 0) continue;
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
  }
  // Reap them, so that helpers outside their groups are handed over, then kill those.
  const long until = now_ns() + kHandlerGraceNs;
  for (;;) {
    bool left = false;
    for (auto& slot : g_tracked) {
      const pid_t pid = slot.load();
      if (pid <= 0) continue;
      const pid_t r = ::waitpid(pid, nullptr, WNOHANG);
      if (r == pid || (r < 0 && errno == ECHILD)) {
        slot.store(0);
      } else {
        left = true;
      }
    }
    if (!left || now_ns() >= until) break;
    sleep_ns(1'000'000);
  }
  kill_and_reap_adopted();
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(sig, &dfl, nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
  ::raise(sig);
}

void install() {
  if (g_installed) return;
  g_installed = true;
  if (open_pipe_cloexec(g_exit_pipe)) {
    for (int fd : g_exit_pipe) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    struct sigaction chld {};
    chld.sa_handler = on_child_exit;
    chld.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigemptyset(&chld.sa_mask);
    ::sigaction(SIGCHLD, &chld, nullptr);
  }
  struct sigaction fatal {};
  fatal.sa_handler = on_fatal_signal;
  sigemptyset(&fatal.sa_mask);
  for (int s : kFatalSignals) sigaddset(&fatal.sa_mask, s);
  for (int s : kFatalSignals) {
    struct sigaction old {};
    if (::sigaction(s, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    ::sigaction(s, &fatal, nullptr);
  }
  platform::become_subreaper();
}

/// In the child, right after fork: nothing of the parent's guard is its own.
void prepare_child(pid_t parent, const sigset_t& mask) {
  for (auto& slot : g_tracked) slot.store(0);
  for (int& fd : g_exit_pipe) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  g_installed = false;
  // Its own session, and so its own process group with no controlling terminal: a driver that
  // opens /dev/tty gets ENXIO, kill(0, …) reaches the child and its helpers only, and no
  // job-control signal of the terminal's (SIGTSTP, SIGTTOU) can reach it or come from it.
  ::setsid();
  platform::die_with_parent(parent);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(SIGCHLD, &dfl, nullptr);
  ::sigaction(SIGPIPE, &dfl, nullptr);  // gpudoctor ignores it (app/main.cpp); its children not
  for (int s : kFatalSignals) {
    struct sigaction old {};
    if (::sigaction(s, nullptr, &old) == 0 && old.sa_handler == on_fatal_signal) {
      ::sigaction(s, &dfl, nullptr);
    }
  }
  ::sigprocmask(SIG_SETMASK, &mask, nullptr);
}

}  // namespace

pid_t fork_guarded() {
  install();
  sigset_t hold;
  sigset_t old;
  sigemptyset(&hold);
  for (int s : kFatalSignals) sigaddset(&hold, s);
  sigaddset(&hold, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &hold, &old);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    prepare_child(parent, old);
    return 0;
  }
  const int saved = errno;
  // The parent does not setpgid() the child as well: a group leader cannot call setsid(). Until
  // the child's setsid() its group does not exist, and every kill of it goes to the pid too.
  if (pid > 0) track(pid);
  ::sigprocmask(SIG_SETMASK, &old, nullptr);
  errno = saved;
  return pid;
}

bool collect_if_exited(pid_t pid, int& status) {
  siginfo_t info{};
  // Looked at without reaping: until it is reaped the child's number is still its group's.
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    if (errno == EINTR) return false;
    untrack(pid);  // ECHILD: reaped already, nothing left to wait for
    status = 0;
    return true;
  }
  if (info.si_pid != pid) return false;
  ::kill(-pid, SIGKILL);
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  untrack(pid);
  return true;
}

void kill_child(pid_t pid) {
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
}

bool reap_within(pid_t pid, std::chrono::milliseconds grace, int& status) {
  const auto until = std::chrono::steady_clock::now() + grace;
  for (;;) {
    if (collect_if_exited(pid, status)) return true;
    if (std::chrono::steady_clock::now() >= until) break;
    sleep_ns(1'000'000);
  }
  abandon_child(pid);
  return false;
}

void abandon_child(pid_t pid) { untrack(pid); }

int child_exit_fd() { return g_exit_pipe[0]; }

void drain_child_exits() {
  char buf[256];
  while (g_exit_pipe[0] >= 0 && ::read(g_exit_pipe[0], buf, sizeof buf) > 0) {
  }
}

int kill_adopted_helpers() { return g_installed ? kill_and_reap_adopted() : 0; }

int tracked_children() {
  int n = 0;
  for (auto& slot : g_tracked) n += slot.load() > 0 ? 1 : 0;
  return n;
}

}  // namespace gpudoctor
