#include "core/isolate.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <new>
#include <thread>

#include "core/child_guard.hpp"
#include "core/isolate_result.hpp"
#include "core/pipe.hpp"
#include "core/signal_fence.hpp"
#include "core/unique_fd.hpp"

namespace gpudoctor {

namespace {

using Clock = std::chrono::steady_clock;

// A killed child that has not died this long after SIGKILL is stuck in the kernel: it is left
// behind and reported, never waited for.
constexpr std::chrono::milliseconds kIsolateKillGrace{500};

// How often a progress display hears from wait(): often enough for its tenths of a second.
constexpr std::chrono::milliseconds kProgressInterval{200};

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

/// A page shared with one child, where its fence writes down what it refused (signal_fence.hpp).
FenceLog* map_fence_log() {
  void* page = ::mmap(nullptr, sizeof(FenceLog), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANON, -1, 0);
  return page == MAP_FAILED ? nullptr : new (page) FenceLog();
}

[[noreturn]] void child_main(const IsolatedJob& job, int report_fd, int log_fd,
                             const FenceTargets& fence, FenceLog* fence_log) {
  // A driver that prints must not reach our stdout; what it says is kept for the report. Nor
  // may it read the terminal gpudoctor may have been started from.
  ::dup2(log_fd, STDOUT_FILENO);
  ::dup2(log_fd, STDERR_FILENO);
  ::close(log_fd);
  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
  if (null_fd > STDIN_FILENO) ::close(null_fd);
  g_report_fd = report_fd;
  // Before any vendor code: the driver may signal itself and its helpers, never the run. A
  // system without the filter runs the job unfenced (its own session is still a fence).
  raise_signal_fence(fence, fence_log);
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

}  // namespace

void report_progress(const Json& data) {
  if (g_report_fd < 0) return;
  write_all(g_report_fd, dump_json(Json{{"progress", data}}) + "\n");
}

struct IsolatedRun::Child {
  enum class State { pending, running, killed, done, abandoned };
  State state = State::pending;
  pid_t pid = -1;
  UniqueFd report_fd;
  UniqueFd log_fd;
  ChildOutput out;
  Clock::time_point started;
  Clock::time_point killed_at;
  std::optional<std::string> start_error;
  bool over_budget = false;  ///< never started: the run had spent its time budget
  bool over_deadline = false;  ///< never started: the run's deadline (set_end) came first
  FenceLog* fence = nullptr;   ///< shared with the child; unmapped by ~IsolatedRun

  /// What the child's fence refused, copied out of the shared page.
  void read_fence() {
    if (fence == nullptr) return;
    out.fenced_total = fence->count.load();
    const std::uint32_t kept = std::min<std::uint32_t>(
        out.fenced_total, sizeof fence->records / sizeof fence->records[0]);
    out.fenced_calls.clear();
    for (std::uint32_t i = 0; i < kept; ++i) {
      out.fenced_calls.push_back(describe_fenced_call(fence->records[i], ::getpid(), ::getpgrp()));
    }
  }

