#include "parse/python_requirement.hpp"

#include <algorithm>
#include <cctype>

#include "parse/python_metadata.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// "platform_system == \"Windows\"" and the like: a marker that rules Linux out. Markers are
/// not evaluated in full; an `or` keeps the requirement, since Linux may satisfy the other side.
bool markers_exclude_linux(std::string_view markers) {
  std::string m = to_lower(markers);
  if (m.find(" or ") != std::string::npos) return false;
  for (const char* other : {"\"windows\"", "'windows'", "\"darwin\"", "'darwin'", "\"win32\"",
                            "'win32'"}) {
    const std::string needle = std::string("== ") + other;
    if (m.find(needle) != std::string::npos) return true;
  }
  return m.find("!= \"linux\"") != std::string::npos || m.find("!= 'linux'") != std::string::npos;
}

std::optional<std::string> extra_of(std::string_view markers) {
  auto at = markers.find("extra");
  if (at == std::string_view::npos) return std::nullopt;
  auto eq = markers.find("==", at);
  if (eq == std::string_view::npos) return std::nullopt;
  std::string_view rest = trim(markers.substr(eq + 2));
  if (rest.empty() || (rest.front() != '\'' && rest.front() != '"')) return std::nullopt;
  const char quote = rest.front();
  auto end = rest.find(quote, 1);
  if (end == std::string_view::npos) return std::nullopt;
  return normalize_package_name(rest.substr(1, end - 1));
}

std::optional<VersionSpecifier> parse_specifier(std::string_view s) {
  s = trim(s);
  static constexpr const char* kOps[] = {"===", "~=", "==", "!=", ">=", "<=", ">", "<"};
  for (const char* op : kOps) {
    if (!starts_with(s, op)) continue;
    VersionSpecifier spec;
    spec.op = op;
    std::string_view v = trim(s.substr(std::string_view(op).size()));
    if (ends_with(v, ".*")) {
      spec.wildcard = true;
      v.remove_suffix(2);
    }
    auto version = parse_version(v);
    if (!version) return std::nullopt;
    spec.version = *version;
    return spec;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Requirement> parse_requirement(std::string_view line) {
  const auto semicolon = line.find(';');
  std::string_view head = trim(line.substr(0, semicolon));
  std::string_view markers = semicolon == std::string_view::npos ? "" : line.substr(semicolon + 1);
  Requirement r;
  r.name = normalize_package_name(requirement_name(head));
  if (r.name.empty()) return std::nullopt;
  std::string_view specs = trim(head.substr(requirement_name(head).size()));
  if (!specs.empty() && specs.front() == '[') {  // extras of the requirement itself
    auto close = specs.find(']');
    specs = close == std::string_view::npos ? "" : trim(specs.substr(close + 1));
  }
  if (!specs.empty() && specs.front() == '(') {
    auto close = specs.rfind(')');
    specs = specs.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
  }
  for (const auto& part : split_words(specs, ",")) {
    if (trim(part).empty()) continue;
    auto spec = parse_specifier(part);
    if (!spec) return std::nullopt;
    r.specifiers.push_back(std::move(*spec));
  }
  r.extra = extra_of(markers);
  r.on_linux = !markers_exclude_linux(markers);
  return r;
}

bool satisfies(const Version& v, const std::vector<VersionSpecifier>& specifiers) {
  for (const auto& s : specifiers) {
    const int c = s.wildcard ? compare_to_bound(v, s.version) : compare_versions(v, s.version);
    bool ok = true;
    if (s.op == "==" || s.op == "===") ok = c == 0;
    if (s.op == "!=") ok = c != 0;
    if (s.op == ">=") ok = c >= 0;
    if (s.op == "<=") ok = c <= 0;
    if (s.op == ">") ok = c > 0;
    if (s.op == "<") ok = c < 0;
    if (s.op == "~=") {
      // ~=9.1.0 means >=9.1.0 and ==9.1.*: the prefix without the last component must match.
      Version prefix = s.version;
      if (prefix.parts.size() > 1) prefix.parts.pop_back();
      ok = c >= 0 && compare_to_bound(v, prefix) == 0;
    }
    if (!ok) return false;
  }
  return true;
}

std::string specifier_text(const std::vector<VersionSpecifier>& specifiers) {
  std::vector<std::string> parts;
  for (const auto& s : specifiers) {
    parts.push_back(s.op + s.version.text + (s.wildcard ? ".*" : ""));
  }
  return join(parts, ",");
}

std::optional<Version> pinned_version(const std::vector<VersionSpecifier>& specifiers) {
  for (const auto& s : specifiers) {
    if ((s.op == "==" || s.op == "===") && !s.wildcard) return s.version;
  }
  return std::nullopt;
}

}  // namespace gpudoctor
