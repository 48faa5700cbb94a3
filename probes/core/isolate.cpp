#include "core/isolate.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <exception>

#include "core/pipe.hpp"

namespace gpudoctor {

namespace {

constexpr std::size_t kMaxReport = 64 << 20;  // a child sending more than this is broken
constexpr std::size_t kStderrTail = 2048;

void write_all(int fd, const std::string& s) {
  const char* p = s.data();
  std::size_t left = s.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

/// The report pipe, in a child; -1 in the parent. The stream is one JSON object per line:
/// {"progress": data} for each report_progress(), then the final envelope.
int g_report_fd = -1;

/// The last line of the report stream that is a progress object, and the final envelope.
struct ReportStream {
  std::optional<Json> progress;
  std::string final_text;
};

ReportStream split_report(const std::string& report) {
  ReportStream out;
  std::size_t start = 0;
  while (start < report.size()) {
    std::size_t end = report.find('\n', start);
    if (end == std::string::npos) {
      out.final_text = report.substr(start);
      break;
    }
    Json line = Json::parse(report.substr(start, end - start), nullptr, false);
    if (line.is_object() && line.contains("progress")) out.progress = std::move(line["progress"]);
    start = end + 1;
  }
  return out;
}

[[noreturn]] void child_main(const IsolatedJob& job, int report_fd, int log_fd) {
  // A driver that prints must not reach our stdout; what it says is kept for the report.
  ::dup2(log_fd, STDOUT_FILENO);
  ::dup2(log_fd, STDERR_FILENO);
  ::close(log_fd);
  ::setpgid(0, 0);
  g_report_fd = report_fd;
  Json envelope;
  try {
    JobReport r = job.body();
    envelope = {{"status", r.status}, {"detail", r.detail}, {"data", std::move(r.data)}};
  } catch (const std::exception& e) {
    envelope = {{"status", ProbeStatus::failed}, {"detail", std::string("exception: ") + e.what()}};
  } catch (...) {
    envelope = {{"status", ProbeStatus::failed}, {"detail", "unknown exception"}};
  }
  write_all(report_fd, dump_json(envelope));
  ::close(report_fd);
  ::_exit(0);  // no atexit handlers: some drivers hang or crash in their destructors
}

std::string signal_text(int sig) {
#ifdef __APPLE__
  // The BSD table: macOS's libc has no sigabbrev_np/sigdescr_np (glibc 2.32).
  const char* abbrev = sig > 0 && sig < NSIG ? sys_signame[sig] : nullptr;
  std::string name = "signal " + std::to_string(sig);
  if (abbrev) {
    name = "SIG";
    for (const char* c = abbrev; *c; ++c) name += static_cast<char>(std::toupper(*c));
  }
  const char* desc = sig > 0 && sig < NSIG ? sys_siglist[sig] : nullptr;
#else
  const char* abbrev = sigabbrev_np(sig);
  std::string name = abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
  const char* desc = sigdescr_np(sig);
#endif
  return desc ? name + " (" + desc + ")" : name;
}

}  // namespace

void report_progress(const Json& data) {
  if (g_report_fd < 0) return;
  write_all(g_report_fd, dump_json(Json{{"progress", data}}) + "\n");
}

struct IsolatedRun::Child {
  pid_t pid = -1;
  int report_fd = -1;
  int log_fd = -1;
  std::string report;
  std::string log;
  bool exited = false;
  int wait_status = 0;
  std::optional<std::string> start_error;
  double seconds = 0;
};

IsolatedRun::IsolatedRun(std::vector<IsolatedJob> jobs) : jobs_(std::move(jobs)) {}

IsolatedRun::~IsolatedRun() {
  for (auto& c : children_) {
    if (c.pid > 0 && !c.exited) {
      ::kill(-c.pid, SIGKILL);
      ::kill(c.pid, SIGKILL);
      ::waitpid(c.pid, nullptr, 0);
    }
    if (c.report_fd >= 0) ::close(c.report_fd);
    if (c.log_fd >= 0) ::close(c.log_fd);
  }
}

void IsolatedRun::start() {
  started_ = std::chrono::steady_clock::now();
  children_.resize(jobs_.size());
  std::fflush(nullptr);  // nothing buffered may be written twice
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    Child& c = children_[i];
    int rep[2];
    int log[2];
    if (!open_pipe_cloexec(rep)) {
      c.start_error = std::string("pipe: ") + std::strerror(errno);
      continue;
    }
    if (!open_pipe_cloexec(log)) {
      c.start_error = std::string("pipe: ") + std::strerror(errno);
      ::close(rep[0]);
      ::close(rep[1]);
      continue;
    }
    pid_t pid = ::fork();
    if (pid < 0) {
      c.start_error = std::string("fork: ") + std::strerror(errno);
      for (int fd : {rep[0], rep[1], log[0], log[1]}) ::close(fd);
      continue;
    }
    if (pid == 0) {
      ::close(rep[0]);
      ::close(log[0]);
      // Earlier children's pipe ends are close-on-exec but not closed on fork; close them so
      // this child cannot hold a sibling's pipe open.
      for (std::size_t k = 0; k < i; ++k) {
        if (children_[k].report_fd >= 0) ::close(children_[k].report_fd);
        if (children_[k].log_fd >= 0) ::close(children_[k].log_fd);
      }
      child_main(jobs_[i], rep[1], log[1]);
    }
    ::setpgid(pid, pid);
    ::close(rep[1]);
    ::close(log[1]);
    c.pid = pid;
    c.report_fd = rep[0];
    c.log_fd = log[0];
  }
}

std::vector<IsolatedResult> IsolatedRun::wait(std::chrono::milliseconds deadline) {
  using Clock = std::chrono::steady_clock;
  const auto end = started_ + deadline;
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - started_).count(); };

  auto reap = [&](Child& c, int flags) {
    if (c.pid <= 0 || c.exited) return;
    int st = 0;
    pid_t r = ::waitpid(c.pid, &st, flags);
    if (r == c.pid) {
      c.exited = true;
      c.wait_status = st;
      c.seconds = elapsed();
    }
  };

  for (;;) {
    std::vector<pollfd> fds;
    std::vector<std::pair<Child*, bool>> owners;  // (child, is_report)
    for (auto& c : children_) {
      if (c.report_fd >= 0) {
        fds.push_back({c.report_fd, POLLIN, 0});
        owners.emplace_back(&c, true);
      }
      if (c.log_fd >= 0) {
        fds.push_back({c.log_fd, POLLIN, 0});
        owners.emplace_back(&c, false);
      }
    }
    bool all_reaped = true;
    for (auto& c : children_) {
      reap(c, WNOHANG);
      if (c.pid > 0 && !c.exited) all_reaped = false;
    }
    if (fds.empty() && all_reaped) break;
    auto now = Clock::now();
    if (now >= end) break;
    int timeout_ms = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(end - now).count());
    // With no pipe left open, poll only paces the wait for a child's exit status.
    int n = ::poll(fds.data(), fds.size(), fds.empty() ? std::min(timeout_ms, 5) : timeout_ms);
    if (n < 0 && errno != EINTR) break;
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (fds[k].revents == 0) continue;
      Child& c = *owners[k].first;
      int& fd = owners[k].second ? c.report_fd : c.log_fd;
      std::string& sink = owners[k].second ? c.report : c.log;
      char buf[65536];
      ssize_t got = ::read(fd, buf, sizeof buf);
      if (got > 0) {
        sink.append(buf, static_cast<std::size_t>(got));
        if (!owners[k].second && sink.size() > 4 * kStderrTail) {
          sink.erase(0, sink.size() - kStderrTail);
        }
        if (owners[k].second && sink.size() > kMaxReport) {
          ::close(fd);
          fd = -1;
        }
      } else if (got == 0 || errno != EINTR) {
        ::close(fd);
        fd = -1;
      }
    }
  }

  std::vector<IsolatedResult> results;
  results.reserve(children_.size());
  for (std::size_t i = 0; i < children_.size(); ++i) {
    Child& c = children_[i];
    const IsolatedJob& job = jobs_[i];
    IsolatedResult r;
    r.outcome.backend = job.backend;
    r.outcome.label = job.label;
    r.outcome.library = job.library;
    const std::string what = job.library ? *job.library : job.label;
    if (c.start_error) {
      r.outcome.status = ProbeStatus::failed;
      r.outcome.detail = "could not start the isolated probe: " + *c.start_error;
      results.push_back(std::move(r));
      continue;
    }
    bool timed_out = false;
    if (!c.exited) {
      ::kill(-c.pid, SIGKILL);
      ::kill(c.pid, SIGKILL);
      reap(c, 0);
      timed_out = true;
      c.seconds = std::chrono::duration<double>(deadline).count();
    }
    r.outcome.seconds = c.seconds;
    ReportStream stream = split_report(c.report);
    if (!c.log.empty()) {
      r.outcome.stderr_tail =
          c.log.size() > kStderrTail ? c.log.substr(c.log.size() - kStderrTail) : c.log;
    }
    const bool died = timed_out || !WIFEXITED(c.wait_status) || WEXITSTATUS(c.wait_status) != 0;
    if (died) r.data = std::move(stream.progress);
    if (timed_out) {
      r.outcome.status = ProbeStatus::timed_out;
      r.outcome.detail = what + " did not finish within " +
                         std::to_string(deadline.count()) + " ms and was killed";
    } else if (WIFSIGNALED(c.wait_status)) {
      r.outcome.status = ProbeStatus::crashed;
      r.outcome.detail = what + " crashed: " + signal_text(WTERMSIG(c.wait_status));
    } else if (WIFEXITED(c.wait_status) && WEXITSTATUS(c.wait_status) != 0) {
      r.outcome.status = ProbeStatus::failed;
      r.outcome.detail =
          what + " made the probe exit with status " + std::to_string(WEXITSTATUS(c.wait_status));
    } else {
      Json env = Json::parse(stream.final_text, nullptr, /*allow_exceptions=*/false);
      if (env.is_discarded() || !env.is_object() || !env.contains("status")) {
        r.outcome.status = ProbeStatus::failed;
        r.outcome.detail = what + " made the probe send back malformed output (" +
                           std::to_string(stream.final_text.size()) + " bytes)";
      } else {
        try {
          r.outcome.status = env.at("status").get<ProbeStatus>();
          r.outcome.detail = env.value("detail", std::string());
        } catch (const std::exception&) {
          r.outcome.status = ProbeStatus::failed;
          r.outcome.detail = what + " made the probe send back malformed output";
        }
        if (env.contains("data") && !env["data"].is_null()) r.data = std::move(env["data"]);
      }
    }
    results.push_back(std::move(r));
  }
  return results;
}

std::vector<IsolatedResult> run_isolated(std::vector<IsolatedJob> jobs,
                                         std::chrono::milliseconds deadline) {
  IsolatedRun run(std::move(jobs));
  run.start();
  return run.wait(deadline);
}

}  // namespace gpudoctor

#ifdef GPUDOCTOR_ASAN
// In a GPUDOCTOR_SANITIZE build the forked children share the parent's AddressSanitizer, which
// would catch a driver's SIGSEGV, SIGBUS or SIGFPE and exit with status 1: the crash must stay
// a signal for wait() to name it. ASAN_OPTIONS, read after these defaults, still overrides them.
extern "C" const char* __asan_default_options() {
  return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0";
}
#endif
