#include "bench/bench_text.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "bench/bench_report.hpp"
#include "bench/clip.hpp"
#include "smoke/matmul_reference.hpp"
#include "text.hpp"

namespace gpudoctor::bench {

namespace {

/// A device name longer than this is cut in the table (its details below give it whole), so
/// that a row stays on one line of a wide terminal.
constexpr std::size_t kMaxDeviceWidth = 48;
/// What a device's error may take of its row in the table; the details give it whole.
constexpr std::size_t kMaxRowError = 72;
constexpr const char* kGap = "  ";
/// Runs of one size whose median is this much slower than the best disagree: the table's
/// best-run figure (and its speed-up) is then marked "*" and the spread said under the table.
/// The median, not the slowest: among 50 runs one slow one (a context switch) is normal; a
/// median far from the best (two runs at 101 and 15 GFLOPS) is not.
constexpr double kMedianWarnPercent = 25;

std::optional<double> median_over_best_percent(const BenchPoint& p) {
  if (!p.ms || !p.median_ms || *p.ms <= 0) return std::nullopt;
  return (*p.median_ms / *p.ms - 1) * 100;
}

bool runs_disagree(const BenchPoint& p) {
  const auto over = median_over_best_percent(p);
  return p.gflops && over && *over > kMedianWarnPercent;
}

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

/// GFLOPS with three significant figures or so, whatever the magnitude.
std::string gflops_text(double v) { return fixed(v, v >= 100 ? 0 : v >= 10 ? 1 : 2); }

std::string pad(const std::string& s, std::size_t width) {
  const std::size_t w = columns(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

std::string pad_left(const std::string& s, std::size_t width) {
  const std::size_t w = columns(s);
  return w >= width ? s : std::string(width - w, ' ') + s;
}

/// Whose SGEMM ran: the library's name, or gpudoctor's own kernel.
std::string kernel_name(const BenchResult& r) {
  return r.series.blas.value_or(r.series.api == "blas" ? "BLAS" : "gpudoctor");
}

/// Two significant figures below 0.1 (lavapipe is thousands of times slower than BLAS).
std::string speedup_text(double v) {
  if (v >= 10) return fixed(v, 0);
  if (v >= 0.1) return fixed(v, 2);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", v);
  return buf;
}

std::string cell(const BenchPoint& p) {
  if (!p.gflops) return p.error ? "error" : "—";
  std::string s = gflops_text(*p.gflops);
  if (p.speedup_vs_cpu) s += " (" + speedup_text(*p.speedup_vs_cpu) + "×)";
  if (runs_disagree(p)) s += "*";
  return s;
}

/// Under the table: which figures came from runs that disagree, and by how much.
void disagreement_note(std::ostringstream& o, const BenchReport& report) {
  std::vector<std::string> parts;
  for (const auto& r : report.results) {
    for (const auto& p : r.series.points) {
      if (!runs_disagree(p)) continue;
      std::string part = kernel_name(r) + " on " + clip(r.series.device, 24) + " n=" +
                         std::to_string(p.n) + ": median run +" +
                         fixed(*median_over_best_percent(p), 0) + " %";
      if (p.spread_percent) part += ", slowest +" + fixed(*p.spread_percent, 0) + " %";
      if (p.repeats) part += " (" + std::to_string(*p.repeats) + " runs)";
      parts.push_back(part);
    }
  }
  if (parts.empty()) return;
  o << "\n! * The runs disagree (the machine was busy, or clocks changed): the table shows the "
       "best run, so a figure and its speed-up may be off by as much as this, over the best: "
    << join(parts, "; ") << ".\n";
}

const BenchPoint* point_at(const BenchResult& r, int n) {
  auto it = std::find_if(r.series.points.begin(), r.series.points.end(),
                         [&](const BenchPoint& p) { return p.n == n; });
  return it == r.series.points.end() ? nullptr : &*it;
}

/// Columns as wide as their widest entry: api, kernel and device left-aligned, one
/// right-aligned column of figures per size. A device that has no timed size says why in its
/// row instead of a row of dashes.
void table(std::ostringstream& o, const BenchReport& report, std::optional<std::size_t> width) {
  o << "Matmul fp32 C = A·B (n×n): GFLOPS, and (×) the speed-up over the fastest CPU BLAS\n\n";
  std::size_t api_w = columns("api"), kernel_w = columns("kernel"), device_w = columns("device");
  std::vector<std::size_t> cell_w;
  for (int n : report.sizes) cell_w.push_back(columns("n=" + std::to_string(n)));
  for (const auto& r : report.results) {
    api_w = std::max(api_w, columns(r.series.api));
    kernel_w = std::max(kernel_w, columns(kernel_name(r)));
    device_w = std::max(device_w, std::min(kMaxDeviceWidth, columns(r.series.device)));
    for (std::size_t i = 0; i < report.sizes.size(); ++i) {
      const BenchPoint* p = point_at(r, report.sizes[i]);
      cell_w[i] = std::max(cell_w[i], columns(p ? cell(*p) : "—"));
    }
  }
  if (width) {
    // The device column gives way first, down to 12 columns, so that a row fits the terminal.
    std::size_t rest = api_w + kernel_w + 2 * columns(kGap);
    for (const auto w : cell_w) rest += columns(kGap) + w;
    device_w = std::max<std::size_t>(12, *width > rest ? std::min(device_w, *width - rest) : 12);
  }
  auto row = [&](const std::string& api, const std::string& kernel, const std::string& device,
                 const std::vector<std::string>& cells) {
    std::string line = pad(api, api_w) + kGap + pad(kernel, kernel_w) + kGap + pad(device, device_w);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      line += kGap + (cells.size() == cell_w.size() ? pad_left(cells[i], cell_w[i]) : cells[i]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    o << line << "\n";
  };
  std::vector<std::string> header;
  for (int n : report.sizes) header.push_back("n=" + std::to_string(n));
  row("api", "kernel", "device", header);
  for (const auto& r : report.results) {
    const std::string device = clip(r.series.device, std::min(kMaxDeviceWidth, device_w));
    const bool timed = std::any_of(r.series.points.begin(), r.series.points.end(),
                                   [](const BenchPoint& p) { return p.gflops.has_value(); });
    if (!timed && r.series.error) {
      row(r.series.api, kernel_name(r), device, {clip("✗ " + *r.series.error, kMaxRowError)});
      continue;
    }
    std::vector<std::string> cells;
    for (int n : report.sizes) {
      const BenchPoint* p = point_at(r, n);
      cells.push_back(p ? cell(*p) : "—");
    }
    row(r.series.api, kernel_name(r), device, cells);
  }
}

std::string copies_line(const Bandwidth& b) {
  if (b.error) return "copies: not measured (" + *b.error + ")";
  std::vector<std::string> parts;
  auto add = [&](const char* what, const std::optional<double>& gbs) {
    if (gbs) parts.push_back(std::string(what) + " " + fixed(*gbs, 1) + " GB/s");
  };
  add("host→device", b.host_to_device_gbs);
  add("device→host", b.device_to_host_gbs);
  if (const auto& d = b.device_to_device_gbs) {
    // A copy reads and writes each byte: twice its rate goes through device memory, the figure
    // memory specifications and CUDA's bandwidthTest (2 × size / time) state.
    parts.push_back("on the device " + fixed(*d, 1) + " GB/s (" + fixed(2 * *d, 1) +
                    " GB/s of memory read and written)");
  }
  const std::string of = b.bytes ? " of " + human_bytes(*b.bytes) : "";
  return "copies" + of + ": " + (parts.empty() ? std::string("none timed") : join(parts, ", "));
}

std::string link_line(const LinkEstimate& l) {
  auto gen_width = [](std::optional<int> g, std::optional<int> w) {
    return "Gen" + (g ? std::to_string(*g) : std::string("?")) + " x" +
           (w ? std::to_string(*w) : std::string("?"));
  };
  std::string s = "PCIe " + l.address + ": " + gen_width(l.generation, l.width) + " (card max " +
                  gen_width(l.max_generation, l.max_width) + ")";
  if (l.gbs) s += ", " + fixed(*l.gbs, 1) + " GB/s per direction";
  if (l.host_to_device_percent)
    s += "; host→device reached " + fixed(*l.host_to_device_percent, 0) + " % of it";
  return s;
}

/// "n=1024: best 11.2 ms (192 GFLOPS), median 11.9 ms (180 GFLOPS), slowest +14 %, 5 runs"
std::string timing_line(const BenchPoint& p) {
  std::string s = "n=" + std::to_string(p.n) + ": best " + fixed(*p.ms, *p.ms >= 10 ? 1 : 3) +
                  " ms (" + gflops_text(*p.gflops) + " GFLOPS)";
  if (p.median_ms) {
    s += ", median " + fixed(*p.median_ms, *p.median_ms >= 10 ? 1 : 3) + " ms";
    if (auto g = smoke::matmul_gflops(p.n, *p.median_ms)) s += " (" + gflops_text(*g) + " GFLOPS)";
  }
  if (p.spread_percent) s += ", slowest +" + fixed(*p.spread_percent, 0) + " %";
  if (p.repeats) s += ", " + std::to_string(*p.repeats) + (*p.repeats == 1 ? " run" : " runs");
  return s;
}

void details(std::ostringstream& o, const BenchResult& r, bool has_cpu) {
  o << "\n" << r.series.device << " (" << r.series.api;
  if (r.series.library) o << ", " << *r.series.library;
  o << ")\n";
  if (r.series.kernel) o << "  kernel: " << *r.series.kernel << "\n";
  if (r.series_of_device > 1) {
    o << "  " << (r.judged ? "the fastest of " : "one of ") << r.series_of_device
      << (r.series.api == "blas" ? " CPU BLAS libraries" : " series on this device")
      << (r.judged ? ": the one it is judged on" : "") << "\n";
  }
  if (r.series.error) o << "  ✗ " << *r.series.error << "\n";
  if (r.best_gflops && r.best_n) {
    o << "  best: " << gflops_text(*r.best_gflops) << " GFLOPS at n=" << *r.best_n;
    if (r.series.api != "blas" && has_cpu) {
      o << (r.wins_from_n ? "; faster than the CPU BLAS from n=" + std::to_string(*r.wins_from_n)
                          : std::string("; not faster than the CPU BLAS at the largest size"));
    }
    o << "\n";
  }
  if (r.peak) {
    o << "  expected peak: " << fixed(r.peak->gflops, 0) << " GFLOPS (" << r.peak->basis << ")";
    if (r.best_gflops) o << "; best is " << fixed(*r.best_gflops / r.peak->gflops * 100, 1) << " %";
    o << "\n";
  } else if (r.peak_unknown) {
    o << "  expected peak: unknown (" << *r.peak_unknown << ")\n";
  }
  if (const auto& m = r.series.measured_peak) {
    if (m->gflops) {
      o << "  measured FMA peak: " << gflops_text(*m->gflops) << " GFLOPS (" << m->method << ")";
      if (r.best_gflops) {
        o << "; best matmul is " << fixed(*r.best_gflops / *m->gflops * 100, 0) << " % of it";
      }
      o << "\n";
    } else if (m->error) {
      o << "  measured FMA peak: not measured (" << *m->error << ")\n";
    }
  }
  for (const auto& p : r.series.points) {
    if (p.ms && p.gflops) {
      o << "  " << timing_line(p) << "\n";
    } else if (p.error) {
      o << "  n=" << p.n << ": ✗ " << *p.error << "\n";
    }
  }
  if (r.series.bandwidth) o << "  " << copies_line(*r.series.bandwidth) << "\n";
  if (r.link) o << "  " << link_line(*r.link) << "\n";
  for (const auto& w : r.warnings) o << "  ! " << w << "\n";
}

}  // namespace

std::string render_text(const BenchReport& report, std::optional<std::size_t> width) {
  std::ostringstream o;
  if (report.results.empty()) {
    o << "No device to benchmark: no CPU BLAS and no OpenCL, Vulkan or CUDA device answered.\n";
    return o.str();
  }
  table(o, report, width);
  disagreement_note(o, report);
  if (const auto note = cpu_only_note(report)) o << "\n! " << *note << "\n";
  const bool has_cpu = report.results.front().series.api == "blas";
  for (const auto& r : report.results) details(o, r, has_cpu);
  // A missing driver is a fact; a child that failed, crashed or hung is a problem.
  for (const auto& j : report.jobs) {
    if (j.status == ProbeStatus::ok) continue;
    const bool quiet = j.status == ProbeStatus::missing || j.status == ProbeStatus::skipped;
    o << "\n"
      << (quiet ? "• not benchmarked: " : "! ") << j.backend << " " << j.label << " ("
      << to_string(j.status) << "): " << j.detail << "\n";
  }
  return o.str();
}

}  // namespace gpudoctor::bench
