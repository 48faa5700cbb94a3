#include "parse/c_headers.hpp"

#include <cctype>
#include <string>

namespace gpudoctor {

namespace {

bool c_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::optional<bool> cuda_cospi_has_exception_spec(std::string_view h) {
  constexpr std::string_view kName = "cospi(";
  for (std::size_t at = h.find(kName); at != std::string_view::npos;
       at = h.find(kName, at + kName.size())) {
    if (at > 0 && c_ident_char(h[at - 1])) continue;  // sincospi(, __cospi(
    const std::size_t line_start = h.rfind('\n', at) == std::string_view::npos ? 0 : h.rfind('\n', at) + 1;
    const std::size_t line_end = h.find('\n', at);
    const std::string_view line = h.substr(line_start, line_end == std::string_view::npos
                                                           ? std::string_view::npos
                                                           : line_end - line_start);
    // The device-and-host declaration: "extern __DEVICE_FUNCTIONS_DECL__ __device_builtin__
    // double cospi(double x) …;", not the comment lines that name it nor the float overloads.
    if (line.find("extern") == std::string_view::npos ||
        line.find("double") == std::string_view::npos ||
        line.find("__device_builtin__") == std::string_view::npos) {
      continue;
    }
    const std::size_t close = line.find(')', at - line_start);
    const std::size_t semi = line.find(';', at - line_start);
    if (close == std::string_view::npos || semi == std::string_view::npos || semi < close) continue;
    for (std::size_t i = close + 1; i < semi; ++i) {
      if (!std::isspace(static_cast<unsigned char>(line[i]))) return true;
    }
    return false;
  }
  return std::nullopt;
}

bool glibc_declares_cospi(std::string_view h) {
  // __MATHCALL_VEC (cospi,, (_Mdouble_ __x)); in glibc 2.41's C23 block.
  for (std::size_t at = h.find("cospi"); at != std::string_view::npos; at = h.find("cospi", at + 5)) {
    if (at > 0 && c_ident_char(h[at - 1])) continue;
    std::size_t i = at + 5;
    while (i < h.size() && h[i] == ' ') ++i;
    if (i < h.size() && h[i] == ',') {
      std::size_t j = at;
      while (j > 0 && h[j - 1] == ' ') --j;
      if (j > 0 && h[j - 1] == '(') return true;
    }
  }
  return false;
}

}  // namespace gpudoctor
