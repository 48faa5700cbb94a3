#include "compat/version.hpp"

#include <cctype>
#include <limits>

#include "text.hpp"

namespace gpudoctor {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// PEP 440 order of a suffix: dev < a < b < rc < none < post; the number after the letters
/// breaks ties ("rc1" < "rc2"). A bare number ("-39", a build number) sorts with post.
struct SuffixRank {
  int rank = 4;
  std::uint64_t number = 0;
};

SuffixRank suffix_rank(std::string_view s) {
  while (!s.empty() && (s.front() == '.' || s.front() == '-' || s.front() == '_'))
    s.remove_prefix(1);
  if (s.empty()) return {4, 0};
  std::size_t i = 0;
  while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
  std::string word = to_lower(s.substr(0, i));
  std::uint64_t number = parse_uint(s.substr(i)).value_or(0);
  if (word == "dev") return {0, number};
  if (word == "a" || word == "alpha") return {1, number};
  if (word == "b" || word == "beta") return {2, number};
  if (word == "post" || word == "r" || word == "rev" || word.empty()) return {5, number};
  return {3, number};  // rc, c, pre, preview and anything else: a pre-release
}

int compare_parts(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b,
                  std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t x = i < a.size() ? a[i] : 0;
    std::uint32_t y = i < b.size() ? b[i] : 0;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

std::optional<Version> version_after(std::string_view text, std::string_view prefix) {
  std::string lower = to_lower(text);
  std::size_t at = lower.find(prefix);
  if (at == std::string::npos) return std::nullopt;
  return parse_version(text.substr(at + prefix.size()));
}

}  // namespace

std::optional<Version> parse_version(std::string_view text) {
  text = trim(text);
  Version v;
  v.text = std::string(text);
  if (!text.empty() && (text.front() == 'v' || text.front() == 'V')) text.remove_prefix(1);
  std::size_t i = 0;
  while (true) {
    if (i >= text.size() || !is_digit(text[i])) return std::nullopt;
    std::uint64_t n = 0;
    while (i < text.size() && is_digit(text[i])) {
      n = n * 10 + static_cast<std::uint64_t>(text[i] - '0');
      if (n > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
      ++i;
    }
    v.parts.push_back(static_cast<std::uint32_t>(n));
    if (i + 1 < text.size() && text[i] == '.' && is_digit(text[i + 1])) {
      ++i;
      continue;
    }
    if (i < text.size() && text[i] == '.' && (i + 1 == text.size() || text[i + 1] == '.')) {
      return std::nullopt;  // "12." or "12..4"
    }
    break;
  }
  std::string_view rest = text.substr(i);
  std::size_t plus = rest.find('+');
  v.suffix = std::string(rest.substr(0, plus));
  if (plus != std::string_view::npos) v.local = std::string(rest.substr(plus + 1));
  for (char c : v.suffix) {
    if (std::isspace(static_cast<unsigned char>(c))) return std::nullopt;
  }
  return v;
}

int compare_versions(const Version& a, const Version& b) {
  std::size_t n = a.parts.size() > b.parts.size() ? a.parts.size() : b.parts.size();
  if (int c = compare_parts(a.parts, b.parts, n); c != 0) return c;
  if (a.suffix == b.suffix) return 0;
  SuffixRank x = suffix_rank(a.suffix);
  SuffixRank y = suffix_rank(b.suffix);
  if (x.rank != y.rank) return x.rank < y.rank ? -1 : 1;
  if (x.number != y.number) return x.number < y.number ? -1 : 1;
  return a.suffix < b.suffix ? -1 : (a.suffix > b.suffix ? 1 : 0);
}

int compare_to_bound(const Version& v, const Version& bound) {
  return compare_parts(v.parts, bound.parts, bound.parts.size());
}

bool operator==(const Version& a, const Version& b) { return compare_versions(a, b) == 0; }
bool operator!=(const Version& a, const Version& b) { return compare_versions(a, b) != 0; }
bool operator<(const Version& a, const Version& b) { return compare_versions(a, b) < 0; }
bool operator<=(const Version& a, const Version& b) { return compare_versions(a, b) <= 0; }
bool operator>(const Version& a, const Version& b) { return compare_versions(a, b) > 0; }
bool operator>=(const Version& a, const Version& b) { return compare_versions(a, b) >= 0; }

bool in_range(const Version& v, const VersionRange& range) {
  if (range.min && compare_to_bound(v, *range.min) < 0) return false;
  if (range.max && compare_to_bound(v, *range.max) > 0) return false;
  return true;
}

bool same_minor(const Version& a, const Version& b) {
  return compare_parts(a.parts, b.parts, 2) == 0;
}

std::string numeric_string(const Version& v) {
  std::string out;
  for (std::size_t i = 0; i < v.parts.size(); ++i) {
    if (i) out += '.';
    out += std::to_string(v.parts[i]);
  }
  return out;
}

std::optional<Version> cuda_version_from_tag(std::string_view tag) {
  std::string lower = to_lower(trim(tag));
  std::size_t at = lower.rfind("cu");
  if (at == std::string::npos) return std::nullopt;
  std::string digits;
  for (std::size_t i = at + 2; i < lower.size() && is_digit(lower[i]); ++i) digits += lower[i];
  std::size_t end = at + 2 + digits.size();
  if (digits.size() < 2 || digits.size() > 3 || end != lower.size()) return std::nullopt;
  return parse_version(digits.substr(0, digits.size() - 1) + "." + digits.back());
}

std::optional<Version> rocm_version_from_tag(std::string_view tag) {
  return version_after(tag, "rocm");
}

}  // namespace gpudoctor
