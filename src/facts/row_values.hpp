#pragma once
// Building rows of facts from optional fields: what is unknown is left out, never "N/A".
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "facts/facts.hpp"
#include "text.hpp"

namespace gpudoctor::facts {

class RowValues {
 public:
  /// A part that is only text; nothing when `text` is empty.
  RowValues& text(std::string key, std::string text) {
    if (!text.empty()) parts_.push_back({std::move(key), std::move(text), std::nullopt, ""});
    return *this;
  }
  /// prefix + value + suffix; a number keeps its value (in `unit`) for metrics.
  template <typename T>
  RowValues& opt(std::string key, const std::optional<T>& v, const std::string& prefix = "",
                 const std::string& suffix = "", std::string unit = "") {
    if (!v) return *this;
    std::ostringstream s;
    s << prefix << *v << suffix;
    std::optional<double> n;
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) n = static_cast<double>(*v);
    parts_.push_back({std::move(key), s.str(), n, std::move(unit)});
    return *this;
  }
  /// prefix + "16 GiB", in bytes.
  RowValues& bytes(std::string key, const std::optional<std::uint64_t>& v,
                   const std::string& prefix) {
    if (v) parts_.push_back({std::move(key), prefix + human_bytes(*v), double(*v), "bytes"});
    return *this;
  }
  /// "fp16 yes" / "fp16 no".
  RowValues& yes_no(std::string key, const std::optional<bool>& v, const std::string& what) {
    if (v) parts_.push_back({std::move(key), what + (*v ? " yes" : " no"), *v ? 1.0 : 0.0, ""});
    return *this;
  }
  /// A part with its own text and number.
  RowValues& number(std::string key, std::string text, double n, std::string unit) {
    parts_.push_back({std::move(key), std::move(text), n, std::move(unit)});
    return *this;
  }
  bool empty() const { return parts_.empty(); }
  std::vector<Part> take() { return std::move(parts_); }

 private:
  std::vector<Part> parts_;
};

/// A row with a label in the first column; nothing is added when it has no part.
inline void add_row(std::vector<Row>& rows, std::string label, RowValues parts,
                    std::string note = "") {
  if (parts.empty()) return;
  Row r;
  r.label = std::move(label);
  r.parts = parts.take();
  r.note = std::move(note);
  rows.push_back(std::move(r));
}

/// A row of a list (an ICD, a toolkit, an environment), printed without the label column.
inline void add_item(std::vector<Row>& rows, RowValues parts, std::string note = "",
                     int depth = 0) {
  if (parts.empty()) return;
  Row r;
  r.parts = parts.take();
  r.note = std::move(note);
  r.list = true;
  r.depth = depth;
  rows.push_back(std::move(r));
}

/// "1024×1024×64"
template <typename T>
std::string dims(const std::vector<T>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "×" : "") + std::to_string(v[i]);
  return s;
}

/// The known parts joined with " · ".
inline std::string join_known(const std::vector<std::string>& parts) {
  std::vector<std::string> known;
  for (const auto& p : parts) {
    if (!p.empty()) known.push_back(p);
  }
  return join(known, " · ");
}

/// The value, or "" when unknown.
inline std::string opt_text(const std::optional<std::string>& v) { return v.value_or(""); }

/// The text, or nullopt when it is empty.
inline std::optional<std::string> nonempty(std::string s) {
  if (s.empty()) return std::nullopt;
  return s;
}

}  // namespace gpudoctor::facts
