#include "bench/bench_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "bench/clip.hpp"
#include "text.hpp"

namespace gpudoctor::bench {

namespace {

constexpr double kWidth = 900;
constexpr double kHeight = 520;
constexpr double kLeft = 80;
constexpr double kRight = 300;  // room for the legend
constexpr double kTop = 50;
constexpr double kBottom = 70;
constexpr std::size_t kLegendColumns = 40;  // what fits in kRight at font-size 12
constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                   "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string escape(const std::string& s) { return markup_escape(s); }

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string label(const BenchResult& r) {
  const std::string blas = r.series.blas && r.series.api != "blas" ? " " + *r.series.blas : "";
  return r.series.api + blas + ": " + r.series.device;
}

/// A logarithmic axis from lo to hi (both > 0) onto [from, to] pixels.
struct LogAxis {
  double lo, hi, from, to;
  double at(double v) const {
    const double span = std::log(hi) - std::log(lo);
    return from + (to - from) * (std::log(v) - std::log(lo)) / span;
  }
};

bool plotted(const BenchPoint& p) { return p.gflops && *p.gflops > 0; }

/// Whole decades around every GFLOPS value.
std::pair<double, double> gflops_range(const BenchReport& report) {
  double lo = 0, hi = 0;
  for (const auto& r : report.results) {
    for (const auto& p : r.series.points) {
      if (!plotted(p)) continue;
      lo = lo == 0 ? *p.gflops : std::min(lo, *p.gflops);
      hi = std::max(hi, *p.gflops);
    }
  }
  if (hi == 0) return {1, 10};
  double a = std::pow(10, std::floor(std::log10(lo)));
  double b = std::pow(10, std::ceil(std::log10(hi)));
  if (b <= a) b = a * 10;
  return {a, b};
}

std::pair<double, double> size_range(const BenchReport& report) {
  if (report.sizes.empty()) return {1, 2};
  double lo = report.sizes.front(), hi = report.sizes.back();
  if (hi <= lo) return {lo / 2, hi * 2};
  return {lo, hi};
}

void axes(std::ostringstream& o, const BenchReport& report, const LogAxis& x, const LogAxis& y) {
  const double x0 = kLeft, x1 = kWidth - kRight, y0 = kHeight - kBottom, y1 = kTop;
  o << "<g class=\"axes\" stroke=\"#333\" fill=\"none\">\n"
    << "<line x1=\"" << x0 << "\" y1=\"" << y0 << "\" x2=\"" << x1 << "\" y2=\"" << y0 << "\"/>\n"
    << "<line x1=\"" << x0 << "\" y1=\"" << y0 << "\" x2=\"" << x0 << "\" y2=\"" << y1 << "\"/>\n"
    << "</g>\n<g class=\"ticks\" font-size=\"12\" fill=\"#333\">\n";
  for (int n : report.sizes) {
    const std::string px = num(x.at(n));
    o << "<line x1=\"" << px << "\" y1=\"" << y0 << "\" x2=\"" << px << "\" y2=\"" << y0 + 5
      << "\" stroke=\"#333\"/>\n<text x=\"" << px << "\" y=\"" << y0 + 20
      << "\" text-anchor=\"middle\">" << n << "</text>\n";
  }
  for (double v = y.lo; v <= y.hi * 1.0001; v *= 10) {
    const std::string py = num(y.at(v));
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    o << "<line x1=\"" << x0 << "\" y1=\"" << py << "\" x2=\"" << x1 << "\" y2=\"" << py
      << "\" stroke=\"#ddd\"/>\n<text x=\"" << x0 - 8 << "\" y=\"" << py
      << "\" text-anchor=\"end\" dominant-baseline=\"middle\">" << text << "</text>\n";
  }
  o << "</g>\n<text x=\"" << (x0 + x1) / 2 << "\" y=\"" << kHeight - 25
    << "\" text-anchor=\"middle\" font-size=\"14\">matrix size n (n×n fp32 matmul, log scale)"
       "</text>\n<text x=\"20\" y=\""
    << (y0 + y1) / 2 << "\" text-anchor=\"middle\" font-size=\"14\" transform=\"rotate(-90 20 "
    << (y0 + y1) / 2 << ")\">GFLOPS (2n³ / time, log scale)</text>\n";
}

void series(std::ostringstream& o, const BenchResult& r, const char* color, const LogAxis& x,
            const LogAxis& y) {
  o << "<g class=\"series\" data-api=\"" << escape(r.series.api) << "\" data-device=\""
    << escape(r.series.device) << "\" stroke=\"" << color << "\" fill=\"" << color << "\">\n"
    << "<title>" << escape(label(r))
    << "</title>\n<polyline fill=\"none\" stroke-width=\"2\" points=\"";
  for (const auto& p : r.series.points) {
    if (plotted(p)) o << num(x.at(p.n)) << "," << num(y.at(*p.gflops)) << " ";
  }
  o << "\"/>\n";
  for (const auto& p : r.series.points) {
    if (plotted(p)) {
      o << "<circle cx=\"" << num(x.at(p.n)) << "\" cy=\"" << num(y.at(*p.gflops))
        << "\" r=\"3\"/>\n";
    }
  }
  o << "</g>\n";
}

void legend_entry(std::ostringstream& o, const std::string& text, const char* color, int row) {
  const double lx = kWidth - kRight + 20, ly = kTop + 10 + row * 22.0;
  o << "<line x1=\"" << lx << "\" y1=\"" << ly << "\" x2=\"" << lx + 24 << "\" y2=\"" << ly
    << "\" stroke=\"" << color << "\" stroke-width=\"3\"/>\n<text x=\"" << lx + 30 << "\" y=\""
    << ly << "\" dominant-baseline=\"middle\">" << escape(clip(text, kLegendColumns))
    << "</text>\n";
}

}  // namespace

std::string render_svg(const BenchReport& report) {
  auto [slo, shi] = size_range(report);
  auto [glo, ghi] = gflops_range(report);
  const LogAxis x{slo, shi, kLeft, kWidth - kRight};
  const LogAxis y{glo, ghi, kHeight - kBottom, kTop};

  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
       "width=\""
    << kWidth << "\" height=\"" << kHeight << "\" viewBox=\"0 0 " << kWidth << " " << kHeight
    << "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << kLeft
    << "\" y=\"28\" font-size=\"16\">gpudoctor bench: fp32 matmul "
       "GFLOPS by matrix size</text>\n";
  axes(o, report, x, y);
  o << "<g class=\"legend\" font-size=\"12\" fill=\"#333\">\n";
  int row = 0;
  for (const auto& r : report.results) {
    const char* color = kColors[row % std::size(kColors)];
    const bool any = std::any_of(r.series.points.begin(), r.series.points.end(), plotted);
    legend_entry(o, any ? label(r) : label(r) + ": no result", any ? color : "#bbb", row);
    ++row;
  }
  o << "</g>\n";
  row = 0;
  for (const auto& r : report.results) {
    const char* color = kColors[row++ % std::size(kColors)];
    if (std::any_of(r.series.points.begin(), r.series.points.end(), plotted)) {
      series(o, r, color, x, y);
    }
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace gpudoctor::bench
