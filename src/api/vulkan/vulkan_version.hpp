#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

/// A packed Vulkan API version (VK_MAKE_API_VERSION): variant:3 major:7 minor:10 patch:12 bits.
struct VulkanApiVersion {
  std::uint32_t variant = 0;
  std::uint32_t major = 0;
  std::uint32_t minor = 0;
  std::uint32_t patch = 0;
};

VulkanApiVersion decode_vulkan_api_version(std::uint32_t packed);
std::uint32_t pack_vulkan_api_version(std::uint32_t variant, std::uint32_t major,
                                      std::uint32_t minor, std::uint32_t patch);

/// "1.3.230"; a non-zero variant (Vulkan SC is 1) is prefixed: "1:1.0.12".
std::string vulkan_api_version_string(std::uint32_t packed);

/// Parses "1.3.230" / "1.3" / "1" as written in a driver manifest into a packed version.
std::optional<std::uint32_t> parse_vulkan_api_version(std::string_view text);

/// VkDriverId values whose driverVersion is not VK_MAKE_API_VERSION.
inline constexpr std::uint32_t kVkDriverIdNvidiaProprietary = 4;
inline constexpr std::uint32_t kVkDriverIdIntelProprietaryWindows = 5;
inline constexpr std::uint32_t kVkVendorIdNvidia = 0x10DE;

/// VkPhysicalDeviceProperties::driverVersion as the vendor writes it. The layout is the
/// vendor's choice; this follows vulkaninfo's AppGpu::GetDriverVersionString()
/// (KhronosGroup/Vulkan-Tools, vulkaninfo/vulkaninfo.h):
///  - NVIDIA's proprietary driver packs major:10 minor:8 patch:8 extra:6 bits, so 535.104.05
///    reads "535.104.5" (the extra field is appended only when it is not zero);
///  - Intel's proprietary Windows driver packs major:18 minor:14 bits: "101.4146";
///  - everyone else (Mesa, AMD, Arm, …) uses VK_MAKE_API_VERSION: "22.3.6".
/// The driver id decides when it is known (VkPhysicalDeviceDriverProperties); without it the
/// vendor id stands in for NVIDIA (vulkaninfo compares props.deviceID with 4318 there, which
/// is 0x10DE, the vendor id, so it means vendorID), and Intel is taken as Mesa, as
/// vulkaninfo does on every platform but Windows.
std::string vulkan_driver_version_string(std::uint32_t raw, std::optional<std::uint32_t> vendor_id,
                                         std::optional<std::uint32_t> driver_id);

/// VkConformanceVersion as "1.3.1.1".
std::string vulkan_conformance_version_string(std::uint8_t major, std::uint8_t minor,
                                              std::uint8_t subminor, std::uint8_t patch);

}  // namespace gpudoctor
