#pragma once
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/isolate.hpp"
#include "environment.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {

struct CollectRequest {
  std::vector<std::string> backends;      ///< names from all_backends(); empty means all
  std::filesystem::path root = "/";
  std::chrono::milliseconds timeout{5000};
  /// The whole run's deadline (--deadline), counted from `started`: no isolated probe starts
  /// after it and a running one is stopped at it, reported as "not examined: deadline" so that
  /// the checks still give a verdict on what was examined in time. None: the run budget of
  /// IsolatedRun::run_budget only.
  std::optional<std::chrono::milliseconds> deadline;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::string tool_version;
  std::vector<std::string> python_env_dirs;  ///< --python-env DIR, as paths on the target
  bool smoke = false;  ///< run the smoke matmul on every device (ProbeContext::smoke)
  /// False under --sysroot, even `--sysroot /`: files only, no vendor library is loaded and no
  /// vendor tool is run (ProbeContext::live).
  bool live = true;
  /// Hears what the isolated probes still wait for (a progress line on a terminal); may be empty.
  RunProgress progress;
};

/// Runs the probes and returns what they found. Must be called while the process is single
/// threaded: the isolated children are forked first.
Snapshot collect(const CollectRequest& request, const Environment& env);

}  // namespace gpudoctor
