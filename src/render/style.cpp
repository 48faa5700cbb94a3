#include "render/style.hpp"

namespace gpudoctor {

Style Style::for_stream(ColorMode mode, bool is_tty, const Environment& env) {
  if (mode == ColorMode::always) return Style(true);
  if (mode == ColorMode::never) return Style(false);
  if (env.get("NO_COLOR")) return Style(false);  // https://no-color.org: present means off
  if (env.get("TERM") == std::optional<std::string>("dumb")) return Style(false);
  return Style(is_tty);
}

std::string Style::wrap(const char* code, std::string_view s) const {
  if (!color_) return std::string(s);
  return std::string("\033[") + code + "m" + std::string(s) + "\033[0m";
}

}  // namespace gpudoctor
