#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/pci.hpp"

namespace gpudoctor {

/// A CUDA device UUID (cuDeviceGetUuid's 16 bytes) as nvidia-smi and NVML write it:
/// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower-case hex.
std::string nvidia_gpu_uuid(const std::uint8_t (&bytes)[16]);

/// "0000:01:00.0": the domain with at least four hex digits, lower case, as sysfs names it;
/// nullopt when bus, device or function is out of range.
std::optional<std::string> pci_address(std::uint32_t domain, std::uint32_t bus,
                                       std::uint32_t device, std::uint32_t function = 0);

// ---- the built-in pci.ids (data/pci/gpu.ids: the GPU vendors' part of upstream pci.ids)

/// Where a PCI name came from (PciDevice::name_source): the root's pci.ids, or the built-in one.
inline constexpr std::string_view kNameFromPciIds = "pci.ids";
inline constexpr std::string_view kNameFromBuiltinPciIds = "builtin pci.ids";
/// A GPU named by the installed NVIDIA driver's own table (NvidiaSystem::driver_gpu_table).
inline constexpr std::string_view kNameFromDriverTable = "supported-gpus.json";

/// The built-in name of a GPU, its vendor, or its class (0x030200: the prog-if byte is
/// ignored); nullopt where the built-in pci.ids has none.
std::optional<std::string_view> builtin_device_name(std::uint16_t vendor, std::uint16_t device);
std::optional<std::string_view> builtin_vendor_name(std::uint16_t vendor);
/// The device id of the one GPU of this vendor the built-in pci.ids names exactly so
/// ("GA102 [GeForce RTX 3090]" → 0x2204); nullopt when none or several carry the name.
std::optional<std::uint16_t> builtin_device_id(std::uint16_t vendor, std::string_view name);
std::optional<std::string_view> builtin_class_name(std::uint32_t class_code);
/// pci.ids' own version of the built-in copy: "2026.08.22".
std::string_view builtin_pci_ids_version();
/// How many GPU device names are built in.
std::size_t builtin_device_count();

/// The chip a pci.ids device name names: pci.ids writes the chip, then the product in
/// brackets ("GA102 [GeForce RTX 3090]" → "GA102", "GH100[H100 SXM5 80GB]" → "GH100", "Navi 22 [Radeon RX 6700/6700 XT/6750 XT /
/// 6800M/6850M XT]" → "Navi 22"), or the chip code alone ("GK208B"). nullopt for a name that
/// names no chip apart from a product ("HD Graphics 620").
std::optional<std::string> chip_from_pci_name(std::string_view name);

/// A block of device ids that one chip's known ids fill (data/pci/nvidia_device_id_ranges.json,
/// derived from the built-in pci.ids by tools/refresh-pci-ids.py).
struct DeviceIdRange {
  std::uint16_t first = 0;
  std::uint16_t last = 0;
  std::string_view chip;                                ///< "GB202"
  std::string_view architecture;                        ///< "Blackwell"
  std::optional<std::string_view> compute_capability;   ///< "12.0"; nullopt where unpublished
};
/// Where the ranges and their compute capabilities come from.
inline constexpr std::string_view kIdRangeSource = "https://developer.nvidia.com/cuda-gpus";
/// The range of this vendor's that holds `device`; nullopt outside every range.
std::optional<DeviceIdRange> device_id_range(std::uint16_t vendor, std::uint16_t device);
/// "inferred from the device id range 0x2b80-0x2bff"
std::string inferred_from_range(const DeviceIdRange& r);
/// The identity a device id no table names gets from its range; nullopt when it is in none.
std::optional<PciInferredIdentity> infer_identity(std::uint16_t vendor, std::uint16_t device);

/// The device's name: what the root's pci.ids said, else the built-in pci.ids' entry.
std::optional<std::string> pci_device_name(const PciDevice& p);

/// Fills the names the root's pci.ids did not give (a root with no pci.ids, or an older one)
/// from the built-in copy, and says so in name_source; a GPU neither names gets `inferred`
/// from its device-id range.
void fill_builtin_names(PciDevice& p);

}  // namespace gpudoctor
