#pragma once
// A PCI GPU function as the pci probe records it, for tests that build a snapshot by hand.
#include <cstdint>
#include <optional>
#include <string>

#include "model/pci.hpp"

namespace gpudoctor::test {

/// address "0000:01:00.0", class 0x030000 (VGA) unless given; name and driver only where given.
inline PciDevice pci_gpu(std::uint16_t vendor, std::uint16_t device,
                         std::optional<std::string> driver = std::nullopt,
                         std::optional<std::string> name = std::nullopt,
                         std::string address = "0000:01:00.0", std::uint32_t cls = 0x030000) {
  PciDevice p;
  p.address = std::move(address);
  p.class_code = cls;
  p.vendor_id = vendor;
  p.device_id = device;
  p.device_name = std::move(name);
  p.driver = std::move(driver);
  return p;
}

}  // namespace gpudoctor::test
