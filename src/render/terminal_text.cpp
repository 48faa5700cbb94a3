#include "render/terminal_text.hpp"

#include <cstdint>

#include "text.hpp"

namespace gpudoctor {

namespace {

/// Code points shown as "\uXXXX": C1 controls, and those that reorder or break lines.
bool hidden_code_point(std::uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F || cp == 0x061C ||
         cp == 0x2028 || cp == 0x2029;
}

/// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629) and its code point; 0 when
/// the byte there starts none.
std::size_t utf8_at(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char lead = b(0);
  std::size_t len = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    len = 2;
    cp = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    len = 3;
    cp = lead & 0x0F;
    if (lead == 0xE0) lo = 0xA0;
    if (lead == 0xED) hi = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    len = 4;
    cp = lead & 0x07;
    if (lead == 0xF0) lo = 0x90;
    if (lead == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if (b(k) < lo || b(k) > hi) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
    lo = 0x80;
    hi = 0xBF;
  }
  return len;
}

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

}  // namespace gpudoctor
