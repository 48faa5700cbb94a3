#include "decode_text.hpp"

#include <cstdint>

#include "json.hpp"
#include "json_pull.hpp"
#include "snapshot_io.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

constexpr std::uint32_t kReplacement = 0xFFFD;

/// UTF-16 code units (after the byte-order mark) as UTF-8.
std::string utf16_to_utf8(std::string_view units, bool big_endian) {
  std::string out;
  out.reserve(units.size() / 2 + units.size() / 8);
  const auto unit_at = [&](std::size_t i) -> std::uint32_t {
    const auto a = static_cast<unsigned char>(units[i]);
    const auto b = static_cast<unsigned char>(units[i + 1]);
    return big_endian ? (a << 8 | b) : (b << 8 | a);
  };
  std::size_t i = 0;
  for (; i + 1 < units.size(); i += 2) {
    const std::uint32_t u = unit_at(i);
    if (u >= 0xD800 && u <= 0xDBFF && i + 3 < units.size()) {
      const std::uint32_t low = unit_at(i + 2);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        append_utf8(out, 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00));
        i += 2;
        continue;
      }
    }
    append_utf8(out, (u >= 0xD800 && u <= 0xDFFF) ? kReplacement : u);
  }
  if (i < units.size()) append_utf8(out, kReplacement);  // an odd last byte
  return out;
}

/// A control byte that text does not hold (tab, line ends, form feed, ESC and backspace do).
bool binary_control(unsigned char c) {
  return (c >= 0x01 && c <= 0x08) || (c >= 0x0E && c <= 0x1A) || (c >= 0x1C && c <= 0x1F);
}

}  // namespace

DecodedText decode_text(std::string_view bytes) {
  DecodedText d;
  d.encoding = "UTF-8";
  std::string utf8;
  std::string_view in = bytes;
  if (starts_with(bytes, "\xFF\xFE") || starts_with(bytes, "\xFE\xFF")) {
    const bool big = bytes[0] == '\xFE';
    d.encoding = big ? "UTF-16BE" : "UTF-16LE";
    utf8 = utf16_to_utf8(bytes.substr(2), big);
    in = utf8;
    d.changed = true;
  } else if (starts_with(bytes, "\xEF\xBB\xBF")) {
    in = bytes.substr(3);
    d.changed = true;
  }
  std::size_t nuls = 0;
  std::size_t odd = 0;
  d.text.reserve(in.size());
  for (std::size_t i = 0; i < in.size();) {
    const auto c = static_cast<unsigned char>(in[i]);
    if (c == 0) {
      ++nuls;
      d.changed = true;
      ++i;
    } else if (c == '\r') {
      d.text += '\n';
      d.changed = true;
      i += (i + 1 < in.size() && in[i + 1] == '\n') ? 2 : 1;
    } else if (c < 0x80) {
      if (binary_control(c)) ++odd;
      d.text += static_cast<char>(c);
      ++i;
    } else {
      std::uint32_t cp = 0;
      const std::size_t len = utf8_at(in, i, cp);
      if (len == 0) ++odd;
      const std::size_t take = len == 0 ? 1 : len;
      d.text.append(in.substr(i, take));
      i += take;
    }
  }
  d.binary = (nuls >= 2 && nuls > in.size() / 4096) || (odd > 0 && odd * 16 > in.size());
  return d;
}

namespace {

/// A SAX handler that takes every event and notes where the parse failed.
struct ErrorAt : nlohmann::json_sax<Json> {
  std::size_t at = 0;
  bool failed = false;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception&) override {
    failed = true;
    at = position;
    return false;
  }
};

}  // namespace

namespace {

/// JSON as gpudoctor's own reader takes it: what nlohmann refuses only for its value (a number
/// past a double's range, 1e99999; a byte that is not UTF-8 in a string, read as U+FFFD; a
/// number of 5,000 digits, a nesting past 128: past a limit, not past the grammar) is still a
/// JSON document, whose problem is then said, never read as a paste with "nothing recognised".
bool json_pull_accepts(std::string_view text) {
  try {
    JsonLimits limits;
    limits.max_bytes = text.size();
    limits.max_depth = std::size_t{1} << 20;  // skip_value keeps a bit a level, not the stack
    JsonPull in(text, limits);
    in.skip_value();
    in.finish();
    return true;
  } catch (const JsonSyntaxError& e) {
    return std::string_view(e.what()).find("a number too long to be one") != std::string_view::npos;
  }
}

}  // namespace

bool is_json_document(std::string_view text) {
  return Json::accept(text.begin(), text.end()) || json_pull_accepts(text);
}

bool is_json_cut_short(std::string_view text) {
  ErrorAt sax;
  Json::sax_parse(text.begin(), text.end(), &sax);
  // nlohmann counts the position from 1 and reads one past the end before it fails there.
  return sax.failed && sax.at >= trim(text).size() && !trim(text).empty();
}

UserInput classify_user_input(std::string_view bytes) {
  UserInput u;
  u.decoded = decode_text(bytes);
  if (u.decoded.binary || trim(u.decoded.text).empty()) {
    u.kind = InputKind::binary;
  } else if (is_json_document(u.decoded.text) || is_json_cut_short(u.decoded.text)) {
    u.kind = InputKind::json;
  } else {
    u.kind = InputKind::text;
  }
  return u;
}

NotAReport read_not_a_report(std::string_view bytes, const std::string& name,
                             const std::string& problem) {
  NotAReport out;
  UserInput in = classify_user_input(bytes);
  if (in.kind == InputKind::text) {
    out.paste = std::move(in.decoded.text);
  } else if (in.kind == InputKind::json && in.decoded.changed) {
    auto again = snapshot_from_json_text(in.decoded.text);
    if (auto* snap = std::get_if<Snapshot>(&again)) {
      out.snapshot = std::move(*snap);
    } else {
      out.problem = name + ": " + std::get<std::string>(again);
    }
  } else {
    out.problem = problem;
  }
  return out;
}

}  // namespace gpudoctor
