#include "terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

namespace gpudoctor {

Style stdout_style(ColorMode mode, const Environment& env) {
  const bool tty = ::isatty(STDOUT_FILENO) != 0;
  const Style style = Style::for_stream(mode, tty, env);
  if (!tty) return style;
  if (const auto columns = terminal_columns(STDOUT_FILENO)) return style.with_width(*columns);
  return style;
}

std::optional<std::size_t> terminal_columns(int fd) {
  winsize ws{};
  if (::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return std::nullopt;
}

}  // namespace gpudoctor
