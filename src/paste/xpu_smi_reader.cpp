// `xpu-smi discovery` (intel/xpumanager, DiscoveryTextPrinter): a table of
//   | Device ID | Device Information |
//   | 0         | Device Name: Intel(R) Arc(TM) B580 Graphics |
//   |           | PCI BDF Address: 0000:06:00.0 |
// with the border lines between devices. Each "Key: Value" cell is a fact of its device; the
// GPUs are not added to the snapshot's PCI list (no driver is stated: it would read as unbound).
#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_xpu_smi = "xpu-smi discovery";

bool xpu_smi_border(std::string_view t) {
  return t.size() > 20 && t.front() == '+' && t.find_first_not_of("+-") == std::string_view::npos;
}

}  // namespace

void read_xpu_smi(PasteSink& sink) {
  const auto& lines = sink.lines();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) continue;
    const std::string_view t = trim(lines[i].text);
    if (!starts_with(t, "| Device ID") || t.find("Device Information") == std::string_view::npos) {
      continue;
    }
    if (i > 0 && xpu_smi_border(trim(lines[i - 1].text)) && !sink.claimed(i - 1)) {
      sink.claim(i - 1, kFormat_xpu_smi);
    }
    sink.claim(i, kFormat_xpu_smi);
    std::string device;
    for (std::size_t k = i + 1; k < lines.size(); ++k) {
      if (sink.claimed(k)) break;
      const std::string_view row = trim(lines[k].text);
      if (xpu_smi_border(row)) {
        sink.claim(k, kFormat_xpu_smi);
        continue;
      }
      if (row.size() < 3 || row.front() != '|') break;
      const auto bar = row.find('|', 1);
      if (bar == std::string_view::npos) break;
      const std::string_view id = trim(row.substr(1, bar - 1));
      std::string_view cell = row.substr(bar + 1);
      if (!cell.empty() && cell.back() == '|') cell.remove_suffix(1);
      cell = trim(cell);
      if (!id.empty()) device = std::string(id);
      const auto colon = cell.find(": ");
      if (colon != std::string_view::npos && !device.empty()) {
        sink.fact("xpu-smi." + device + "." + std::string(trim(cell.substr(0, colon))),
                  std::string(trim(cell.substr(colon + 2))), k);
      }
      sink.claim(k, kFormat_xpu_smi);
    }
  }
}

}  // namespace gpudoctor
