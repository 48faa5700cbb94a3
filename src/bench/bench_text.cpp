#include "bench/bench_text.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "bench/clip.hpp"
#include "smoke/matmul_reference.hpp"
#include "text.hpp"

namespace gpudoctor::bench {

namespace {

constexpr std::size_t kNameWidth = 44;
constexpr int kCellWidth = 17;

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

/// GFLOPS with three significant figures or so, whatever the magnitude.
std::string gflops_text(double v) { return fixed(v, v >= 100 ? 0 : v >= 10 ? 1 : 2); }

std::string pad(const std::string& s, std::size_t width) {
  const std::size_t w = columns(s);
  return w >= width ? s + " " : s + std::string(width - w, ' ');
}

/// "opencl  CLBlast  pthread-…": a vendor BLAS's series names the library, gpudoctor's own
/// kernel and a lone CPU BLAS do not.
std::string row_name(const BenchResult& r) {
  std::string name = r.series.api + "  ";
  if (r.series.blas && (r.series.api != "blas" || r.series_of_device > 1)) {
    name += *r.series.blas + "  ";
  }
  return clip(name + r.series.device, kNameWidth - 1);
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
  return s;
}

void table(std::ostringstream& o, const BenchReport& report) {
  o << "Matmul fp32 C = A·B (n×n): GFLOPS, and (×) the speed-up over the fastest CPU BLAS\n\n";
  o << pad("api   device", kNameWidth);
  for (int n : report.sizes) o << pad("n=" + std::to_string(n), kCellWidth);
  o << "\n";
  for (const auto& r : report.results) {
    o << pad(row_name(r), kNameWidth);
    for (int n : report.sizes) {
      auto it = std::find_if(r.series.points.begin(), r.series.points.end(),
                             [&](const BenchPoint& p) { return p.n == n; });
      o << pad(it == r.series.points.end() ? "—" : cell(*it), kCellWidth);
    }
    o << "\n";
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
    if (p.ms && p.gflops) o << "  " << timing_line(p) << "\n";
  }
  if (r.series.bandwidth) o << "  " << copies_line(*r.series.bandwidth) << "\n";
  if (r.link) o << "  " << link_line(*r.link) << "\n";
  for (const auto& w : r.warnings) o << "  ! " << w << "\n";
}

}  // namespace

std::string render_text(const BenchReport& report) {
  std::ostringstream o;
  if (report.results.empty()) {
    o << "No device to benchmark: no CPU BLAS and no OpenCL, Vulkan or CUDA device answered.\n";
    return o.str();
  }
  table(o, report);
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
