#pragma once
// What an isolated child's end means: its wait status, whether the parent killed it at its
// deadline, and the report it sent, turned into one IsolatedResult. Pure, so that every way a
// child can end (crashed, timed out, malformed, left behind) is told apart the same way however
// many end at once.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/isolate.hpp"
#include "model/not_examined.hpp"

namespace gpudoctor {

inline constexpr std::size_t kMaxReport = 64 << 20;  ///< a child sending more is broken
inline constexpr std::size_t kStderrTail = 2048;

struct ChildOutput {
  std::string report;  ///< the report pipe: progress lines, then the envelope
  std::string log;     ///< its stdout and stderr, the tail only
  int wait_status = 0;
  bool timed_out = false;  ///< the parent killed it at its deadline
  bool abandoned = false;  ///< killed, it did not die: stuck in the kernel, never reaped
  double seconds = 0;
  /// Killed because the run's deadline came (--deadline, this many ms), not its own.
  std::optional<std::chrono::milliseconds> cut_by_run_deadline;
  std::uint32_t fenced_total = 0;         ///< calls its signal fence refused
  std::vector<std::string> fenced_calls;  ///< the first of them, described
};

/// The outcome of a job the run's deadline (--deadline, `whole`) left unstarted.
IsolatedResult not_started_by_deadline(const IsolatedJob& job, std::chrono::milliseconds whole);


IsolatedResult result_of(const IsolatedJob& job, const ChildOutput& out,
                         std::chrono::milliseconds deadline);

}  // namespace gpudoctor
