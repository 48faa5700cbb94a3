#pragma once
// What every fuzz target shares: the input as text, and a way to split it into two inputs
// for parsers that take two (a file and the name or value they are matched against).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

namespace gpudoctor::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// The first line, and everything after it: seeds put the short argument (a modalias, a
/// module name) first and the file after it.
inline std::pair<std::string_view, std::string_view> first_line_and_rest(std::string_view text) {
  const std::size_t nl = text.find('\n');
  if (nl == std::string_view::npos) return {text, {}};
  return {text.substr(0, nl), text.substr(nl + 1)};
}

}  // namespace gpudoctor::fuzz