  bool live() const { return state == State::running || state == State::killed; }
  void read_pipes() {
    // A report past kMaxReport is cut short, and then fails to parse: the child is broken.
    if (report_fd && !read_available(report_fd.get(), out.report, kMaxReport)) report_fd.reset();
    if (log_fd && !read_available(log_fd.get(), out.log, kStderrTail, true)) log_fd.reset();
  }
  /// Reaped: what the pipes still hold is the rest of what it said.
  void finish(int status) {
    read_pipes();
    read_fence();
    report_fd.reset();
    log_fd.reset();
    out.wait_status = status;
    out.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    state = State::done;
  }
};

std::size_t IsolatedRun::default_max_children() {
  const std::size_t cpus = std::max(1u, std::thread::hardware_concurrency());
  return std::clamp<std::size_t>(2 * cpus, 4, 64);
}

IsolatedRun::IsolatedRun(std::vector<IsolatedJob> jobs, std::size_t max_children)
    : jobs_(std::move(jobs)),
      children_(jobs_.size()),
      max_children_(std::max<std::size_t>(1, max_children)) {}

IsolatedRun::~IsolatedRun() {
  for (auto& c : children_) {
    if (!c.live()) continue;
    kill_child(c.pid);
    int status = 0;
    reap_within(c.pid, std::chrono::milliseconds(100), status);
  }
  kill_adopted_helpers();
  for (auto& c : children_) {
    if (c.fence != nullptr) ::munmap(c.fence, sizeof(FenceLog));
  }
}

void IsolatedRun::start_child(std::size_t i) {
  Child& c = children_[i];
  int rep[2];
  int log[2];
  if (!open_pipe_cloexec(rep)) {
    c.start_error = std::string("pipe: ") + std::strerror(errno);
    c.state = Child::State::done;
    return;
  }
  if (!open_pipe_cloexec(log)) {
    c.start_error = std::string("pipe: ") + std::strerror(errno);
    ::close(rep[0]);
    ::close(rep[1]);
    c.state = Child::State::done;
    return;
  }
  FenceTargets fence{::getpid(), ::getpgrp(), {}};
  for (const auto& other : children_) {
    if (other.live()) fence.siblings.push_back(other.pid);
  }
  if (c.fence == nullptr) c.fence = map_fence_log();
  std::fflush(nullptr);  // nothing buffered may be written twice
  const pid_t pid = fork_guarded();
  if (pid < 0) {
    c.start_error = std::string("fork: ") + std::strerror(errno);
    for (int fd : {rep[0], rep[1], log[0], log[1]}) ::close(fd);
    c.state = Child::State::done;
    return;
  }
  if (pid == 0) {
    ::close(rep[0]);
    ::close(log[0]);
    // The running siblings' pipe ends are close-on-exec but not closed on fork: closed here,
    // so that this child cannot hold a sibling's pipe open.
    for (auto& other : children_) {
      if (other.report_fd) ::close(other.report_fd.get());
      if (other.log_fd) ::close(other.log_fd.get());
    }
    child_main(jobs_[i], rep[1], log[1], fence, c.fence);
  }
  ::close(rep[1]);
  ::close(log[1]);
  for (int fd : {rep[0], log[0]}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  c.pid = pid;
  c.report_fd.reset(rep[0]);
  c.log_fd.reset(log[0]);
  c.started = Clock::now();
  c.state = Child::State::running;
}

std::chrono::milliseconds IsolatedRun::kill_grace() { return kIsolateKillGrace; }

/// Whether the run's deadline (set_end) has come for its children: killed then, each has its
/// kill grace left before the end.
bool IsolatedRun::past_cut(Clock::time_point now) const {
  return end_ && now >= *end_ - kIsolateKillGrace;
}

void IsolatedRun::start() {
  begun_ = Clock::now();
  while (next_ < children_.size() && next_ < max_children_ && !past_cut(Clock::now())) {
    start_child(next_++);
  }
}

/// One turn: start what fits, collect the children that exited, kill the ones past their
/// deadline, give up on killed ones that do not die, then sleep in poll() until a pipe has
/// data, a child exits or the nearest deadline comes.
void IsolatedRun::step(std::chrono::milliseconds deadline, bool progress) {
  std::size_t live = 0;
  for (const auto& c : children_) live += c.live() ? 1 : 0;
  while (next_ < children_.size() && live < max_children_ && !past_cut(Clock::now())) {
    start_child(next_++);
    if (children_[next_ - 1].live()) ++live;
  }
  const auto now = Clock::now();
  const bool cut = past_cut(now);
  auto wake = now + (progress ? kProgressInterval : std::chrono::milliseconds(1000));
  std::vector<pollfd> fds;
  std::vector<Child*> owners;
  for (auto& c : children_) {
    if (!c.live()) continue;
    int status = 0;
    if (collect_if_exited(c.pid, status)) {
      c.finish(status);
      continue;
    }
    if (c.state == Child::State::running && (now >= c.started + deadline || cut)) {
      kill_child(c.pid);
      c.state = Child::State::killed;
      c.killed_at = now;
      c.out.timed_out = true;
      // Its own deadline had not come: the run's did, and the probe was not examined.
      if (now < c.started + deadline) c.out.cut_by_run_deadline = whole_deadline_;
    }
    if (c.state == Child::State::killed) {
      if (now >= c.killed_at + kIsolateKillGrace) {
        abandon_child(c.pid);
        c.read_pipes();
        c.read_fence();
        c.report_fd.reset();
        c.log_fd.reset();
        c.out.abandoned = true;
        c.state = Child::State::abandoned;
        continue;
      }
      wake = std::min(wake, c.killed_at + kIsolateKillGrace);
    } else {
      wake = std::min(wake, c.started + deadline);
      if (end_) wake = std::min(wake, *end_ - kIsolateKillGrace);
    }
    for (UniqueFd* fd : {&c.report_fd, &c.log_fd}) {
      if (!*fd) continue;
      fds.push_back({fd->get(), POLLIN, 0});
      owners.push_back(&c);
    }
  }
  if (fds.empty() &&
      std::none_of(children_.begin(), children_.end(), [](const Child& c) { return c.live(); })) {
    return;
  }
  fds.push_back({child_exit_fd(), POLLIN, 0});
  const auto wait_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(wake - Clock::now()).count() + 1;
  const int n = ::poll(fds.data(), fds.size(), static_cast<int>(std::max<long long>(0, wait_ms)));
  if (n <= 0) return;
  drain_child_exits();
  for (std::size_t k = 0; k + 1 < fds.size(); ++k) {
    if (fds[k].revents != 0) owners[k]->read_pipes();
  }
}

std::vector<RunningJob> IsolatedRun::running() const {
  std::vector<RunningJob> out;
  for (std::size_t i = 0; i < children_.size(); ++i) {
    if (children_[i].live()) out.push_back({jobs_[i].backend, jobs_[i].label, children_[i].started});
  }
  std::stable_sort(out.begin(), out.end(), [](const RunningJob& a, const RunningJob& b) {
    return a.started < b.started;
  });
  return out;
}

std::vector<IsolatedResult> IsolatedRun::wait(std::chrono::milliseconds deadline,
                                              const RunProgress& progress) {
  const auto budget = budget_.value_or(run_budget(deadline));
  for (;;) {
    if (progress) progress(running());
    const bool pending = next_ < children_.size();
    const bool live =
        std::any_of(children_.begin(), children_.end(), [](const Child& c) { return c.live(); });
    if (!pending && !live) break;
    if (pending && past_cut(Clock::now())) {
      for (; next_ < children_.size(); ++next_) children_[next_].over_deadline = true;
      continue;
    }
    if (pending && Clock::now() - begun_ > budget) {
      // Drivers that each hang to their deadline would otherwise hold the run for
      // jobs / max_children deadlines: what was not started by now is reported, not run.
      for (; next_ < children_.size(); ++next_) children_[next_].over_budget = true;
      continue;
    }
    step(deadline, static_cast<bool>(progress));
  }
  if (progress) progress({});
  kill_adopted_helpers();
  std::vector<IsolatedResult> results;
  results.reserve(children_.size());
  for (std::size_t i = 0; i < children_.size(); ++i) {
    const IsolatedJob& job = jobs_[i];
    Child& c = children_[i];
    if (c.over_budget) {
      IsolatedResult r;
      r.outcome = {job.backend, job.label, job.library, ProbeStatus::skipped,
                   "not started: the probes before it had spent the run's time budget (" +
                       std::to_string(std::chrono::duration_cast<std::chrono::seconds>(budget).count()) +
                       " s; drivers that hang to their deadline)"};
      results.push_back(std::move(r));
      continue;
    }
    if (c.over_deadline) {
      results.push_back(not_started_by_deadline(job, whole_deadline_));
      continue;
    }
    if (c.start_error) {
      IsolatedResult r;
      r.outcome = {job.backend, job.label, job.library, ProbeStatus::failed,
                   "could not start the isolated probe: " + *c.start_error};
      results.push_back(std::move(r));
      continue;
    }
    results.push_back(result_of(job, c.out, deadline));
  }
  return results;
}

std::chrono::milliseconds IsolatedRun::run_budget(std::chrono::milliseconds deadline) {
  return std::max(deadline * 12, std::chrono::milliseconds(30000));
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
