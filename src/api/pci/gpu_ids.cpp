#include "api/pci/gpu_ids.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "api/pci/pci_ids_table.hpp"
#include "text.hpp"

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

namespace {

std::string_view name_at(const PciIdsTable& t, std::uint32_t offset) {
  if (offset >= t.names_size) return {};
  return std::string_view(t.names + offset);
}

bool is_chip_code(std::string_view s) {
  // "GA102", "GK110BGL", "TU116M": capitals, then a digit, then capitals and digits.
  if (s.size() < 3 || !std::isupper(static_cast<unsigned char>(s[0]))) return false;
  bool digit = false;
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digit = true;
    } else if (!std::isupper(static_cast<unsigned char>(c))) {
      return false;
    }
  }
  return digit;
}

}  // namespace

std::optional<std::string_view> builtin_device_name(std::uint16_t vendor, std::uint16_t device) {
  const PciIdsTable& t = builtin_pci_ids();
  const auto* end = t.devices + t.device_count;
  const auto* it = std::lower_bound(t.devices, end, std::make_pair(vendor, device),
                                    [](const PciIdsTable::Device& d, const auto& key) {
                                      return std::make_pair(d.vendor, d.device) < key;
                                    });
  if (it == end || it->vendor != vendor || it->device != device) return std::nullopt;
  return name_at(t, it->name);
}

std::optional<std::uint16_t> builtin_device_id(std::uint16_t vendor, std::string_view name) {
  const PciIdsTable& t = builtin_pci_ids();
  std::optional<std::uint16_t> found;
  for (std::size_t i = 0; i < t.device_count; ++i) {
    const auto& d = t.devices[i];
    if (d.vendor != vendor || name_at(t, d.name) != name) continue;
    if (found) return std::nullopt;  // two devices of that name: which one is not known
    found = d.device;
  }
  return found;
}

std::optional<std::string_view> builtin_vendor_name(std::uint16_t vendor) {
  const PciIdsTable& t = builtin_pci_ids();
  for (std::size_t i = 0; i < t.vendor_count; ++i) {
    if (t.vendors[i].vendor == vendor) return name_at(t, t.vendors[i].name);
  }
  return std::nullopt;
}

std::optional<std::string_view> builtin_class_name(std::uint32_t class_code) {
  const PciIdsTable& t = builtin_pci_ids();
  const auto class_sub = static_cast<std::uint16_t>(class_code >> 8);
  for (std::size_t i = 0; i < t.class_count; ++i) {
    if (t.classes[i].class_sub == class_sub) return name_at(t, t.classes[i].name);
  }
  return std::nullopt;
}

std::string_view builtin_pci_ids_version() { return builtin_pci_ids().version; }

std::size_t builtin_device_count() { return builtin_pci_ids().device_count; }

std::optional<std::string> chip_from_pci_name(std::string_view name) {
  name = trim(name);
  // pci.ids usually writes "GA102 [", now and then "GH100[" (2023's H100 SXM5 entry).
  const auto bracket = name.find('[');
  if (bracket != std::string_view::npos && !trim(name.substr(0, bracket)).empty()) {
    return std::string(trim(name.substr(0, bracket)));
  }
  if (is_chip_code(name)) return std::string(name);
  return std::nullopt;
}

std::optional<DeviceIdRange> device_id_range(std::uint16_t vendor, std::uint16_t device) {
  const PciIdsTable& t = builtin_pci_ids();
  for (std::size_t i = 0; i < t.range_count; ++i) {
    const auto& r = t.ranges[i];
    if (r.vendor != vendor || device < r.first || device > r.last) continue;
    DeviceIdRange out{r.first, r.last, name_at(t, r.chip), name_at(t, r.architecture),
                      std::nullopt};
    if (auto cc = name_at(t, r.compute_capability); !cc.empty()) out.compute_capability = cc;
    return out;
  }
  return std::nullopt;
}

std::string inferred_from_range(const DeviceIdRange& r) {
  return "inferred from the device id range 0x" + hex(r.first, 4) + "-0x" + hex(r.last, 4);
}

std::optional<PciInferredIdentity> infer_identity(std::uint16_t vendor, std::uint16_t device) {
  auto r = device_id_range(vendor, device);
  if (!r) return std::nullopt;
  PciInferredIdentity id;
  id.chip = std::string(r->chip);
  id.architecture = std::string(r->architecture);
  if (r->compute_capability) id.compute_capability = std::string(*r->compute_capability);
  id.how = inferred_from_range(*r);
  return id;
}

std::optional<std::string> pci_device_name(const PciDevice& p) {
  if (p.device_name) return p.device_name;
  if (auto n = builtin_device_name(p.vendor_id, p.device_id)) return std::string(*n);
  return std::nullopt;
}

void fill_builtin_names(PciDevice& p) {
  if (!p.device_name) {
    if (auto n = builtin_device_name(p.vendor_id, p.device_id)) {
      p.device_name = std::string(*n);
      p.name_source = std::string(kNameFromBuiltinPciIds);
    } else if ((p.class_code >> 16) == 0x03 || (p.class_code >> 16) == 0x12) {
      p.inferred = infer_identity(p.vendor_id, p.device_id);  // newer than every table
    }
  } else if (!p.name_source) {
    p.name_source = std::string(kNameFromPciIds);
  }
  if (!p.vendor_name) {
    if (auto n = builtin_vendor_name(p.vendor_id)) p.vendor_name = std::string(*n);
  }
  if (!p.class_name) {
    if (auto n = builtin_class_name(p.class_code)) p.class_name = std::string(*n);
  }
}

}  // namespace gpudoctor
