#include "render/style.hpp"

#include <random>

#include "text.hpp"

namespace gpudoctor {

namespace {

/// 16 hex digits from the system's random source; empty (no colour) if it has none.
std::string random_key() {
  try {
    std::random_device device;
    const std::uint64_t v = (std::uint64_t{device()} << 32) | device();
    return hex(v, 16);
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace

Style::Style(bool color) : key_(color ? random_key() : "") {}

Style Style::for_stream(ColorMode mode, bool is_tty, const Environment& env) {
  if (mode == ColorMode::always) return Style(true);
  if (mode == ColorMode::never) return Style(false);
  if (env.get("NO_COLOR")) return Style(false);  // https://no-color.org: present means off
  if (env.get("TERM") == std::optional<std::string>("dumb")) return Style(false);
  return Style(is_tty);
}

std::string Style::wrap(const char* code, std::string_view s) const {
  if (key_.empty()) return std::string(s);
  const std::string esc = "\033" + key_ + "[";
  return esc + code + "m" + std::string(s) + esc + "0m";
}

}  // namespace gpudoctor
