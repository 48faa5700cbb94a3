#include "fleet/hostlist.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>

namespace gpudoctor {

namespace {

bool hostlist_digit(char c) { return c >= '0' && c <= '9'; }

int digit_count(std::uint64_t n) {
  int d = 1;
  while (n >= 10) {
    n /= 10;
    ++d;
  }
  return d;
}

struct Host {
  std::string_view prefix;  ///< the whole name when it has no number
  std::optional<std::uint64_t> number;
  int width = 0;  ///< digits as written: "007" is 3
  bool padded() const { return number && width > digit_count(*number); }
};

Host parse_host(std::string_view name) {
  Host h;
  h.prefix = name;
  std::size_t start = name.size();
  while (start > 0 && hostlist_digit(name[start - 1])) --start;
  const std::size_t digits = name.size() - start;
  if (digits == 0) return h;
  std::uint64_t n = 0;
  for (std::size_t i = start; i < name.size(); ++i) {
    const auto d = static_cast<std::uint64_t>(name[i] - '0');
    if (n > (UINT64_MAX - d) / 10) return h;  // past 64 bits: a name without a number, as in Slurm
    n = n * 10 + d;
  }
  h.prefix = name.substr(0, start);
  h.number = n;
  h.width = static_cast<int>(digits);
  return h;
}

/// Numbers of one prefix in one run "lo-hi", printed with one zero-padded width.
struct Range {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  std::optional<int> padded_width;  ///< every zero-padded member has this width
  int min_plain_digits = INT_MAX;   ///< the shortest member written without padding

  int width() const { return padded_width.value_or(min_plain_digits); }

  /// Printing `h` with this range's width gives back its name: a padded number needs exactly
  /// its width, a plain one any width up to its digit count.
  bool fits(const Host& h) const {
    if (h.padded()) {
      return (!padded_width || *padded_width == h.width) && min_plain_digits >= h.width;
    }
    return !padded_width || h.width >= *padded_width;
  }

  void add(const Host& h) {
    hi = *h.number;
    if (h.padded()) {
      padded_width = h.width;
    } else {
      min_plain_digits = std::min(min_plain_digits, h.width);
    }
  }
};

std::string padded(std::uint64_t n, int width) {
  std::string s = std::to_string(n);
  if (static_cast<int>(s.size()) < width) s.insert(0, width - s.size(), '0');
  return s;
}

std::string range_text(const Range& r) {
  return padded(r.lo, r.width()) + (r.hi > r.lo ? "-" + padded(r.hi, r.width()) : "");
}

/// Slurm's order: prefixes naturally, a bare name before numbered ones of the same prefix,
/// then by written width and number.
bool host_less(const Host& a, const Host& b) {
  if (a.prefix != b.prefix) return natural_less(a.prefix, b.prefix);
  if (a.number.has_value() != b.number.has_value()) return !a.number.has_value();
  if (!a.number) return false;
  if (a.width != b.width) return a.width < b.width;
  return *a.number < *b.number;
}

}  // namespace

bool valid_node_name(std::string_view name) {
  constexpr std::size_t kMaxHostName = 253;  // RFC 1123 §2.1, RFC 1035 §2.3.4
  if (name.empty() || name.size() > kMaxHostName) return false;
  const auto alnum = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  if (!alnum(name[0])) return false;
  for (char c : name) {
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

bool natural_less(std::string_view a, std::string_view b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (hostlist_digit(a[i]) && hostlist_digit(b[j])) {
      std::size_t ie = i;
      std::size_t je = j;
      while (ie < a.size() && hostlist_digit(a[ie])) ++ie;
      while (je < b.size() && hostlist_digit(b[je])) ++je;
      const std::string_view na = a.substr(i, ie - i);
      const std::string_view nb = b.substr(j, je - j);
      if (na != nb) {
        // As strnatcmp, which Slurm sorts prefixes with: a run with a leading zero compares
        // digit by digit ("01" before "1"), others by value ("2" before "10").
        if (na[0] == '0' || nb[0] == '0' || na.size() == nb.size()) return na < nb;
        return na.size() < nb.size();
      }
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

std::string compress_hostlist(const std::vector<std::string>& names) {
  return compress_hostlist(std::vector<std::string_view>(names.begin(), names.end()));
}

std::string compress_hostlist(const std::vector<std::string_view>& names) {
  std::vector<Host> hosts;
  hosts.reserve(names.size());
  for (const auto& n : names) {
    if (valid_node_name(n)) hosts.push_back(parse_host(n));
  }
  // Lists of a fleet usually come in this order already.
  if (!std::is_sorted(hosts.begin(), hosts.end(), host_less)) {
    std::sort(hosts.begin(), hosts.end(), host_less);
  }

  std::string out;
  std::size_t i = 0;
  while (i < hosts.size()) {
    const Host& h = hosts[i];
    if (!h.number) {
      if (!out.empty()) out += ',';
      out.append(h.prefix);
      // The same bare name twice is listed once.
      while (i < hosts.size() && !hosts[i].number && hosts[i].prefix == h.prefix) ++i;
      continue;
    }
    // Consecutive numbers that print with one width become ranges, in one bracket.
    std::vector<Range> group;
    for (; i < hosts.size() && hosts[i].number && hosts[i].prefix == h.prefix; ++i) {
      const Host& x = hosts[i];
      if (!group.empty()) {
        Range& r = group.back();
        if (*x.number == r.hi && r.fits(x)) continue;  // a duplicate
        if (r.hi != UINT64_MAX && *x.number == r.hi + 1 && r.fits(x)) {
          r.add(x);
          continue;
        }
      }
      Range r;
      r.lo = *x.number;
      r.add(x);
      group.push_back(r);
    }
    if (!out.empty()) out += ',';
    out.append(h.prefix);
    const bool one = group.size() == 1 && group[0].lo == group[0].hi;
    if (!one) out += '[';
    for (std::size_t k = 0; k < group.size(); ++k) {
      if (k > 0) out += ',';
      out += range_text(group[k]);
    }
    if (!one) out += ']';
  }
  return out;
}

}  // namespace gpudoctor
