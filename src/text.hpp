#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

std::string_view trim(std::string_view s);
bool starts_with(std::string_view s, std::string_view prefix);
bool ends_with(std::string_view s, std::string_view suffix);
std::vector<std::string_view> split_lines(std::string_view text);
std::vector<std::string> split_words(std::string_view text, std::string_view seps = " \t");
std::string to_lower(std::string_view s);

/// Whole-string integer parse, base 0 (accepts 0x…); nullopt on any junk.
std::optional<std::uint64_t> parse_uint(std::string_view s);
std::optional<std::int64_t> parse_int(std::string_view s);
std::optional<double> parse_double(std::string_view s);

/// "1.3.239" style from packed parts.
std::string join(const std::vector<std::string>& parts, std::string_view sep);

/// "1 GPU", "3 GPUs": a count and its noun, with an English "s" where it is not one.
std::string plural(std::size_t n, std::string_view word);
std::string hex(std::uint64_t v, int width);
/// The spaces and tabs a line starts with.
std::size_t indent_of(std::string_view s);
/// Bytes as "80 GiB" / "512 MiB".
std::string human_bytes(std::uint64_t bytes);
/// Text for HTML or XML (SVG), in content or a quoted attribute: & < > " ' escaped, and the
/// control characters XML 1.0 forbids even escaped dropped (tab and newline stay).
std::string markup_escape(std::string_view text);

/// Code points a terminal acts on or that reorder what it shows: the C1 controls, the
/// bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) and the line
/// and paragraph separators.
bool hidden_code_point(std::uint32_t cp);
/// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629), setting `cp` to its code
/// point; 0 when the byte there starts none.
std::size_t utf8_at(std::string_view s, std::size_t i, std::uint32_t& cp);
/// Serialised JSON (valid UTF-8) with DEL and each hidden code point written as "\uXXXX":
/// the same document, since these only stand inside strings, but `cat report.json` on a
/// terminal no longer reverses or hides text. JSON's own escaping covers C0 controls only.
std::string escape_hidden_in_json(std::string json);

}  // namespace gpudoctor
