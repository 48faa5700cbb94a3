#pragma once
// A Requires-Dist line of a wheel's METADATA (PEP 508) as far as the checks need it: the name,
// the version specifiers and the extra it belongs to, and whether it applies on Linux.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compat/version.hpp"

namespace gpudoctor {

struct VersionSpecifier {
  std::string op;  ///< "==", "!=", ">=", "<=", ">", "<", "~=", "==="
  Version version;
  bool wildcard = false;  ///< "==9.*"
};

struct Requirement {
  std::string name;  ///< PEP 503 normalised: "nvidia-cudnn-cu12"
  std::vector<VersionSpecifier> specifiers;
  std::optional<std::string> extra;  ///< "and-cuda" for `extra == 'and-cuda'`
  bool on_linux = true;  ///< false when its markers name another platform only
};

/// nullopt when the line names no distribution or a specifier does not parse.
std::optional<Requirement> parse_requirement(std::string_view line);

/// Whether `v` satisfies every specifier (PEP 440 comparisons on the dotted numbers).
bool satisfies(const Version& v, const std::vector<VersionSpecifier>& specifiers);

/// "==8.9.2.26", ">=9.8,<10.0": the specifiers as pip prints them.
std::string specifier_text(const std::vector<VersionSpecifier>& specifiers);

/// The one version an "==" specifier pins; nullopt for ranges.
std::optional<Version> pinned_version(const std::vector<VersionSpecifier>& specifiers);

}  // namespace gpudoctor
