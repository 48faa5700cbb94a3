#include "parse/system_profiler.hpp"

#include <cctype>

#include "json_dom.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

struct KnownVendor {
  std::string_view key;  ///< lower-case: the JSON "sppci_vendor_<key>" and the text's first word
  std::string_view name;
  std::uint32_t pci_id;  ///< the PCI vendor id system_profiler's text prints beside the name
};
constexpr KnownVendor kProfilerVendors[] = {
    {"apple", "Apple", 0x106b}, {"amd", "AMD", 0x1002},       {"ati", "AMD", 0x1002},
    {"intel", "Intel", 0x8086}, {"nvidia", "NVIDIA", 0x10de},
};

const KnownVendor* known_vendor(std::string_view key) {
  for (const auto& v : kProfilerVendors) {
    if (v.key == key) return &v;
  }
  return nullptr;
}

std::optional<std::uint32_t> hex_id(std::string_view s) {
  auto v = parse_uint(trim(s));
  if (!v || *v > 0xffffffffULL) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

/// "AMD (0x1002)", "Intel", "sppci_vendor_amd", "sppci_vendor_Apple".
void set_vendor(MacGpu& g, std::string_view raw) {
  raw = trim(raw);
  std::string key = to_lower(raw);
  if (starts_with(key, "sppci_vendor_")) key = key.substr(13);
  std::optional<std::uint32_t> id;
  if (auto open = key.find("(0x"); open != std::string::npos) {
    auto close = key.find(')', open);
    if (close != std::string::npos) id = hex_id(key.substr(open + 1, close - open - 1));
    key = std::string(trim(key.substr(0, open)));
  }
  const KnownVendor* v = known_vendor(key);
  g.vendor = v ? std::string(v->name) : std::string(raw);
  g.vendor_id = id ? id : v ? std::optional<std::uint32_t>(v->pci_id) : std::nullopt;
}

/// system_profiler's enumerated values: "spdisplays_metal3" → "Metal 3".
std::string metal_text(std::string_view raw) {
  std::string s(raw);
  if (starts_with(s, "spdisplays_")) s = s.substr(11);
  if (starts_with(s, "metal") && s.size() > 5 && std::isdigit(static_cast<unsigned char>(s[5]))) {
    return "Metal " + s.substr(5);
  }
  if (starts_with(s, "mtlgpufamily")) return "GPU family " + s.substr(12);
  if (starts_with(s, "metalfeaturesetfamily")) return "feature set family " + s.substr(21);
  return s;
}

std::optional<int> lane_width(std::string_view s) {
  s = trim(s);
  if (starts_with(s, "x")) s.remove_prefix(1);
  auto v = parse_uint(s);
  if (!v || *v > 64) return std::nullopt;
  return static_cast<int>(*v);
}

std::optional<int> small_count(std::string_view s) {
  auto words = split_words(s);
  if (words.empty()) return std::nullopt;
  auto v = parse_uint(words.front());
  if (!v || *v > 100000) return std::nullopt;
  return static_cast<int>(*v);
}

/// Apple silicon's GPU has no memory of its own: it shares the system memory.
void infer_unified_memory(MacGpu& g) {
  if (g.vendor == std::optional<std::string>("Apple") && !g.vram_bytes && !g.vram_shared_bytes) {
    g.unified_memory = true;
  }
}

// ---- -json

std::optional<std::string> str(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

std::optional<bool> yes_no(const Json& j, const char* key) {
  auto v = str(j, key);
  if (!v) return std::nullopt;
  if (*v == "spdisplays_yes" || *v == "attrib_yes") return true;
  if (*v == "spdisplays_no" || *v == "attrib_no") return false;
  return std::nullopt;
}

MacDisplay json_display(const Json& d) {
  MacDisplay out;
  out.name = str(d, "_name");
  out.resolution = str(d, "_spdisplays_resolution");
  if (!out.resolution) out.resolution = str(d, "spdisplays_resolution");
  out.main = yes_no(d, "spdisplays_main");
  if (auto c = str(d, "spdisplays_connection_type")) out.internal = *c == "spdisplays_internal";
  return out;
}

std::optional<std::string> json_bus(const Json& j) {
  auto bus = str(j, "sppci_bus");
  if (!bus) return std::nullopt;
  if (*bus == "spdisplays_builtin" || *bus == "spdisplays_builtin_device") return "built-in";
  if (*bus == "spdisplays_pcie_device" || *bus == "spdisplays_pcie") return "PCIe";
  if (*bus == "spdisplays_tb_device") return "Thunderbolt";
  return bus;
}

MacGpu json_gpu(const Json& j) {
  MacGpu g;
  g.name = str(j, "sppci_model");
  if (!g.name) g.name = str(j, "_name");
  if (auto v = str(j, "spdisplays_vendor")) set_vendor(g, *v);
  if (auto v = str(j, "spdisplays_vendor-id")) g.vendor_id = hex_id(*v);
  if (auto v = str(j, "spdisplays_device-id")) g.device_id = hex_id(*v);
  if (auto v = str(j, "spdisplays_revision-id")) g.revision_id = hex_id(*v);
  g.bus = json_bus(j);
  if (auto t = str(j, "sppci_device_type")) {
    if (*t == "spdisplays_egpu") g.external = true;
    if (*t == "spdisplays_gpu") g.external = false;
  }
  if (g.external == std::optional<bool>(true)) g.bus = "external";
  g.removable = yes_no(j, "spdisplays_gpu_removable");
  if (auto v = str(j, "spdisplays_pcie_width")) g.pcie_lane_width = lane_width(*v);
  for (const char* key : {"spdisplays_vram", "_spdisplays_vram"}) {
    if (auto v = str(j, key); v && !g.vram_bytes) g.vram_bytes = parse_profiler_size(*v);
  }
  if (auto v = str(j, "spdisplays_vram_shared")) g.vram_shared_bytes = parse_profiler_size(*v);
  for (const char* key :
       {"spdisplays_mtlgpufamilysupport", "spdisplays_metalfamily", "spdisplays_metal"}) {
    if (auto v = str(j, key); v && !g.metal) g.metal = metal_text(*v);
  }
  if (g.metal) g.metal_supported = true;
  if (auto v = str(j, "sppci_cores")) g.cores = small_count(*v);
  g.rom_revision = str(j, "spdisplays_rom-revision");
  auto displays = j.find("spdisplays_ndrvs");
  if (displays != j.end() && displays->is_array()) {
    for (const auto& d : *displays) {
      if (d.is_object()) g.displays.push_back(json_display(d));
    }
  }
  infer_unified_memory(g);
  return g;
}

// ---- text

/// "Key: value" → (key, value); a line that ends in ':' has an empty value.
std::pair<std::string_view, std::string_view> key_value(std::string_view line) {
  auto colon = line.find(": ");
  if (colon == std::string_view::npos) {
    if (ends_with(line, ":")) return {line.substr(0, line.size() - 1), {}};
    return {line, {}};
  }
  return {line.substr(0, colon), trim(line.substr(colon + 2))};
}

bool is_yes(std::string_view v) { return v == "Yes"; }

void text_display_property(MacDisplay& d, std::string_view key, std::string_view value) {
  if (key == "Resolution") d.resolution = std::string(value);
  if (key == "Main Display") d.main = is_yes(value);
  if (key == "Connection Type") d.internal = value == "Internal";
  if (key == "Display Type" && to_lower(value).find("built-in") != std::string::npos) {
    d.internal = true;
  }
}

void text_gpu_property(MacGpu& g, std::string_view key, std::string_view value) {
  const std::string v(value);
  if (key == "Type") {
    g.external = value == "External GPU";
    if (*g.external) g.bus = "external";
  }
  if (key == "Bus" && g.external != std::optional<bool>(true)) {
    g.bus = value == "Built-In" ? "built-in" : v;
  }
  if (key == "PCIe Lane Width") g.pcie_lane_width = lane_width(value);
  if (key == "VRAM (Total)") g.vram_bytes = parse_profiler_size(value);
  if (key == "VRAM (Dynamic, Max)") g.vram_shared_bytes = parse_profiler_size(value);
  if (key == "Vendor") set_vendor(g, value);
  if (key == "Device ID") g.device_id = hex_id(value);
  if (key == "Revision ID") g.revision_id = hex_id(value);
  if (key == "ROM Revision") g.rom_revision = v;
  if (key == "Total Number of Cores") g.cores = small_count(value);
  if (key == "GPU is Removable") g.removable = is_yes(value);
  if (key == "Metal" || key == "Metal Support" || key == "Metal Family") {
    g.metal_supported = starts_with(value, "Supported") || starts_with(value, "Metal");
    std::string_view rest = value;
    if (starts_with(rest, "Supported, ")) rest.remove_prefix(11);
    if (starts_with(rest, "feature set ")) rest.remove_prefix(12);
    if (*g.metal_supported) g.metal = std::string(rest);
  }
}

}  // namespace

std::optional<std::uint64_t> parse_profiler_size(std::string_view text) {
  auto words = split_words(text);
  if (words.size() != 2) return std::nullopt;
  auto n = parse_uint(words[0]);
  if (!n) return std::nullopt;
  std::uint64_t unit = words[1] == "GB" ? 1ULL << 30 : words[1] == "MB" ? 1ULL << 20 : 0;
  if (unit == 0 || *n > (1ULL << 20)) return std::nullopt;
  return *n * unit;
}

DisplaysReport parse_system_profiler_displays(std::string_view json) {
  DisplaysReport out;
  Json root = parse_json_bounded(json);
  if (root.is_discarded() || !root.is_object()) {
    out.error = "not a JSON object";
    return out;
  }
  auto items = root.find("SPDisplaysDataType");
  if (items == root.end() || !items->is_array()) {
    out.error = "no \"SPDisplaysDataType\" list";
    return out;
  }
  for (const auto& item : *items) {
    if (item.is_object()) out.gpus.push_back(json_gpu(item));
  }
  return out;
}

DisplaysReport parse_system_profiler_displays_text(std::string_view text) {
  DisplaysReport out;
  std::optional<std::size_t> displays_indent;  // set while inside a GPU's "Displays:" list
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (line.empty() || line == "Graphics/Displays:") continue;
    const std::size_t indent = indent_of(raw);
    auto [key, value] = key_value(line);
    if (key == "Chipset Model") {  // the first property of every GPU
      out.gpus.emplace_back();
      out.gpus.back().name = std::string(value);
      displays_indent.reset();
      continue;
    }
    if (out.gpus.empty()) continue;  // the GPU's heading line
    MacGpu& g = out.gpus.back();
    if (displays_indent && indent > *displays_indent) {
      if (value.empty()) {
        g.displays.emplace_back();
        g.displays.back().name = std::string(key);
      } else if (!g.displays.empty()) {
        text_display_property(g.displays.back(), key, value);
      }
      continue;
    }
    displays_indent.reset();
    if (key == "Displays" && value.empty()) {
      displays_indent = indent;
    } else {
      text_gpu_property(g, key, value);
    }
  }
  for (auto& g : out.gpus) infer_unified_memory(g);
  if (out.gpus.empty()) out.error = "no \"Chipset Model\" line";
  return out;
}

}  // namespace gpudoctor
