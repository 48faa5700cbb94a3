// The attribute files and links of /sys/bus/pci/devices/<address>/.
#include "fuzz_input.hpp"
#include "parse/pci_sysfs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  const std::string_view text = fuzz::as_text(data, size);
  if (auto speed = parse_link_speed(text)) pcie_generation(*speed);
  parse_link_width(text);
  parse_numa_node(text);
  iommu_group_from_link(text);
  link_basename(text);
  parse_flag(text);
  parse_hex_attribute(text);
  return 0;
}
