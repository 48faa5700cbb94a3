#include "parse/kfd_topology.hpp"

#include <cctype>

#include "api/pci/gpu_ids.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

std::optional<unsigned> decimal(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  unsigned v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  return v;
}

std::optional<unsigned> hex_digit(char c) {
  if (std::isdigit(static_cast<unsigned char>(c))) return static_cast<unsigned>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
  return std::nullopt;
}

std::string gfx_name(unsigned major, unsigned minor, unsigned stepping) {
  static constexpr const char* kHex = "0123456789abcdef";
  return "gfx" + std::to_string(major) + kHex[minor] + kHex[stepping];
}

}  // namespace

std::map<std::string, std::uint64_t> parse_kfd_properties(std::string_view text) {
  std::map<std::string, std::uint64_t> out;
  for (std::string_view line : split_lines(text)) {
    auto words = split_words(line, " \t");
    if (words.size() != 2) continue;
    // Values are decimal; a leading zero must not turn them octal.
    bool digits = !words[1].empty();
    for (char c : words[1]) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits || words[1].size() > 20) continue;
    try {
      out[words[0]] = std::stoull(words[1], nullptr, 10);
    } catch (const std::exception&) {
      continue;  // out of range
    }
  }
  return out;
}

bool kfd_node_is_gpu(const std::map<std::string, std::uint64_t>& properties,
                     std::optional<std::uint64_t> gpu_id) {
  if (auto simd = properties.find("simd_count"); simd != properties.end()) return simd->second > 0;
  if (gpu_id) return *gpu_id > 0;
  auto gfx = properties.find("gfx_target_version");
  return gfx != properties.end() && gfx->second > 0;
}

std::optional<std::string> gfx_target_name(std::uint64_t v) {
  if (v == 0 || v > 999999) return std::nullopt;
  const auto major = static_cast<unsigned>(v / 10000);
  const auto minor = static_cast<unsigned>(v / 100 % 100);
  const auto stepping = static_cast<unsigned>(v % 100);
  if (major == 0 || minor > 15 || stepping > 15) return std::nullopt;
  return gfx_name(major, minor, stepping);
}

std::optional<std::string> kfd_pci_address(std::uint64_t domain, std::uint64_t location_id) {
  if (domain > 0xffffffffu) return std::nullopt;
  // Bits 28–31 of location_id number the partitions of one device (multi-XCC parts).
  return pci_address(static_cast<std::uint32_t>(domain),
                     static_cast<std::uint32_t>((location_id >> 8) & 0xff),
                     static_cast<std::uint32_t>((location_id >> 3) & 0x1f),
                     static_cast<std::uint32_t>(location_id & 0x7));
}

std::optional<std::string> gfx_override_target(std::string_view value) {
  auto parts = split_words(trim(value), ".");
  if (parts.size() != 3) return std::nullopt;
  auto major = decimal(parts[0]);
  auto minor = decimal(parts[1]);
  auto stepping = decimal(parts[2]);
  if (!major || !minor || !stepping || *major == 0 || *minor > 15 || *stepping > 15) {
    return std::nullopt;
  }
  return gfx_name(*major, *minor, *stepping);
}

bool hsa_override_accepted(std::string_view value) {
  // %u skips leading blanks; anything after the third number is read by %c and refused.
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) {
    value.remove_prefix(1);
  }
  auto parts = split_words(value, ".");
  if (parts.size() != 3 || value.front() == '.' || value.back() == '.' ||
      value.find("..") != std::string_view::npos) {
    return false;
  }
  auto major = decimal(parts[0]);
  auto minor = decimal(parts[1]);
  auto stepping = decimal(parts[2]);
  return major && minor && stepping && *major <= 63 && *minor <= 255 && *stepping <= 255;
}

std::optional<GfxVersion> parse_gfx_target(std::string_view name) {
  std::string n = to_lower(trim(name));
  // "gfx90a:sramecc+:xnack-" names the same target with its features.
  if (auto colon = n.find(':'); colon != std::string::npos) n.resize(colon);
  if (!starts_with(n, "gfx") || n.size() < 6) return std::nullopt;
  auto major = decimal(std::string_view(n).substr(3, n.size() - 5));
  auto minor = hex_digit(n[n.size() - 2]);
  auto stepping = hex_digit(n[n.size() - 1]);
  if (!major || !minor || !stepping || *major == 0) return std::nullopt;
  return GfxVersion{*major, *minor, *stepping};
}

std::optional<std::string> parse_rocm_version_file(std::string_view text) {
  auto lines = split_lines(text);
  if (lines.empty()) return std::nullopt;
  std::string_view v = trim(lines.front());
  if (v.empty()) return std::nullopt;
  return std::string(v);
}

}  // namespace gpudoctor
