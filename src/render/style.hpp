#pragma once
#include <string>
#include <string_view>

#include "environment.hpp"

namespace gpudoctor {

enum class ColorMode { automatic, always, never };

/// Terminal styling: colour only on a TTY, never with NO_COLOR, always with --color=always.
/// A coloured style writes its escape sequences with a private key after the ESC, drawn when
/// the style is made; terminal_text (render/terminal_text.hpp) keeps only sequences that carry
/// it, so an ESC inside an outside string can never pass for one of ours.
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
  bool color() const { return !key_.empty(); }
  /// What follows ESC in this style's sequences before "[": empty when it has no colour.
  const std::string& key() const { return key_; }

 private:
  explicit Style(bool color);
  std::string wrap(const char* code, std::string_view s) const;
  std::string key_;
};

}  // namespace gpudoctor
