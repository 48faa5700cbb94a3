#pragma once
// The GPU vendors' part of pci.ids, compiled in at build time (cmake/embed_pci_ids.cmake) so
// that a GPU has a name where the root has no pci.ids: a container, a --sysroot tree, a report
// from such a machine. Read it through gpu_ids.hpp.
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
  std::string_view version;  ///< pci.ids' "Version:" line: "2023.04.10"
  const char* names;         ///< NUL-terminated names, one after another
  std::size_t names_size;
  const Device* devices;     ///< sorted by vendor, then device, as pci.ids lists them
  std::size_t device_count;
  const Vendor* vendors;
  std::size_t vendor_count;
  const Class* classes;
  std::size_t class_count;
};

/// Defined in the generated pci_ids_embedded.cpp.
const PciIdsTable& builtin_pci_ids();

}  // namespace gpudoctor
