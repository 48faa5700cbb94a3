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

/// Runs jobs in parallel children with one shared deadline. start() forks, so it must be
/// called while the process has a single thread; wait() may run after other work.
class IsolatedRun {
 public:
  explicit IsolatedRun(std::vector<IsolatedJob> jobs);
  IsolatedRun(const IsolatedRun&) = delete;
  IsolatedRun& operator=(const IsolatedRun&) = delete;
  ~IsolatedRun();

  void start();
  /// Waits until every child reported or the deadline (from start()) passed; children still
  /// running then are killed and reported as timed out.
  std::vector<IsolatedResult> wait(std::chrono::milliseconds deadline);

 private:
  struct Child;
  std::vector<IsolatedJob> jobs_;
  std::vector<Child> children_;
  std::chrono::steady_clock::time_point started_;
};

/// Convenience: start, then wait.
std::vector<IsolatedResult> run_isolated(std::vector<IsolatedJob> jobs,
                                         std::chrono::milliseconds deadline);

}  // namespace gpudoctor
