#include "checks/intel_identity.hpp"

#include <map>

#include "compat/compat_data.hpp"
#include "json_dom.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

std::vector<std::string> intel_strings(const Json& o, const char* key) {
  std::vector<std::string> out;
  auto it = o.find(key);
  if (it == o.end() || !it->is_array()) return out;
  for (const Json& s : *it) {
    if (s.is_string()) out.push_back(s.get<std::string>());
  }
  return out;
}

std::optional<std::string> intel_string(const Json& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

}  // namespace

IntelTable read_intel_table(std::string_view json) {
  IntelTable t;
  Json doc = parse_json_bounded(json);
  if (doc.is_discarded() || !doc.is_object()) {
    t.errors.push_back("intel.json: not a JSON object");
    return t;
  }
  std::map<std::string, std::string> urls;
  if (auto s = doc.find("sources"); s != doc.end() && s->is_array()) {
    for (const Json& x : *s) {
      auto id = intel_string(x, "id");
      auto url = intel_string(x, "url");
      if (id && url) urls[*id] = *url;
    }
  }
  auto first_url = [&](const Json& o) {
    auto src = o.find("source");
    if (src == o.end()) return std::string();
    std::string id = src->is_string() ? src->get<std::string>()
                     : (src->is_array() && !src->empty() && (*src)[0].is_string())
                         ? (*src)[0].get<std::string>()
                         : "";
    auto u = urls.find(id);
    return u == urls.end() ? std::string() : u->second;
  };
  if (auto rows = doc.find("rows"); rows != doc.end() && rows->is_array()) {
    for (std::size_t i = 0; i < rows->size(); ++i) {
      const Json& r = (*rows)[i];
      IntelPlatform p;
      auto name = intel_string(r, "platform");
      if (!name) {
        t.errors.push_back("intel.json: rows[" + std::to_string(i) + "] has no platform");
        continue;
      }
      p.platform = *name;
      p.generation = intel_string(r, "generation").value_or("");
      p.kind = intel_string(r, "kind").value_or("");
      for (const auto& id : intel_strings(r, "ids")) {
        auto v = parse_uint("0x" + id);
        if (!v || *v > 0xffff) {
          t.errors.push_back("intel.json: " + p.platform + ": bad device id " + id);
          continue;
        }
        p.ids.push_back(static_cast<std::uint16_t>(*v));
      }
      p.name_match = intel_strings(r, "name_match");
      p.drivers = intel_strings(r, "drivers");
      p.min_kernel = intel_string(r, "min_kernel");
      p.force_probe_kernel = intel_string(r, "force_probe_kernel");
      p.runtime = intel_string(r, "runtime");
      p.source = first_url(r);
      if (p.source.empty()) t.errors.push_back("intel.json: " + p.platform + ": no source");
      t.platforms.push_back(std::move(p));
    }
  }
  if (auto ipex = doc.find("ipex"); ipex != doc.end() && ipex->is_object()) {
    t.ipex.xpu_local_tag = intel_string(*ipex, "xpu_local_tag").value_or("xpu");
    t.ipex.last_release_series = intel_string(*ipex, "last_release_series");
    for (const auto& id : intel_strings(*ipex, "source")) {
      auto u = urls.find(id);
      if (u != urls.end()) t.ipex.sources.push_back(u->second);
    }
  }
  return t;
}

const IntelTable& intel_table() {
  static const IntelTable t = [] {
    const auto& files = embedded_compat_files();
    auto it = files.find("intel.json");
    return it == files.end() ? IntelTable{} : read_intel_table(it->second);
  }();
  return t;
}

IntelIdentity identify_intel(const IntelTable& t, std::uint16_t device_id,
                             const std::optional<std::string>& name) {
  for (const auto& p : t.platforms) {
    for (auto id : p.ids) {
      if (id == device_id) return {&p, "device id 0x" + hex(device_id, 4)};
    }
  }
  if (name) {
    const std::string l = to_lower(*name);
    for (const auto& p : t.platforms) {
      for (const auto& w : p.name_match) {
        if (l.find(to_lower(w)) != std::string::npos) {
          return {&p, "its pci.ids name '" + *name + "' (device id 0x" + hex(device_id, 4) +
                          " is not in the table)"};
        }
      }
    }
  }
  return {};
}

IntelIdentity identify_intel(const PciDevice& p) {
  if (p.vendor_id != kPciVendorIntel) return {};
  return identify_intel(intel_table(), p.device_id, p.device_name);
}

std::optional<std::string> intel_kernel_version(const std::optional<std::string>& release) {
  if (!release) return std::nullopt;
  // "6.8.0-51-generic" -> "6.8.0"
  std::string v;
  for (char c : *release) {
    if ((c >= '0' && c <= '9') || c == '.') {
      v += c;
    } else {
      break;
    }
  }
  while (!v.empty() && v.back() == '.') v.pop_back();
  if (v.empty()) return std::nullopt;
  return v;
}

}  // namespace gpudoctor
