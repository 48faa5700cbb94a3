#include "parse/nvidia_supported_gpus.hpp"

#include <algorithm>

#include "json.hpp"
#include "parse/pci_sysfs.hpp"

namespace gpudoctor {

namespace {

// The row's features that say which kernel module drives it.
constexpr std::string_view kOpen = "kernelopen";
constexpr std::string_view kGspProprietary = "gsp_proprietary_supported";

std::optional<std::uint16_t> hex_id(const Json& row, const char* key) {
  auto it = row.find(key);
  if (it == row.end() || !it->is_string()) return std::nullopt;
  auto v = parse_hex_attribute(it->get_ref<const std::string&>());  // "0x2B85"
  if (!v || *v > 0xffff) return std::nullopt;
  return static_cast<std::uint16_t>(*v);
}

bool has(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

SupportedGpus parse_supported_gpus(std::string_view text) {
  SupportedGpus out;
  Json doc = Json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded()) {
    out.error = "not JSON";
    return out;
  }
  if (!doc.is_object() || !doc.contains("chips") || !doc["chips"].is_array()) {
    out.error = "no \"chips\" list";
    return out;
  }
  bool file_knows_gsp = false;
  for (const Json& row : doc["chips"]) {
    if (!row.is_object()) continue;
    auto devid = hex_id(row, "devid");
    auto name = row.find("name");
    if (!devid || name == row.end() || !name->is_string()) continue;
    DriverGpuEntry e;
    e.device_id = *devid;
    e.subsystem_vendor_id = hex_id(row, "subvendorid");
    e.subsystem_device_id = hex_id(row, "subdevid");
    e.name = name->get<std::string>();
    if (auto b = row.find("legacybranch"); b != row.end() && b->is_string()) {
      e.legacy_branch = b->get<std::string>();
    }
    if (auto f = row.find("features"); f != row.end() && f->is_array()) {
      for (const Json& x : *f) {
        if (x.is_string()) e.features.push_back(x.get<std::string>());
      }
    }
    file_knows_gsp = file_knows_gsp || has(e.features, kGspProprietary);
    // A legacy row's features describe the legacy branch, not this driver (the 595 file marks
    // V100, which only 580 drives, "kernelopen": https://github.com/awslabs/amazon-eks-ami/pull/2824).
    e.open_module = !e.legacy_branch && has(e.features, kOpen);
    out.rows.push_back(std::move(e));
  }
  if (file_knows_gsp) {
    for (auto& e : out.rows) e.needs_open_module = e.open_module && !has(e.features, kGspProprietary);
  }
  return out;
}

const DriverGpuEntry* supported_gpu_row(const std::vector<DriverGpuEntry>& rows,
                                        std::uint16_t device_id,
                                        std::optional<std::uint16_t> subsystem_vendor_id,
                                        std::optional<std::uint16_t> subsystem_device_id) {
  const DriverGpuEntry* any = nullptr;
  for (const auto& r : rows) {
    if (r.device_id != device_id) continue;
    if (!r.subsystem_device_id && !r.subsystem_vendor_id) {
      if (!any) any = &r;
    } else if (r.subsystem_vendor_id == subsystem_vendor_id &&
               r.subsystem_device_id == subsystem_device_id && subsystem_device_id) {
      return &r;
    }
  }
  return any;
}

}  // namespace gpudoctor
