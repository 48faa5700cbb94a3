#pragma once
// Parsers for the PCI attribute files under /sys/bus/pci/devices/<address>/.
#include <cstdint>
#include <optional>
#include <string_view>

namespace gpudoctor {

/// current_link_speed / max_link_speed: "8.0 GT/s PCIe", "16.0 GT/s PCIe", "2.5 GT/s" (older
/// kernels); nullopt for "Unknown" or anything else.
std::optional<double> parse_link_speed(std::string_view text);
/// PCIe generation of a transfer rate: 2.5 → 1, 5 → 2, 8 → 3, 16 → 4, 32 → 5, 64 → 6.
std::optional<int> pcie_generation(double speed_gts);
/// current_link_width / max_link_width: "16"; nullopt when not a number.
std::optional<int> parse_link_width(std::string_view text);
/// numa_node: the kernel writes -1 when the device has no NUMA affinity, which is unknown.
std::optional<int> parse_numa_node(std::string_view text);
/// The group number from the iommu_group link target ("../../../kernel/iommu_groups/14").
std::optional<int> iommu_group_from_link(std::string_view link_target);
/// The last component of a link target ("../../../bus/pci/drivers/nvidia" → "nvidia").
std::string_view link_basename(std::string_view link_target);
/// boot_vga: "1" / "0".
std::optional<bool> parse_flag(std::string_view text);
/// class, vendor, device, …: "0x030000".
std::optional<std::uint32_t> parse_hex_attribute(std::string_view text);

}  // namespace gpudoctor
