// macOS: each GPU as system_profiler lists it, the OS, CPU and variables, and what diff
// compares of them.
#include "backends.hpp"
#include "facts/area_summaries.hpp"
#include "facts/row_values.hpp"
#include "text.hpp"

namespace gpudoctor::facts {

namespace {

std::string memory_text(const MacGpu& g) {
  if (g.vram_bytes) return human_bytes(*g.vram_bytes) + " VRAM";
  if (g.vram_shared_bytes) return human_bytes(*g.vram_shared_bytes) + " shared (dynamic, max)";
  if (g.unified_memory == std::optional<bool>(true)) return "unified memory (shared with the CPU)";
  return "";
}

std::string display_text(const MacDisplay& d) {
  std::string s = d.name.value_or("display") + (d.resolution ? " " + *d.resolution : "");
  if (d.internal == std::optional<bool>(true)) s += " (built-in)";
  if (d.main == std::optional<bool>(true)) s += " (main)";
  return s;
}

std::optional<std::string> yes_no(const std::optional<bool>& b) {
  if (!b) return std::nullopt;
  return *b ? "yes" : "no";
}

/// "Radeon RX 5700 XT: macOS GPUFamily2 v1"; nothing when system_profiler said nothing.
std::optional<std::string> metal_of(const MacGpu& g) {
  std::optional<std::string> metal = g.metal;
  if (!metal && g.metal_supported) metal = *g.metal_supported ? "supported" : "not supported";
  if (!metal) return std::nullopt;
  return g.name.value_or("GPU") + ": " + *metal;
}

void compare_macos(const MacosInfo& m, Sink& out) {
  if (m.product_version) {
    // On a Mac the GPU drivers and Metal ship with the OS: its version is the driver's.
    out.compare(Weight::driver, "driver", "macOS",
                *m.product_version + (m.build_version ? " (" + *m.build_version + ")" : ""));
  }
  out.compare(Weight::python, "macos", "runs under Rosetta", yes_no(m.translated));
  std::vector<std::string> metal, external;
  for (const auto& g : m.gpus) {
    if (auto text = metal_of(g)) metal.push_back(*text);
    if (g.external != true) continue;
    const std::string lanes = g.pcie_lane_width ? std::to_string(*g.pcie_lane_width) : "?";
    external.push_back(g.name.value_or("GPU") + " (PCIe x" + lanes + ")");
  }
  out.compare_set(Weight::device, "macos", "Metal", metal);
  out.compare_set(Weight::device, "macos", "external GPUs", external);
  out.compare(Weight::variable, "variable", "DYLD_LIBRARY_PATH", m.dyld_library_path);
  out.compare(Weight::variable, "variable", "SYSTEM_VERSION_COMPAT", m.system_version_compat);
  if (m.plaidml) {
    out.compare(Weight::framework, "framework", "PlaidML device", join(m.plaidml->device_ids, ", "));
  }
  out.compare(Weight::host, "macos", "chip", m.cpu_brand);
  out.compare(Weight::host, "macos", "Apple silicon", yes_no(m.arm64));
  if (m.memory_bytes) out.compare(Weight::host, "macos", "memory", human_bytes(*m.memory_bytes));
}

}  // namespace

void macos_device_view(const Snapshot& snap, const MergedDevice& m, std::vector<Row>& rows) {
  if (!m.saw(kBackendMacos) || !snap.macos) return;
  const MacGpu& g = snap.macos->gpus[m.in(kBackendMacos).front()];
  std::string ids;
  if (g.vendor_id && g.device_id) ids = hex(*g.vendor_id, 4) + ":" + hex(*g.device_id, 4);
  std::string bus = g.bus.value_or("");
  if (g.external == std::optional<bool>(true)) bus = "external GPU";
  if (g.pcie_lane_width) bus += (bus.empty() ? "" : " ") + ("x" + std::to_string(*g.pcie_lane_width));
  add_row(rows, "macOS",
          RowValues()
              .opt("vendor", g.vendor)
              .text("ids", ids)
              .text("bus", bus)
              .text("revision", g.revision_id ? "rev " + hex(*g.revision_id, 4) : ""));
  RowValues second;
  const std::string memory = memory_text(g);
  if (g.vram_bytes) {
    second.number("vram_bytes", memory, double(*g.vram_bytes), "bytes");
  } else {
    second.text("memory", memory);
  }
  second.opt("cores", g.cores, "", " GPU cores")
      .text("metal", g.metal_supported == std::optional<bool>(false) ? "no Metal"
                     : g.metal                                       ? "Metal: " + *g.metal
                                                                     : "")
      .text("removable", g.removable == std::optional<bool>(true) ? "removable" : "");
  add_row(rows, "", std::move(second));
  std::vector<std::string> displays;
  for (const auto& d : g.displays) displays.push_back(display_text(d));
  if (!displays.empty())
    add_row(rows, "", RowValues().text("displays", "displays: " + join(displays, ", ")));
}

void macos_facts(const Snapshot& snap, Sink& out) {
  if (!snap.macos) return;
  const MacosInfo& m = *snap.macos;
  Section s{"macos", "macOS", "", {}, ""};
  // "macOS 12.0 · build 21A344", not "macOS · 12.0": the name and its version are one value.
  const bool named_version = m.product_name && m.product_version;
  add_row(s.rows, "Version",
          RowValues()
              .opt("product_name", named_version ? std::nullopt : m.product_name)
              .opt("product_version", m.product_version,
                   named_version ? *m.product_name + " " : std::string())
              .opt("build_version", m.build_version, "build "));
  const std::string arch = m.arm64 == std::optional<bool>(true)    ? "Apple silicon"
                           : m.arm64 == std::optional<bool>(false) ? "Intel"
                                                                   : "";
  add_row(
      s.rows, "CPU",
      RowValues()
          .opt("cpu_brand", m.cpu_brand)
          .text("architecture", arch)
          .text("rosetta",
                m.translated == std::optional<bool>(true) ? "this shell runs under Rosetta" : ""));
  add_row(s.rows, "Memory", RowValues().bytes("memory_bytes", m.memory_bytes, ""));
  add_row(s.rows, "Env",
          RowValues()
              .opt("SYSTEM_VERSION_COMPAT", m.system_version_compat, "SYSTEM_VERSION_COMPAT=")
              .opt("DYLD_LIBRARY_PATH", m.dyld_library_path, "DYLD_LIBRARY_PATH="));
  if (m.plaidml) {
    add_row(s.rows, "PlaidML",
            RowValues().text("plaidml", m.plaidml->device_ids.empty()
                                            ? m.plaidml->file + ": no device"
                                            : join(m.plaidml->device_ids, ", ")));
  }
  for (const auto& e : m.errors) {
    Row r;
    r.list = true;
    r.warning = true;
    r.parts = RowValues().text("error", e).take();
    s.rows.push_back(std::move(r));
  }
  out.section(std::move(s));
  compare_macos(m, out);
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

std::string macos_gpu_summary(const MacosInfo& m) {
  std::vector<std::string> gpus;
  for (const auto& g : m.gpus) {
    std::vector<std::string> parts;
    std::string ids;
    if (g.vendor) ids = *g.vendor;
    if (g.vendor_id && g.device_id) {
      ids += (ids.empty() ? "" : " ") + hex(*g.vendor_id, 4) + ":" + hex(*g.device_id, 4);
    }
    if (!ids.empty()) parts.push_back(ids);
    if (g.external == std::optional<bool>(true)) {
      parts.push_back("external GPU" +
                      (g.pcie_lane_width ? " PCIe x" + std::to_string(*g.pcie_lane_width) : ""));
    }
    if (g.cores) parts.push_back(std::to_string(*g.cores) + " GPU cores");
    if (auto memory = memory_text(g); !memory.empty()) parts.push_back(memory);
    gpus.push_back(g.name.value_or("GPU") + (parts.empty() ? "" : " (" + join(parts, ", ") + ")"));
  }
  if (!gpus.empty()) return join(gpus, ", ");
  for (const auto& source : m.sources) {
    if (source.find("system_profiler") != std::string::npos) {
      return "no GPU in system_profiler's display list";
    }
  }
  return "system_profiler's display list was not read";
}

}  // namespace gpudoctor::facts
