#pragma once
// What `check` and `query` wait for, on a terminal: one line on standard error, rewritten in
// place while an isolated probe has been running for over a second, erased when the wait is
// over, and never written when standard error is not a terminal (a log, a pipe, CI).
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/isolate.hpp"
#include "environment.hpp"

namespace gpudoctor {

/// A probe shows up once it has run this long: most finish well before, and a line that
/// flickers for every quick driver says nothing.
inline constexpr std::chrono::milliseconds kProgressAfter{1000};

/// "waiting for vulkan: lvp_icd.x86_64.json (2.1 s)…", "… (2.1 s) and 2 more…": the oldest job
/// that has run at least kProgressAfter, and how many others have too; nullopt when none has.
/// The label is a driver's, so it goes through terminal_text; the line is cut to `width` − 1
/// columns so that it never wraps (a wrapped line cannot be rewritten by a carriage return).
/// `unicode` false: "..." for "…".
std::optional<std::string> progress_text(const std::vector<RunningJob>& jobs,
                                         std::chrono::steady_clock::time_point now,
                                         std::size_t width, bool unicode);

/// Draws progress_text on a terminal's descriptor: each line replaces the one before it
/// (carriage return, the text, spaces over what is left of a longer one) and nothing is left
/// behind when told that nothing runs. Plain characters only: no escape sequence, so a terminal
/// with TERM=dumb shows it as well.
class ProgressLine {
 public:
  /// On standard error when it is a terminal; nullopt otherwise.
  static std::optional<ProgressLine> on_stderr(const Environment& env);
  ProgressLine(int fd, std::size_t width, bool unicode);
  ProgressLine(ProgressLine&& other) noexcept;
  ProgressLine& operator=(ProgressLine&&) = delete;
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine();  ///< erases what is still shown

  void update(const std::vector<RunningJob>& jobs);
  void erase();

 private:
  void show(const std::string& text);
  int fd_;
  std::size_t width_;
  bool unicode_;
  std::string shown_;  ///< what the line holds now; empty: nothing drawn
};

}  // namespace gpudoctor
