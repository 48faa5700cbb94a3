#include "render/live_text.hpp"

#include <string>
#include <vector>

#include "render/terminal_text.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr std::size_t kLiveColumns = 80;
constexpr std::size_t kLiveLabelWidth = 10;

std::string live_mib_text(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

/// `text` cut to `width` display columns, ending in an ellipsis when cut.
std::string live_fit(const std::string& text, std::size_t width, const Style& st) {
  if (display_width(text) <= width) return text;
  const std::string dots = st.unicode() ? "\u2026" : "...";
  const std::size_t keep = width > display_width(dots) ? width - display_width(dots) : 0;
  std::string out;
  std::size_t cols = 0;
  for (std::size_t i = 0; i < text.size() && cols < keep;) {
    std::uint32_t cp = 0;
    std::size_t n = utf8_at(text, i, cp);
    if (n == 0) n = 1;
    out.append(text, i, n);
    i += n;
    ++cols;
  }
  return out + dots;
}

void live_row(std::ostringstream& os, const std::string& label, const std::string& value,
              const Style& st) {
  if (value.empty()) return;
  std::string l = label;
  if (l.size() < kLiveLabelWidth) l.resize(kLiveLabelWidth, ' ');
  const std::size_t indent = 4 + kLiveLabelWidth;
  os << "    " << st.bold(l) << live_fit(single_line(value), kLiveColumns - indent, st) << "\n";
}

std::string of_max(std::optional<std::uint32_t> now, std::optional<std::uint32_t> max) {
  if (!now && !max) return "";
  if (now && max) return std::to_string(*now) + " of " + std::to_string(*max) + " MHz";
  if (now) return std::to_string(*now) + " MHz";
  return "max " + std::to_string(*max) + " MHz";
}

std::string yes_no_pending(std::optional<bool> pending) {
  if (!pending) return "";
  return *pending ? ", pending a reset" : ", none pending";
}

void render_live_gpu(std::ostringstream& os, const LiveGpu& g, const Style& st) {
  std::string head = "GPU " + std::to_string(g.index);
  if (g.name) head += "  " + *g.name;
  const std::string tail = (g.pci_bus_id ? "  " + *g.pci_bus_id : "") + "  " + g.source;
  os << "  " << st.bold(live_fit(single_line(head), kLiveColumns - 2 - display_width(tail), st))
     << st.dim(tail) << "\n";

  std::string mem;
  if (g.memory_used_bytes) mem = live_mib_text(*g.memory_used_bytes) + " used";
  if (g.memory_total_bytes) mem += (mem.empty() ? "" : " of ") + live_mib_text(*g.memory_total_bytes);
  if (g.memory_free_bytes) mem += (mem.empty() ? "" : ", ") + live_mib_text(*g.memory_free_bytes) + " free";
  live_row(os, "memory", mem, st);

  std::string load;
  if (g.utilization_gpu_percent) load = "GPU " + std::to_string(*g.utilization_gpu_percent) + "%";
  if (g.utilization_memory_percent) {
    load += (load.empty() ? "" : ", ") + std::string("memory ") +
            std::to_string(*g.utilization_memory_percent) + "%";
  }
  live_row(os, "load", load, st);

  std::string temp;
  if (g.temperature_c) temp = std::to_string(*g.temperature_c) + " C";
  if (g.temperature_slowdown_c) {
    temp += (temp.empty() ? "" : ", ") + std::string("slowdown at ") +
            std::to_string(*g.temperature_slowdown_c) + " C";
  }
  if (g.temperature_shutdown_c) {
    temp += (temp.empty() ? "" : ", ") + std::string("shutdown at ") +
            std::to_string(*g.temperature_shutdown_c) + " C";
  }
  live_row(os, "temp", temp, st);

  std::string power;
  if (g.power_draw_mw) power = std::to_string(*g.power_draw_mw / 1000) + " W";
  if (g.power_limit_mw) {
    power += (power.empty() ? "limit " : " of ") + std::to_string(*g.power_limit_mw / 1000) + " W";
  }
  live_row(os, "power", power, st);

  std::string clocks;
  if (auto s = of_max(g.clock_graphics_mhz, g.clock_graphics_max_mhz); !s.empty()) {
    clocks = "graphics " + s;
  }
  if (auto s = of_max(g.clock_memory_mhz, g.clock_memory_max_mhz); !s.empty()) {
    clocks += (clocks.empty() ? "" : ", ") + std::string("memory ") + s;
  }
  live_row(os, "clocks", clocks, st);

  if (g.throttle_reasons) {
    live_row(os, "held by",
             g.throttle_reasons->empty() ? "nothing" : join(*g.throttle_reasons, ", "), st);
  }

  std::string ecc;
  if (g.ecc_enabled && !*g.ecc_enabled) {
    ecc = "off";
  } else if (g.ecc_uncorrected_volatile || g.ecc_corrected_volatile) {
    ecc = std::to_string(g.ecc_uncorrected_volatile.value_or(0)) + " uncorrected, " +
          std::to_string(g.ecc_corrected_volatile.value_or(0)) + " corrected since load";
    if (g.ecc_uncorrected_aggregate) {
      ecc += "; " + std::to_string(*g.ecc_uncorrected_aggregate) + " uncorrected ever";
    }
  }
  live_row(os, "ecc", ecc, st);

  if (g.retired_pages_single_bit || g.retired_pages_double_bit || g.retired_pages_pending) {
    std::string r;
    if (g.retired_pages_single_bit || g.retired_pages_double_bit) {
      r = std::to_string(g.retired_pages_single_bit.value_or(0) +
                         g.retired_pages_double_bit.value_or(0)) +
          " pages";
    }
    r += yes_no_pending(g.retired_pages_pending);
    if (starts_with(r, ", ")) r = r.substr(2);
    live_row(os, "retired", r, st);
  }
  if (g.remapped_rows_correctable || g.remapped_rows_uncorrectable || g.remapped_rows_pending) {
    std::string r = std::to_string(g.remapped_rows_correctable.value_or(0) +
                                   g.remapped_rows_uncorrectable.value_or(0)) +
                    " rows" + yes_no_pending(g.remapped_rows_pending);
    if (g.remapped_rows_failure.value_or(false)) r += ", a remapping failed";
    live_row(os, "remapped", r, st);
  }

  if (!g.processes) {
    live_row(os, "processes",
             g.source == "amdgpu-sysfs" ? "not read (amdgpu's sysfs does not list them)"
                                        : "not read",
             st);
  } else if (g.processes->empty()) {
    live_row(os, "processes", "none", st);
  } else {
    live_row(os, "processes", std::to_string(g.processes->size()) + " running", st);
    for (const auto& p : *g.processes) {
      std::string right = "  " + (p.used_memory_bytes ? live_mib_text(*p.used_memory_bytes)
                                                      : std::string("? MiB")) +
                          "  " + p.kind;
      std::string left = "pid " + std::to_string(p.pid) + "  " +
                         single_line(p.process_name.value_or("(name not read)"));
      const std::size_t room = kLiveColumns - 6 - display_width(right);
      os << "      " << live_fit(left, room, st) << st.dim(right) << "\n";
    }
  }
}

}  // namespace

void render_live_text(std::ostringstream& os, const Snapshot& snap, const Style& st) {
  if (!snap.live_state) return;
  const LiveState& live = *snap.live_state;
  if (live.gpus.empty() && live.not_examined.empty()) return;
  os << st.bold("Live state") << "  "
     << st.dim(live.live ? "this machine, now" : "as the tree's files hold it, not now") << "\n";
  for (const auto& g : live.gpus) render_live_gpu(os, g, st);
  for (const auto& why : live.not_examined) {
    os << "  " << st.yellow(live_fit("not examined: " + single_line(why), kLiveColumns - 2, st))
       << "\n";
  }
  os << "\n";
}

}  // namespace gpudoctor
