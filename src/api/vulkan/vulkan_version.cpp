#include "api/vulkan/vulkan_version.hpp"

#include <vector>

#include "text.hpp"

namespace gpudoctor {

VulkanApiVersion decode_vulkan_api_version(std::uint32_t packed) {
  return {packed >> 29, (packed >> 22) & 0x7Fu, (packed >> 12) & 0x3FFu, packed & 0xFFFu};
}

std::uint32_t pack_vulkan_api_version(std::uint32_t variant, std::uint32_t major,
                                      std::uint32_t minor, std::uint32_t patch) {
  return ((variant & 0x7u) << 29) | ((major & 0x7Fu) << 22) | ((minor & 0x3FFu) << 12) |
         (patch & 0xFFFu);
}

std::string vulkan_api_version_string(std::uint32_t packed) {
  const VulkanApiVersion v = decode_vulkan_api_version(packed);
  std::string s =
      std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
  return v.variant == 0 ? s : std::to_string(v.variant) + ":" + s;
}

std::optional<std::uint32_t> parse_vulkan_api_version(std::string_view text) {
  std::vector<std::string> parts = split_words(trim(text), ".");
  if (parts.empty() || parts.size() > 3) return std::nullopt;
  std::uint64_t n[3] = {0, 0, 0};
  const std::uint64_t limits[3] = {0x7F, 0x3FF, 0xFFF};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    // Digits only: parse_uint would also take "0x…".
    if (parts[i].find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    auto v = parse_uint(parts[i]);
    if (!v || *v > limits[i]) return std::nullopt;
    n[i] = *v;
  }
  return pack_vulkan_api_version(0, static_cast<std::uint32_t>(n[0]),
                                 static_cast<std::uint32_t>(n[1]),
                                 static_cast<std::uint32_t>(n[2]));
}

std::string vulkan_driver_version_string(std::uint32_t raw, std::optional<std::uint32_t> vendor_id,
                                         std::optional<std::uint32_t> driver_id) {
  const bool nvidia = driver_id ? *driver_id == kVkDriverIdNvidiaProprietary
                                : vendor_id == std::optional<std::uint32_t>(kVkVendorIdNvidia);
  const bool intel_windows =
      driver_id == std::optional<std::uint32_t>(kVkDriverIdIntelProprietaryWindows);
  if (nvidia) {
    std::string s = std::to_string((raw >> 22) & 0x3FFu) + "." +
                    std::to_string((raw >> 14) & 0xFFu) + "." + std::to_string((raw >> 6) & 0xFFu);
    if ((raw & 0x3Fu) != 0) s += "." + std::to_string(raw & 0x3Fu);
    return s;
  }
  if (intel_windows) return std::to_string(raw >> 14) + "." + std::to_string(raw & 0x3FFFu);
  const VulkanApiVersion v = decode_vulkan_api_version(raw);
  // A driver version has no variant: the top bits belong to a large major number.
  return std::to_string(raw >> 22) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
}

std::string vulkan_conformance_version_string(std::uint8_t major, std::uint8_t minor,
                                              std::uint8_t subminor, std::uint8_t patch) {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(subminor) +
         "." + std::to_string(patch);
}

}  // namespace gpudoctor
