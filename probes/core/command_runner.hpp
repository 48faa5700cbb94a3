#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace gpudoctor {

/// What a command left behind: its standard output, how it ended, or why it could not run.
struct CommandOutput {
  std::optional<int> exit_code;      ///< nullopt when it did not exit by itself
  std::string out;                   ///< standard output (standard error is discarded)
  bool timed_out = false;            ///< killed at the deadline
  std::optional<std::string> error;  ///< "exec /usr/sbin/sysctl: No such file or directory"
};

/// Runs a system tool (system_profiler, sysctl, sw_vers) for a probe. It is a parameter of the
/// probes that need one, so that tests can hand them a fake with recorded outputs.
class CommandRunner {
 public:
  virtual ~CommandRunner() = default;
  /// argv[0] is an absolute path (no PATH search: a probe must not run whatever PATH names).
  /// `env` entries ("NAME=value") are added to this process's environment, replacing a
  /// variable of the same name.
  virtual CommandOutput run(const std::vector<std::string>& argv,
                            const std::vector<std::string>& env,
                            std::chrono::milliseconds deadline) const = 0;
};

/// The real one: a guarded child (core/child_guard.hpp) that executes the command, standard
/// input and error on /dev/null, standard output read until the command exits (a helper it
/// left holding the pipe is killed, not waited for) or the deadline passes (then it is killed
/// with its process group); at most 8 MiB kept.
class SpawnRunner : public CommandRunner {
 public:
  CommandOutput run(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                    std::chrono::milliseconds deadline) const override;
};

}  // namespace gpudoctor
