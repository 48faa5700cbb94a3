// nvidia-smi's table without its header line: a middle slice a person copied (the GPU rows of a
// Windows TCC/WDDM table, one GPU's block, the processes box), or what a page kept after cutting
// the top off. read_nvidia_smi takes every table that has its header; this reads the rows it left,
// as the same format, so both halves of one table are one part.
#include <regex>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_smi_rows = "nvidia-smi";

/// "0  Tesla P100-PCIE... TCC" | "00000000:04:00.0 Off": a GPU's first row.
struct SmiGpuRow {
  int index = 0;
  std::string name;
  std::string mode;
  std::string bus_id;
};
std::optional<SmiGpuRow> smi_gpu_row(std::string_view t) {
  static const std::regex bus(R"(^([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7])\b)");
  const auto c = smi_table_cells(t);
  if (c.size() < 3) return std::nullopt;
  const auto words = split_words(c[0]);
  if (words.size() < 3) return std::nullopt;
  const auto idx = parse_int(words[0]);
  if (!idx || *idx < 0 || *idx > 1024) return std::nullopt;
  const std::string& mode = words.back();
  if (mode != "On" && mode != "Off" && mode != "TCC" && mode != "WDDM" && mode != "N/A") {
    return std::nullopt;
  }
  std::smatch m;
  const std::string second = c[1];
  if (!std::regex_search(second, m, bus)) return std::nullopt;
  SmiGpuRow r;
  r.index = static_cast<int>(*idx);
  r.name = join(std::vector<std::string>(words.begin() + 1, words.end() - 1), " ");
  r.mode = mode;
  r.bus_id = m[1].str();
  return r;
}

std::optional<std::uint64_t> smi_mib(std::string_view s) {
  s = trim(s);
  if (!ends_with(s, "MiB")) return std::nullopt;
  const auto v = parse_uint(trim(s.substr(0, s.size() - 3)));
  return v ? std::optional<std::uint64_t>(*v * 1024 * 1024) : std::nullopt;
}

bool smi_table_line(std::string_view t) {
  return !t.empty() && (t.front() == '|' || t.front() == '+');
}

/// The processes box's own lines: its title and column heads.
bool smi_processes_line(std::string_view t) {
  return starts_with(t, "| Processes:") ||
         (starts_with(t, "|  GPU   GI   CI") && t.find("PID") != std::string_view::npos);
}

void read_smi_run(PasteSink& sink, std::size_t from, std::size_t to) {
  const auto& lines = sink.lines();
  std::optional<int> gpu;
  int row = 0;
  for (std::size_t i = from; i < to; ++i) {
    const std::string_view t = trim(lines[i].text);
    if (t.empty()) continue;
    sink.claim(i, kFormat_smi_rows);
    if (smi_table_rule(t)) {
      gpu.reset();
      continue;
    }
    if (const auto r = smi_gpu_row(t)) {
      gpu = r->index;
      row = 0;
      NvmlDevice& d = sink.nvidia_gpu(r->index);
      if (!r->name.empty() && !d.name) d.name = r->name;
      if (!r->name.empty()) sink.fact("gpu.name", r->name, i);
      if (!d.pci_bus_id) d.pci_bus_id = r->bus_id;
      if (r->mode == "On" || r->mode == "Off") d.persistence_mode = r->mode == "On";
      if (r->mode == "TCC" || r->mode == "WDDM") {
        sink.fact("nvidia.driver_model", r->mode, i);
        if (!sink.host().os_id) sink.host().os_id = "windows";
      }
      continue;
    }
    if (!gpu) continue;
    const auto c = smi_table_cells(t);
    if (c.size() < 3) continue;
    ++row;
    NvmlDevice& d = sink.nvidia_gpu(*gpu);
    if (row == 1) {
      const auto slash = c[1].find('/');
      if (slash != std::string::npos) {
        if (!d.memory_used_bytes) d.memory_used_bytes = smi_mib(c[1].substr(0, slash));
        if (!d.memory_total_bytes) d.memory_total_bytes = smi_mib(c[1].substr(slash + 1));
      }
    }
  }
}

}  // namespace

void read_nvidia_smi_rows(PasteSink& sink) {
  const auto& lines = sink.lines();
  std::size_t i = 0;
  while (i < lines.size()) {
    if (sink.claimed(i) || !smi_table_line(trim(lines[i].text))) {
      ++i;
      continue;
    }
    // The run of table lines (a blank line between two boxes joins them).
    std::size_t end = i;
    bool table = false;
    while (end < lines.size() && !sink.claimed(end)) {
      const std::string_view t = trim(lines[end].text);
      if (t.empty()) {
        if (end + 1 < lines.size() && smi_table_line(trim(lines[end + 1].text))) {
          ++end;
          continue;
        }
        break;
      }
      if (!smi_table_line(t)) break;
      table = table || smi_gpu_row(t).has_value() || smi_processes_line(t);
      ++end;
    }
    if (table) read_smi_run(sink, i, end);
    i = end == i ? i + 1 : end;
  }
}

}  // namespace gpudoctor
