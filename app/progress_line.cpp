#include "progress_line.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "render/style.hpp"
#include "render/terminal_text.hpp"
#include "terminal.hpp"

namespace gpudoctor {

namespace {

/// `s` cut to `width` columns, never inside a UTF-8 sequence.
std::string cut_to(const std::string& s, std::size_t width) {
  std::string out;
  std::size_t cols = 0;
  for (char c : s) {
    const bool starts = (static_cast<unsigned char>(c) & 0xc0) != 0x80;
    if (starts && ++cols > width) break;
    out += c;
  }
  return out;
}

void write_to_terminal(int fd, const std::string& s) {
  const char* p = s.data();
  std::size_t left = s.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a terminal gone away: the line is decoration, the run goes on
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

}  // namespace

std::optional<std::string> progress_text(const std::vector<RunningJob>& jobs,
                                         std::chrono::steady_clock::time_point now,
                                         std::size_t width, bool unicode) {
  const RunningJob* oldest = nullptr;
  std::size_t others = 0;
  for (const auto& j : jobs) {
    if (now - j.started < kProgressAfter) continue;
    if (oldest == nullptr || j.started < oldest->started) {
      if (oldest != nullptr) ++others;
      oldest = &j;
    } else {
      ++others;
    }
  }
  if (oldest == nullptr) return std::nullopt;
  const double seconds = std::chrono::duration<double>(now - oldest->started).count();
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "%.1f s", seconds);
  const char* ellipsis = unicode ? "…" : "...";
  std::string text = "waiting for " + terminal_text(oldest->backend, Style::plain(), true) +
                     ": " + terminal_text(oldest->label, Style::plain(), true) + " (" + elapsed +
                     ")";
  if (others > 0) text += " and " + std::to_string(others) + " more";
  text += ellipsis;
  if (width < 2) return text;
  if (display_width(text) > width - 1) {
    // The elapsed time is what moves: the label gives way to it.
    const std::string tail = std::string(" (") + elapsed + ")" +
                             (others > 0 ? " and " + std::to_string(others) + " more" : "") +
                             ellipsis;
    const std::size_t tail_w = display_width(tail);
    const std::size_t room = width - 1 > tail_w ? width - 1 - tail_w : 0;
    text = room > 0 ? cut_to(text.substr(0, text.size() - tail.size()), room) + tail
                    : cut_to(text, width - 1);
  }
  return text;
}

std::optional<ProgressLine> ProgressLine::on_stderr(const Environment& env) {
  if (::isatty(STDERR_FILENO) == 0) return std::nullopt;
  const Style style = Style::for_stream(ColorMode::never, true, env);
  const std::size_t width =
      terminal_columns(STDERR_FILENO).value_or(style.width().value_or(80));
  return ProgressLine(STDERR_FILENO, width, style.unicode());
}

ProgressLine::ProgressLine(int fd, std::size_t width, bool unicode)
    : fd_(fd), width_(width), unicode_(unicode) {}

ProgressLine::ProgressLine(ProgressLine&& other) noexcept
    : fd_(other.fd_), width_(other.width_), unicode_(other.unicode_),
      shown_(std::move(other.shown_)) {
  other.shown_.clear();
}

ProgressLine::~ProgressLine() { erase(); }

void ProgressLine::update(const std::vector<RunningJob>& jobs) {
  const auto text = progress_text(jobs, std::chrono::steady_clock::now(), width_, unicode_);
  if (!text) {
    erase();
    return;
  }
  if (*text != shown_) show(*text);
}

void ProgressLine::show(const std::string& text) {
  const std::size_t before = display_width(shown_);
  const std::size_t now = display_width(text);
  write_to_terminal(fd_, "\r" + text + (before > now ? std::string(before - now, ' ') : ""));
  shown_ = text;
}

void ProgressLine::erase() {
  if (shown_.empty()) return;
  write_to_terminal(fd_, "\r" + std::string(display_width(shown_), ' ') + "\r");
  shown_.clear();
}

}  // namespace gpudoctor
