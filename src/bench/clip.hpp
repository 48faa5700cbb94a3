#pragma once
// Device names are long ("pthread-haswell-AMD EPYC 7B13 64-Core Processor"); the table and the
// plot's legend have a fixed width.
#include <algorithm>
#include <cstddef>
#include <string>

namespace gpudoctor::bench {

/// Display width, each UTF-8 sequence one column.
inline std::size_t columns(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xc0) != 0x80; }));
}

/// `s` cut to at most `width` columns, ending in "…" when cut; never inside a UTF-8 sequence.
inline std::string clip(const std::string& s, std::size_t width) {
  if (columns(s) <= width || width == 0) return s;
  std::string cut;
  std::size_t cols = 0;
  for (char c : s) {
    const bool starts = (c & 0xc0) != 0x80;
    if (starts && ++cols > width - 1) break;
    cut += c;
  }
  return cut + "…";
}

}  // namespace gpudoctor::bench
