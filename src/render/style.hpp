#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "environment.hpp"

namespace gpudoctor {

enum class ColorMode { automatic, always, never };

/// Terminal styling: colour only on a TTY, never with NO_COLOR, always with --color=always;
/// ASCII marks where the locale is not UTF-8; a width to wrap at on a terminal only.
/// A coloured style writes its escape sequences with a private key after the ESC, drawn when
/// the style is made; terminal_text (render/terminal_text.hpp) keeps only sequences that carry
/// it, so an ESC inside an outside string can never pass for one of ours.
class Style {
 public:
  /// Colour: --color always/never; else NO_COLOR (set and not empty, https://no-color.org)
  /// off; else FORCE_COLOR (set and not empty, https://force-color.org) or CLICOLOR_FORCE
  /// (set and not 0, https://bixense.com/clicolors/) on; else TERM=dumb off; else a TTY.
  /// Marks: Unicode when the locale (the first set of LC_ALL, LC_CTYPE, LANG) says UTF-8.
  /// Width: on a TTY, COLUMNS, else 80 (the caller may know better: with_width).
  static Style for_stream(ColorMode mode, bool is_tty, const Environment& env);
  static Style plain() { return Style(false); }
  Style with_width(std::optional<std::size_t> columns) const {
    Style s = *this;
    s.width_ = columns;
    return s;
  }
  Style with_unicode(bool unicode) const {
    Style s = *this;
    s.unicode_ = unicode;
    return s;
  }

  std::string bold(std::string_view s) const { return wrap("1", s); }
  std::string dim(std::string_view s) const { return wrap("2", s); }
  std::string green(std::string_view s) const { return wrap("32", s); }
  std::string yellow(std::string_view s) const { return wrap("33", s); }
  std::string red(std::string_view s) const { return wrap("31", s); }
  std::string cyan(std::string_view s) const { return wrap("36", s); }
  bool color() const { return !key_.empty(); }
  /// What follows ESC in this style's sequences before "[": empty when it has no colour.
  const std::string& key() const { return key_; }
  bool unicode() const { return unicode_; }
  /// Columns to wrap at; nullopt: never wrap (not a terminal).
  std::optional<std::size_t> width() const { return width_; }

  /// `text` broken into lines at spaces so that none passes width(): the first line starts at
  /// column `column`, the others are indented by `indent`. A word longer than a line (a path,
  /// a URL) stays whole. No trailing newline.
  std::string fill(std::string_view text, std::size_t column, std::size_t indent) const;

 private:
  explicit Style(bool color);
  std::string wrap(const char* code, std::string_view s) const;
  std::string key_;
  bool unicode_ = true;
  std::optional<std::size_t> width_;
};

/// Whether a locale name (LANG's value) names UTF-8: "en_US.UTF-8", "C.utf8".
bool locale_is_utf8(std::string_view name);

/// Columns a string takes on a terminal: its UTF-8 code points (gpudoctor's marks and names
/// are narrow).
std::size_t display_width(std::string_view s);

}  // namespace gpudoctor
