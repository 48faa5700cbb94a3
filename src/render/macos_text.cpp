#include "render/macos_text.hpp"

namespace gpudoctor {

namespace {

std::string memory_text(const MacGpu& g) {
  if (g.vram_bytes) return human_bytes(*g.vram_bytes) + " VRAM";
  if (g.vram_shared_bytes) return human_bytes(*g.vram_shared_bytes) + " shared (dynamic, max)";
  if (g.unified_memory == std::optional<bool>(true)) return "unified memory (shared with the CPU)";
  return "";
}

std::string display_text(const MacDisplay& d) {
  std::string s = d.name.value_or("display") + opt(d.resolution, " ");
  if (d.internal == std::optional<bool>(true)) s += " (built-in)";
  if (d.main == std::optional<bool>(true)) s += " (main)";
  return s;
}

}  // namespace

void render_macos_gpu(Block& b, const MacGpu& g) {
  std::string ids;
  if (g.vendor_id && g.device_id) ids = hex(*g.vendor_id, 4) + ":" + hex(*g.device_id, 4);
  std::string bus = g.bus.value_or("");
  if (g.external == std::optional<bool>(true)) bus = "external GPU";
  if (g.pcie_lane_width)
    bus += (bus.empty() ? "" : " ") + ("x" + std::to_string(*g.pcie_lane_width));
  b.line("macOS",
         dots({opt(g.vendor), ids, bus, g.revision_id ? "rev " + hex(*g.revision_id, 4) : ""}));
  b.more(
      dots({memory_text(g), opt(g.cores, "", " GPU cores"),
            g.metal_supported == std::optional<bool>(false) ? "no Metal" : opt(g.metal, "Metal: "),
            g.removable == std::optional<bool>(true) ? "removable" : ""}));
  std::vector<std::string> displays;
  for (const auto& d : g.displays) displays.push_back(display_text(d));
  if (!displays.empty()) b.more("displays: " + join(displays, ", "));
}

std::string macos_summary(const MacosInfo& m) {
  std::vector<std::string> parts;
  if (m.product_version) parts.push_back("macOS " + *m.product_version);
  if (m.arm64) parts.push_back(*m.arm64 ? "Apple silicon" : "Intel");
  for (const auto& g : m.gpus) {
    std::string extra = g.external == std::optional<bool>(true) ? "eGPU" : "";
    if (g.cores) extra += (extra.empty() ? "" : ", ") + std::to_string(*g.cores) + " GPU cores";
    parts.push_back(g.name.value_or("GPU") + (extra.empty() ? "" : " (" + extra + ")"));
  }
  return join(parts, ", ");
}

void render_macos_section(std::ostringstream& os, const MacosInfo& m, const Style& st) {
  os << st.bold("macOS") << "\n";
  Block b(os, st, 2);
  b.line("Version",
         dots({opt(m.product_name), opt(m.product_version), opt(m.build_version, "build ")}));
  std::string arch = m.arm64 == std::optional<bool>(true)    ? "Apple silicon"
                     : m.arm64 == std::optional<bool>(false) ? "Intel"
                                                             : "";
  std::string rosetta =
      m.translated == std::optional<bool>(true) ? "this shell runs under Rosetta" : "";
  b.line("CPU", dots({opt(m.cpu_brand), arch, rosetta}));
  b.line("Memory", opt_bytes(m.memory_bytes, ""));
  b.line("Env", dots({opt(m.system_version_compat, "SYSTEM_VERSION_COMPAT="),
                      opt(m.dyld_library_path, "DYLD_LIBRARY_PATH=")}));
  if (m.plaidml) {
    b.line("PlaidML", m.plaidml->device_ids.empty() ? m.plaidml->file + ": no device"
                                                    : join(m.plaidml->device_ids, ", "));
  }
  for (const auto& e : m.errors) os << "  " << st.yellow("! " + e) << "\n";
  os << "\n";
}

}  // namespace gpudoctor
