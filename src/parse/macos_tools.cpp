#include "parse/macos_tools.hpp"

#include "json_dom.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

std::map<std::string, std::string> key_values(std::string_view text, std::string_view seps) {
  std::map<std::string, std::string> out;
  for (std::string_view line : split_lines(text)) {
    auto at = line.find_first_of(seps);
    if (at == std::string_view::npos) continue;
    std::string key(trim(line.substr(0, at)));
    if (key.empty()) continue;
    out[key] = std::string(trim(line.substr(at + 1)));
  }
  return out;
}

std::optional<bool> flag(const std::map<std::string, std::string>& m, const std::string& key) {
  auto it = m.find(key);
  if (it == m.end()) return std::nullopt;
  if (it->second == "1") return true;
  if (it->second == "0") return false;
  return std::nullopt;
}

std::optional<std::string> value(const std::map<std::string, std::string>& m,
                                 const std::string& key) {
  auto it = m.find(key);
  if (it == m.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

}  // namespace

std::map<std::string, std::string> parse_sysctl(std::string_view text) {
  return key_values(text, ":=");
}

std::map<std::string, std::string> parse_sw_vers(std::string_view text) {
  return key_values(text, ":");
}

void apply_sysctl(MacosInfo& info, const std::map<std::string, std::string>& s) {
  info.cpu_brand = value(s, "machdep.cpu.brand_string");
  info.arm64 = flag(s, "hw.optional.arm64");
  info.translated = flag(s, "sysctl.proc_translated");
  if (auto mem = value(s, "hw.memsize")) info.memory_bytes = parse_uint(*mem);
}

void apply_sw_vers(MacosInfo& info, const std::map<std::string, std::string>& s) {
  info.product_name = value(s, "ProductName");
  info.product_version = value(s, "ProductVersion");
  info.build_version = value(s, "BuildVersion");
}

std::optional<PlaidmlConfig> parse_plaidml_config(std::string_view text) {
  Json j = parse_json_bounded(text);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  PlaidmlConfig c;
  auto ids = j.find("PLAIDML_DEVICE_IDS");
  if (ids != j.end() && ids->is_array()) {
    for (const auto& id : *ids) {
      if (id.is_string()) c.device_ids.push_back(id.get<std::string>());
    }
  }
  auto exp = j.find("PLAIDML_EXPERIMENTAL");
  if (exp != j.end() && exp->is_boolean()) c.experimental = exp->get<bool>();
  return c;
}

}  // namespace gpudoctor
