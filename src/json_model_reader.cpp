#include "json_model_reader.hpp"

namespace gpudoctor {

namespace {

/// A member name as a JSON pointer token (RFC 6901): '~' → "~0", '/' → "~1".
std::string pointer_token(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

bool JsonModelReader::expect(JsonKind kind) {
  const JsonKind found = in_.peek();
  if (found == kind) return true;
  problem(std::string("holds ") + json_kind_text(found) + " where " + json_kind_text(kind) +
          " belongs");
  in_.skip_value();
  return false;
}

void JsonModelReader::problem(std::string why) {
  if (problem_) return;
  std::string pointer;
  for (const Step& s : path_) {
    pointer += "/" + (s.name != nullptr ? pointer_token(s.name) : std::to_string(s.index));
  }
  problem_ = JsonReadProblem{pointer.empty() ? "/" : pointer, std::move(why)};
}

void JsonModelReader::read_double(double& out) {
  const JsonNumber n = in_.read_number();
  double value = 0;
  const char* first = n.text.data();
  const char* last = first + n.text.size();
  const auto [end, ec] = std::from_chars(first, last, value);
  if (ec == std::errc::result_out_of_range && end == last &&
      (n.text.find("e-") != std::string_view::npos || n.text.find("E-") != std::string_view::npos)) {
    value = 0;  // too small for a double: 0, as strtod and Python's json read it
  } else if (ec != std::errc() || end != last) {
    return problem("holds " + std::string(n.text) + ", out of a double's range");
  }
  out = value;
}

}  // namespace gpudoctor
