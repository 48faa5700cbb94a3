#pragma once
// The GPU vendors' part of pci.ids vendored in data/pci/ (gpu.ids, and the NVIDIA device-id
// ranges derived from it), compiled in at build time (cmake/embed_pci_ids.cmake) so that a GPU
// has a name where the root has no pci.ids, or an older one: a container, a --sysroot tree, a
// report from such a machine. Read it through gpu_ids.hpp.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gpudoctor {

struct PciIdsTable {
  struct Device {
    std::uint16_t vendor;
    std::uint16_t device;
    std::uint32_t name;  ///< offset into names
  };
  struct Vendor {
    std::uint16_t vendor;
    std::uint32_t name;
  };
  struct Class {
    std::uint16_t class_sub;  ///< 0x0302: class, subclass
    std::uint32_t name;
  };
  /// A block of device ids that one chip's known ids fill (data/pci/nvidia_device_id_ranges.json).
  struct IdRange {
    std::uint16_t vendor;
    std::uint16_t first;
    std::uint16_t last;
    std::uint32_t chip;                ///< "GB202"
    std::uint32_t architecture;        ///< "Blackwell"
    std::uint32_t compute_capability;  ///< "12.0"; "" where none is published
  };
  std::string_view version;  ///< pci.ids' "Version:" line: "2026.08.22"
  const char* names;         ///< NUL-terminated names, one after another
  std::size_t names_size;
  const Device* devices;     ///< sorted by vendor, then device, as pci.ids lists them
  std::size_t device_count;
  const Vendor* vendors;
  std::size_t vendor_count;
  const Class* classes;
  std::size_t class_count;
  const IdRange* ranges;     ///< sorted by first id
  std::size_t range_count;
};

/// Defined in the generated pci_ids_embedded.cpp.
const PciIdsTable& builtin_pci_ids();

}  // namespace gpudoctor
