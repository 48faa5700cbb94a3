#include "api/pci/gpu_ids.hpp"

#include "text.hpp"

#include <cstdio>

namespace gpudoctor {

std::string nvidia_gpu_uuid(const std::uint8_t (&b)[16]) {
  char buf[48];
  std::snprintf(buf, sizeof buf,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                b[14], b[15]);
  return buf;
}

std::optional<std::string> pci_address(std::uint32_t domain, std::uint32_t bus,
                                       std::uint32_t device, std::uint32_t function) {
  if (bus > 0xff || device > 0x1f || function > 0x7) return std::nullopt;
  return hex(domain, 4) + ":" + hex(bus, 2) + ":" + hex(device, 2) + "." + hex(function, 1);
}

}  // namespace gpudoctor
