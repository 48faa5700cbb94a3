#pragma once
// Small pieces shared by the text renderers: labelled blocks and "known parts only" joins.
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "render/style.hpp"
#include "text.hpp"

namespace gpudoctor {

inline constexpr std::size_t kLabelWidth = 10;

/// Lines of one block: a label in the first column, continuation lines indented under it.
/// Empty values are not printed: what is unknown is left out of text, not shown as "N/A".
class Block {
 public:
  Block(std::ostringstream& os, const Style& style, int indent)
      : os_(os), style_(style), indent_(indent) {}

  void line(std::string_view label, const std::string& value) {
    if (value.empty()) return;
    std::string lab(label);
    if (lab.size() < kLabelWidth) lab.resize(kLabelWidth, ' ');
    os_ << std::string(static_cast<std::size_t>(indent_), ' ')
        << (label.empty() ? lab : style_.bold(lab)) << value << "\n";
  }
  void more(const std::string& value) { line("", value); }

 private:
  std::ostringstream& os_;
  const Style& style_;
  int indent_;
};

/// Joins the parts that are known, with " · ".
inline std::string dots(const std::vector<std::string>& parts) {
  std::vector<std::string> known;
  for (const auto& p : parts) {
    if (!p.empty()) known.push_back(p);
  }
  return join(known, " · ");
}

template <typename T>
std::string opt(const std::optional<T>& v, const std::string& prefix = "",
                const std::string& suffix = "") {
  if (!v) return "";
  std::ostringstream s;
  s << prefix << *v << suffix;
  return s.str();
}

inline std::string opt_bytes(const std::optional<std::uint64_t>& v, const std::string& prefix) {
  return v ? prefix + human_bytes(*v) : "";
}

inline std::string yes_no(const std::optional<bool>& v, const std::string& what) {
  if (!v) return "";
  return what + (*v ? " yes" : " no");
}

/// "1024×1024×64"
template <typename T>
std::string dims(const std::vector<T>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "×" : "") + std::to_string(v[i]);
  return s;
}

}  // namespace gpudoctor
