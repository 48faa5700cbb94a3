#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// A dotted version as the GPU stack writes them: "12.4.1", "535.104.05", "9.1.0.70",
/// "2.1.0+cu121", "2.5.0rc1", "6.3.0-39". Numbers compare numerically, never as text.
struct Version {
  std::vector<std::uint32_t> parts;  ///< the dotted numbers: {535, 104, 5}
  std::string suffix;  ///< what follows the numbers before any '+': "rc1", ".post1", "-39"
  std::string local;   ///< after '+': "cu121", "rocm6.2.4", "cpu"
  std::string text;    ///< as written, trimmed
};

/// Whole-string parse (surrounding blanks and a leading 'v' allowed); nullopt when the text does
/// not start with a number, has an empty component ("12..4") or a number too large.
std::optional<Version> parse_version(std::string_view text);

/// Numeric comparison; a missing component counts as 0 ("12.4" == "12.4.0"). Suffixes follow
/// PEP 440: dev < a < b < rc < (none) < post; the local part is ignored. <0, 0 or >0.
int compare_versions(const Version& a, const Version& b);

/// Compares `v` against a bound on the bound's own components only: "12.4.1" against "12" is
/// equal, against "12.5" is less. Suffixes are ignored. This is what a table range means.
int compare_to_bound(const Version& v, const Version& bound);

bool operator==(const Version& a, const Version& b);
bool operator!=(const Version& a, const Version& b);
bool operator<(const Version& a, const Version& b);
bool operator<=(const Version& a, const Version& b);
bool operator>(const Version& a, const Version& b);
bool operator>=(const Version& a, const Version& b);

/// An inclusive range whose bounds compare on their own components: {"9.5", "9.5"} holds every
/// 9.5.x, {"12.1", "12"} every 12.x from 12.1 on. An absent bound is open.
struct VersionRange {
  std::optional<Version> min;
  std::optional<Version> max;
};

bool in_range(const Version& v, const VersionRange& range);

/// Same major and minor (a missing minor counts as 0).
bool same_minor(const Version& a, const Version& b);

/// The numbers joined with dots, without suffix or local part: "535.104.5" for "535.104.05".
std::string numeric_string(const Version& v);

/// The CUDA version a wheel tag names: "cu121" -> 12.1, "cu118" -> 11.8, "cu90" -> 9.0,
/// "cu102" -> 10.2, "cu130" -> 13.0 (the last digit is the minor). Accepts a whole local part
/// ("cu124") or a full version ("2.5.0+cu124").
std::optional<Version> cuda_version_from_tag(std::string_view tag);

/// The ROCm version a wheel tag names: "rocm6.2.4" -> 6.2.4 (also inside "2.5.0+rocm6.2").
std::optional<Version> rocm_version_from_tag(std::string_view tag);

}  // namespace gpudoctor
