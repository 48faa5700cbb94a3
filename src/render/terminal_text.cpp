#include "render/terminal_text.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

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

/// gpudoctor's own glyphs, and the few a driver's or a package's text commonly has, in ASCII.
const char* ascii_glyph(std::uint32_t cp) {
  switch (cp) {
    case 0x2713: case 0x2714: return "+";    // ✓ ✔
    case 0x2717: case 0x2718: return "x";    // ✗ ✘
    case 0x2022: case 0x00B7: case 0x2219: return "-";  // • · ∙
    case 0x2026: return "...";                // …
    case 0x2192: return "->";                 // →
    case 0x2190: return "<-";                 // ←
    case 0x2194: return "<->";                // ↔
    case 0x00D7: return "x";                  // ×
    case 0x2013: case 0x2212: case 0x2500: return "-";  // – − ─
    case 0x2014: return "--";                 // —
    case 0x2265: return ">=";                 // ≥
    case 0x2264: return "<=";                 // ≤
    case 0x2248: return "~";                  // ≈
    case 0x00B5: case 0x03BC: return "u";     // µ μ
    case 0x00B0: return "deg";                // °
    case 0x2018: case 0x2019: return "'";     // ‘ ’
    case 0x201C: case 0x201D: return "\"";   // “ ”
    case 0x2502: return "|";                  // │
    case 0x26A0: return "!";                  // ⚠
    case 0x00A0: return " ";                  // no-break space
    case 0x2122: return "(TM)";               // ™
    case 0x00AE: return "(R)";                // ®
    case 0x00A9: return "(C)";                // ©
    default: return "?";
  }
}

}  // namespace

std::string ascii_fallback(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::uint32_t cp = 0;
    const std::size_t len = c < 0x80 ? 0 : utf8_at(text, i, cp);
    if (len == 0 || hidden_code_point(cp)) {  // ASCII, or for terminal_text to show
      const std::size_t n = len == 0 ? 1 : len;
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    out += ascii_glyph(cp);
    i += len;
  }
  return out;
}

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
      } else if (!style.unicode()) {
        out += ascii_glyph(cp);
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

namespace {

/// The code points of one line, each with the columns it takes (0 for a colour sequence).
struct FitPiece {
  std::string bytes;
  std::size_t columns;
};

std::vector<FitPiece> fit_pieces(std::string_view line) {
  std::vector<FitPiece> out;
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
      const auto end = line.find('m', i);
      const std::size_t n = end == std::string_view::npos ? line.size() - i : end + 1 - i;
      out.push_back({std::string(line.substr(i, n)), 0});
      i += n;
      continue;
    }
    std::size_t n = 1;
    while (i + n < line.size() && (static_cast<unsigned char>(line[i + n]) & 0xC0) == 0x80) ++n;
    out.push_back({std::string(line.substr(i, n)), 1});
    i += n;
  }
  return out;
}

/// Where a line's continuation starts: under its value when it is "  label   value" with the
/// value before the middle of the line, else four columns in from its own indent.
std::size_t fit_indent(const std::vector<FitPiece>& p, std::size_t width) {
  std::size_t col = 0, i = 0;
  while (i < p.size() && (p[i].bytes == " " || p[i].columns == 0)) col += p[i++].columns;
  const std::size_t own = col;
  bool seen_text = false;
  for (; i + 1 < p.size() && col < width / 2; ++i) {
    if (p[i].bytes == " " && p[i + 1].bytes == " " && seen_text) {
      while (i < p.size() && (p[i].bytes == " " || p[i].columns == 0)) col += p[i++].columns;
      return col < width / 2 ? col : own + 4;
    }
    seen_text = seen_text || p[i].bytes != " ";
    col += p[i].columns;
  }
  return std::min(own + 4, width / 2);
}

void fit_line(std::string& out, std::string_view line, std::size_t width) {
  const auto pieces = fit_pieces(line);
  std::size_t total = 0;
  for (const auto& p : pieces) total += p.columns;
  if (total <= width) {
    out.append(line);
    return;
  }
  const std::size_t indent = fit_indent(pieces, width);
  std::size_t col = 0;
  std::size_t i = 0;
  while (i < pieces.size()) {
    // The next word (with the spaces before it) and its columns.
    std::size_t j = i, word = 0;
    while (j < pieces.size() && pieces[j].bytes == " ") word += pieces[j++].columns;
    const std::size_t spaces = word;
    while (j < pieces.size() && pieces[j].bytes != " ") word += pieces[j++].columns;
    if (col + word <= width) {
      for (; i < j; ++i) out += pieces[i].bytes;
      col += word;
      continue;
    }
    if (spaces == word) break;  // trailing spaces past the edge
    const std::size_t letters = word - spaces;
    if (col > indent && letters <= width - indent) {  // the word on a line of its own
      out += "\n" + std::string(indent, ' ');
      col = indent;
      while (i < pieces.size() && pieces[i].bytes == " ") ++i;
      continue;
    }
    // A word wider than a line: as much of it as fits, the rest on the next.
    for (; i < j; ++i) {
      if (col + pieces[i].columns > width) {
        out += "\n" + std::string(indent, ' ');
        col = indent;
        if (pieces[i].bytes == " ") continue;
      }
      out += pieces[i].bytes;
      col += pieces[i].columns;
    }
  }
}

}  // namespace

std::string fit_width(std::string_view text, std::size_t width) {
  if (width < 20) return std::string(text);
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    const auto line = text.substr(start, end == std::string_view::npos ? text.size() - start : end - start);
    fit_line(out, line, width);
    if (end == std::string_view::npos) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace gpudoctor
