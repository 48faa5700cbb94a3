#include "terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

namespace gpudoctor {

Style stdout_style(ColorMode mode, const Environment& env) {
  const bool tty = ::isatty(STDOUT_FILENO) != 0;
  const Style style = Style::for_stream(mode, tty, env);
  winsize ws{};
  if (tty && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
    return style.with_width(ws.ws_col);
  }
  return style;
}

}  // namespace gpudoctor
