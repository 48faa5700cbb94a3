#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"

namespace gpudoctor {

/// The PCI vendor ids gpudoctor names (pci.ids: https://pci-ids.ucw.cz/read/PC/).
inline constexpr std::uint16_t kPciVendorNvidia = 0x10de;
inline constexpr std::uint16_t kPciVendorAmd = 0x1002;
inline constexpr std::uint16_t kPciVendorIntel = 0x8086;
inline constexpr std::uint16_t kPciVendorApple = 0x106b;

struct PciLink {
  std::optional<double> speed_gts;     ///< 16.0
  std::optional<int> generation;       ///< 4 (derived from the speed)
  std::optional<int> width;            ///< 16
};
GPUDOCTOR_JSON(PciLink, speed_gts, generation, width)

/// A GPU whose device id no table names, placed by its vendor's device-id ranges
/// (data/pci/nvidia_device_id_ranges.json: the blocks each chip's known ids fill). Set only
/// where neither the root's pci.ids, the built-in one nor the driver's table names the id.
struct PciInferredIdentity {
  bool inferred = true;         ///< always true: every output says the identity is a guess
  std::string chip;             ///< "GB202"
  std::string architecture;     ///< "Blackwell"
  std::optional<std::string> compute_capability;  ///< "12.0"; null where none is published
  std::string how;              ///< "inferred from the device id range 0x2b80-0x2bff"
};
GPUDOCTOR_JSON(PciInferredIdentity, inferred, chip, architecture, compute_capability, how)

struct PciDevice {
  std::string address;                 ///< "0000:01:00.0"
  std::uint32_t class_code = 0;        ///< 0x030000 (class, subclass, prog-if)
  std::optional<std::string> class_name;
  std::uint16_t vendor_id = 0;
  std::uint16_t device_id = 0;
  std::optional<std::string> vendor_name;  ///< from pci.ids
  std::optional<std::string> device_name;  ///< from pci.ids
  std::optional<std::string> name_source;  ///< "pci.ids" (the root's), "builtin pci.ids"
  std::optional<std::uint16_t> subsystem_vendor_id;
  std::optional<std::uint16_t> subsystem_device_id;
  std::optional<std::string> subsystem_name;
  std::optional<std::uint8_t> revision;
  std::optional<std::string> driver;   ///< kernel driver in use: "nvidia", "nouveau", "vfio-pci"
  std::vector<std::string> modules;    ///< kernel modules whose alias matches (lspci -k)
  std::optional<std::string> modalias;
  PciLink link_current;
  PciLink link_max;
  std::optional<int> numa_node;
  std::optional<int> iommu_group;
  std::optional<bool> boot_vga;
  std::optional<std::string> runtime_pm;   ///< power/runtime_status: "active", "suspended"
  std::optional<PciInferredIdentity> inferred;  ///< no table names it: its id range's chip
};
GPUDOCTOR_JSON(PciDevice, address, class_code, class_name, vendor_id, device_id, vendor_name,
               device_name, name_source, subsystem_vendor_id, subsystem_device_id, subsystem_name, revision,
               driver, modules, modalias, link_current, link_max, numa_node, iommu_group,
               boot_vga, runtime_pm, inferred)

struct PciInfo {
  std::optional<std::string> ids_file;     ///< the pci.ids used for names
  int devices_scanned = 0;                 ///< all PCI functions, GPU or not
  std::vector<PciDevice> devices;          ///< display, 3D and processing-accelerator functions
};
GPUDOCTOR_JSON(PciInfo, ids_file, devices_scanned, devices)

}  // namespace gpudoctor
