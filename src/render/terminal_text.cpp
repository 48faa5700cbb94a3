#include "render/terminal_text.hpp"

#include <cstdint>

#include "text.hpp"

namespace gpudoctor {

namespace {

void escape_byte(std::string& out, unsigned char c) {
  switch (c) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: out += "\\x" + hex(c, 2); return;
  }
}

}  // namespace

std::string terminal_text(std::string_view text, const Style& style, bool one_line) {
  std::string out;
  out.reserve(text.size());
  const std::string& key = style.key();
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0x1B && !key.empty() && text.compare(i + 1, key.size(), key) == 0) {
      out += '\x1b';  // Style's own sequence: the key goes, the escape stays
      i += 1 + key.size();
    } else if (c == '\n' || c == '\t') {
      if (one_line) {
        escape_byte(out, c);
      } else {
        out += static_cast<char>(c);
      }
      ++i;
    } else if (c < 0x20 || c == 0x7F) {
      escape_byte(out, c);
      ++i;
    } else if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
    } else {
      std::uint32_t cp = 0;
      const std::size_t len = utf8_at(text, i, cp);
      if (len == 0) {
        escape_byte(out, c);
        ++i;
      } else if (hidden_code_point(cp)) {
        out += "\\u" + hex(cp, 4);
        i += len;
      } else {
        out.append(text.substr(i, len));
        i += len;
      }
    }
  }
  return out;
}

std::string single_line(std::string_view field) {
  return terminal_text(field, Style::plain(), true);
}

}  // namespace gpudoctor
