// `xpu-smi discovery` (intel/xpumanager, DiscoveryTextPrinter): a table of
//   | Device ID | Device Information |
//   | 0         | Device Name: Intel(R) Arc(TM) B580 Graphics |
//   |           | PCI BDF Address: 0000:06:00.0 |
// with the border lines between devices. Each "Key: Value" cell is a fact of its device; the
// GPUs are not added to the snapshot's PCI list (no driver is stated: it would read as unbound).
//
// `xpu-smi health -l` / `-d N` (intel/xpumanager's smi_user_guide.md, "Get the device health
// status"): per device a `| Device ID | 0 |` row, then one row group per component
// (`| 1. GPU Core Temperature | Status: Ok |`, `| | Description: … |`, thresholds). Each
// component's cells are facts `xpu-smi.<device>.health.<component>.<key>`; the status words are
// xpumanager's (cli/src/core_stub/lib_core_stub.cpp healthStatusEnumToString: Unknown, OK,
// Warning, Critical; the guide's sample prints "Ok").
#include "paste/readers.hpp"
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_xpu_smi = "xpu-smi discovery";
constexpr const char* kFormat_xpu_smi_health = "xpu-smi health";

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

namespace {

/// The two cells of a `| left | right |` row, trimmed; nullopt for anything else.
std::optional<std::pair<std::string_view, std::string_view>> xpu_smi_cells(std::string_view row) {
  if (row.size() < 3 || row.front() != '|') return std::nullopt;
  const auto bar = row.find('|', 1);
  if (bar == std::string_view::npos) return std::nullopt;
  std::string_view right = row.substr(bar + 1);
  if (!right.empty() && right.back() == '|') right.remove_suffix(1);
  return std::make_pair(trim(row.substr(1, bar - 1)), trim(right));
}

/// "1. GPU Core Temperature" -> "GPU Core Temperature"; empty when the cell is not numbered.
std::string_view xpu_smi_component(std::string_view cell) {
  std::size_t k = 0;
  while (k < cell.size() && cell[k] >= '0' && cell[k] <= '9') ++k;
  if (k == 0 || k + 1 >= cell.size() || cell[k] != '.') return {};
  return trim(cell.substr(k + 1));
}

bool xpu_smi_device_number(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

}  // namespace

void read_xpu_smi_health(PasteSink& sink) {
  const auto& lines = sink.lines();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) continue;
    const auto head = xpu_smi_cells(trim(lines[i].text));
    if (!head || head->first != "Device ID" || !xpu_smi_device_number(head->second)) continue;
    // The header row alone is not enough: a component row must follow within the table.
    std::string device(head->second);
    std::string component;
    std::vector<std::size_t> rows{i};
    if (i > 0 && xpu_smi_border(trim(lines[i - 1].text)) && !sink.claimed(i - 1)) {
      rows.insert(rows.begin(), i - 1);
    }
    std::vector<std::tuple<std::string, std::string, std::size_t>> facts;
    std::size_t k = i + 1;
    for (; k < lines.size() && !sink.claimed(k); ++k) {
      const std::string_view row = trim(lines[k].text);
      if (xpu_smi_border(row)) {
        rows.push_back(k);
        continue;
      }
      const auto cells = xpu_smi_cells(row);
      if (!cells) break;
      if (cells->first == "Device ID") {
        if (!xpu_smi_device_number(cells->second)) break;
        device = std::string(cells->second);
        component.clear();
        rows.push_back(k);
        continue;
      }
      if (!cells->first.empty()) {
        const std::string_view c = xpu_smi_component(cells->first);
        if (c.empty()) break;  // another table (xpu-smi stats has unnumbered rows)
        component = std::string(c);
      }
      rows.push_back(k);
      const auto colon = cells->second.find(": ");
      if (component.empty() || colon == std::string_view::npos) continue;
      facts.emplace_back("xpu-smi." + device + ".health." + component + "." +
                             std::string(trim(cells->second.substr(0, colon))),
                         std::string(trim(cells->second.substr(colon + 2))), k);
    }
    if (facts.empty()) continue;  // a "Device ID" row of another table
    // The command line above the table ("xpu-smi health -l", "$ xpu-smi health -d 0").
    const std::size_t top = rows.front();
    if (top > 0 && !sink.claimed(top - 1)) {
      std::string_view cmd = trim(lines[top - 1].text);
      if (starts_with(cmd, "$ ")) cmd = trim(cmd.substr(2));
      if (starts_with(cmd, "xpu-smi health")) rows.push_back(top - 1);
    }
    for (std::size_t r : rows) sink.claim(r, kFormat_xpu_smi_health);
    for (auto& [key, value, line] : facts) sink.fact(std::move(key), std::move(value), line);
    i = k - 1;
  }
}

}  // namespace gpudoctor
