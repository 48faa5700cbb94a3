#pragma once
#include <string>
#include <string_view>

#include "environment.hpp"

namespace gpudoctor {

enum class ColorMode { automatic, always, never };

/// Terminal styling: colour only on a TTY, never with NO_COLOR, always with --color=always.
class Style {
 public:
  static Style for_stream(ColorMode mode, bool is_tty, const Environment& env);
  static Style plain() { return Style(false); }

  std::string bold(std::string_view s) const { return wrap("1", s); }
  std::string dim(std::string_view s) const { return wrap("2", s); }
  std::string green(std::string_view s) const { return wrap("32", s); }
  std::string yellow(std::string_view s) const { return wrap("33", s); }
  std::string red(std::string_view s) const { return wrap("31", s); }
  std::string cyan(std::string_view s) const { return wrap("36", s); }
  bool color() const { return color_; }

 private:
  explicit Style(bool color) : color_(color) {}
  std::string wrap(const char* code, std::string_view s) const;
  bool color_;
};

}  // namespace gpudoctor
