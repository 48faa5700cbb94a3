#include "render/style.hpp"

#include <random>

#include "render/terminal_text.hpp"
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

bool force_color(const Environment& env) {
  if (env.get_nonempty("FORCE_COLOR")) return true;
  const auto cli = env.get_nonempty("CLICOLOR_FORCE");
  return cli && *cli != "0";
}

}  // namespace

bool locale_is_utf8(std::string_view name) {
  const std::string lower = to_lower(name);
  return lower.find("utf-8") != std::string::npos || lower.find("utf8") != std::string::npos;
}

std::size_t display_width(std::string_view s) {
  std::size_t n = 0;
  for (const char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

Style::Style(bool color) : key_(color ? random_key() : "") {}

Style Style::for_stream(ColorMode mode, bool is_tty, const Environment& env) {
  bool color = is_tty;
  if (mode == ColorMode::always) {
    color = true;
  } else if (mode == ColorMode::never || env.get_nonempty("NO_COLOR")) {
    color = false;  // NO_COLOR= (empty) does not count: https://no-color.org
  } else if (force_color(env)) {
    color = true;
  } else if (env.get("TERM") == std::optional<std::string>("dumb")) {
    color = false;
  }
  Style s(color);
  // POSIX: LC_ALL overrides LC_CTYPE overrides LANG; none set is the C locale, ASCII.
  std::optional<std::string> ctype = env.get_nonempty("LC_ALL");
  if (!ctype) ctype = env.get_nonempty("LC_CTYPE");
  if (!ctype) ctype = env.get_nonempty("LANG");
  s.unicode_ = ctype && locale_is_utf8(*ctype);
  if (is_tty) {
    const auto columns = parse_uint(env.get_nonempty("COLUMNS").value_or(""));
    s.width_ = columns && *columns >= 20 && *columns <= 1000 ? *columns : 80;
  }
  return s;
}

std::string Style::fill(std::string_view given, std::size_t column, std::size_t indent) const {
  // Measured as the terminal will show it: in ASCII where the locale is not UTF-8.
  const std::string ascii = unicode_ ? std::string() : ascii_fallback(given);
  const std::string_view text = unicode_ ? given : std::string_view(ascii);
  if (!width_) return std::string(text);
  std::string out;
  std::size_t at = column;
  bool line_empty = true;
  for (const auto& word : split_words(text, " ")) {
    const std::size_t w = display_width(word);
    if (!line_empty && at + 1 + w > *width_) {
      out += "\n" + std::string(indent, ' ');
      at = indent;
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++at;
    }
    out += word;
    at += w;
    line_empty = false;
  }
  return out;
}

std::string Style::wrap(const char* code, std::string_view s) const {
  if (key_.empty()) return std::string(s);
  const std::string esc = "\033" + key_ + "[";
  return esc + code + "m" + std::string(s) + esc + "0m";
}

}  // namespace gpudoctor
