#pragma once
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "model/probe_outcome.hpp"

namespace gpudoctor {

/// What a job's body says about itself, from inside the child.
struct JobReport {
  ProbeStatus status = ProbeStatus::ok;
  std::string detail;
  Json data;  ///< the facts, as the backend's model serialises them
};

/// From inside a job's body: sends `data` to the parent now, so that a driver that then
/// crashes or hangs still leaves these facts behind (IsolatedResult::data, next to the crash or
/// timeout as the outcome). A later call, or the body's own report, replaces it. Does nothing
/// outside an isolated child.
void report_progress(const Json& data);

/// Work that loads a vendor library: it runs in a forked child, never in the parent.
struct IsolatedJob {
  std::string backend;
  std::string label;
  std::optional<std::string> library;
  std::function<JobReport()> body;
};

struct IsolatedResult {
  ProbeOutcome outcome;
  /// Present when the child reported back in time, well formed; when it crashed or hung, the
  /// last report_progress() it made, if any.
  std::optional<Json> data;
};

/// A job whose child still runs, for a progress display: which one, and since when.
struct RunningJob {
  std::string backend;
  std::string label;
  std::chrono::steady_clock::time_point started;
};

/// Told, while IsolatedRun::wait waits, which children still run (oldest first), a few times a
/// second; told once more with none when the wait is over.
using RunProgress = std::function<void(const std::vector<RunningJob>&)>;

/// Runs jobs in children, at most `max_children` at once, each with its own deadline counted
/// from its own start. start() forks the first ones and wait() the rest, so both must run
/// while the process has a single thread; other work may run between them.
class IsolatedRun {
 public:
  explicit IsolatedRun(std::vector<IsolatedJob> jobs,
                       std::size_t max_children = default_max_children());
  IsolatedRun(const IsolatedRun&) = delete;
  IsolatedRun& operator=(const IsolatedRun&) = delete;
  ~IsolatedRun();

  void start();
  /// Runs every job to its end. A child is done when it exits (what it left in its pipes is
  /// read then; a helper it forked is killed, not waited for); one still running `deadline`
  /// after its start is killed with its process group and reported as timed out.
  /// `progress`, when given, hears what is still running (RunProgress).
  std::vector<IsolatedResult> wait(std::chrono::milliseconds deadline,
                                   const RunProgress& progress = {});

  /// Twice the CPUs, at least 4, at most 64: children mostly wait (dlopen, a driver's ioctls, a
  /// hung driver holding its slot until its deadline), so twice the cores keeps the cores busy;
  /// on a loaded machine hundreds at once starve each other into their deadlines. 64 keeps the
  /// parent's pipes (two a child) far below the usual limit of 1024 descriptors.
  static std::size_t default_max_children();

  /// How long one run may go on starting children: 12 deadlines, at least 30 s. Jobs not
  /// started by then are reported as skipped, so that many drivers that each hang to their
  /// deadline cannot hold the run for (jobs / max_children) deadlines.
  static std::chrono::milliseconds run_budget(std::chrono::milliseconds deadline);
  /// Another budget than run_budget's (the tests: a short one).
  void set_budget(std::chrono::milliseconds budget) { budget_ = budget; }

  /// The run's total deadline (--deadline `whole`), before start(): every child is gone by
  /// `end`. No job starts after `end` less kill_grace(), and one still running then is killed and
  /// reported as skipped, "not examined: deadline", never as hung: the deadline, not the driver,
  /// cut it short. A job whose own deadline comes first times out as usual.
  void set_end(std::chrono::steady_clock::time_point end, std::chrono::milliseconds whole) {
    end_ = end;
    whole_deadline_ = whole;
  }
  /// How long a killed child is waited for before it is left behind (stuck in the kernel).
  static std::chrono::milliseconds kill_grace();

 private:
  struct Child;
  void start_child(std::size_t i);
  void step(std::chrono::milliseconds deadline, bool progress);
  bool past_cut(std::chrono::steady_clock::time_point now) const;
  std::vector<RunningJob> running() const;
  std::vector<IsolatedJob> jobs_;
  std::vector<Child> children_;
  std::size_t max_children_;
  std::size_t next_ = 0;  ///< the next job to start
  std::chrono::steady_clock::time_point begun_ = std::chrono::steady_clock::now();
  std::optional<std::chrono::milliseconds> budget_;
  std::optional<std::chrono::steady_clock::time_point> end_;
  std::chrono::milliseconds whole_deadline_{0};
};

/// Convenience: start, then wait.
std::vector<IsolatedResult> run_isolated(std::vector<IsolatedJob> jobs,
                                         std::chrono::milliseconds deadline);

}  // namespace gpudoctor
