#include "bench/bench_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "bench/bench_report.hpp"
#include "bench/clip.hpp"
#include "text.hpp"

namespace gpudoctor::bench {

namespace {

constexpr double kWidth = 900;
constexpr double kPlotHeight = 470;  // the title, the plot and its axis labels
constexpr double kLeft = 80;
constexpr double kRight = 110;  // room for the expected peaks' labels
constexpr double kTop = 50;
constexpr double kBottom = 70;
// The legend goes under the plot, as tall as it needs: one entry a row, its text wrapped at
// spaces, never cut. The width a character takes is not known without the font; 7 px is a
// little over sans-serif's widest common letters at 12 px, so an estimate errs short.
constexpr double kLegendLeft = 20;
constexpr double kLegendText = kLegendLeft + 30;
constexpr double kLineHeight = 16;
constexpr double kCharWidth = 7;
constexpr std::size_t kLegendColumns =
    static_cast<std::size_t>((kWidth - kLegendText - 10) / kCharWidth);
constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                   "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string escape(const std::string& s) { return markup_escape(s); }

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string whole(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
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
    if (r.peak && r.peak->gflops > 0 && hi > 0) hi = std::max(hi, r.peak->gflops);
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
  const double x0 = kLeft, x1 = kWidth - kRight, y0 = kPlotHeight - kBottom, y1 = kTop;
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
  o << "</g>\n<text x=\"" << (x0 + x1) / 2 << "\" y=\"" << kPlotHeight - 25
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

/// `text` broken at spaces into lines of at most `width` columns; a word longer than a line is
/// cut into pieces, so that no line is ever wider than the canvas.
std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& word : split_words(text, " ")) {
    std::string w = word;
    while (columns(w) > width) {  // a path or a name with no space in it
      if (!line.empty()) lines.push_back(std::move(line));
      line.clear();
      const std::string head = clip(w, width + 1);  // width columns and "…": drop the "…"
      const std::string piece = head.substr(0, head.size() - std::string("…").size());
      lines.push_back(piece);
      w = w.substr(piece.size());
    }
    if (w.empty()) continue;
    if (!line.empty() && columns(line) + 1 + columns(w) > width) {
      lines.push_back(std::move(line));
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

/// Lines of text from `y` down, each its own <text>.
double text_lines(std::ostringstream& o, const std::vector<std::string>& lines, double x, double y) {
  for (const auto& l : lines) {
    o << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" dominant-baseline=\"middle\">"
      << escape(l) << "</text>\n";
    y += kLineHeight;
  }
  return y;
}

/// Why a series has no point: its own error, or its first size's.
std::string why_none(const BenchResult& r) {
  if (r.series.error) return *r.series.error;
  for (const auto& p : r.series.points) {
    if (p.error) return "n=" + std::to_string(p.n) + ": " + *p.error;
  }
  return "no size was timed";
}

std::string legend_text(const BenchResult& r, bool any) {
  std::string text = label(r);
  if (!any) return text + ": no result (" + why_none(r) + ")";
  if (r.peak) text += " · expected peak " + whole(r.peak->gflops) + " GFLOPS (dashed)";
  return text;
}

/// One entry: a swatch in the series' colour, then its text; returns where the next one goes.
double legend_entry(std::ostringstream& o, const std::string& text, const char* color, double y) {
  o << "<line x1=\"" << kLegendLeft << "\" y1=\"" << num(y) << "\" x2=\"" << kLegendLeft + 24
    << "\" y2=\"" << num(y) << "\" stroke=\"" << color << "\" stroke-width=\"3\"/>\n";
  return text_lines(o, wrap_words(text, kLegendColumns), kLegendText, y) + 6;
}

/// The expected peak as a dashed line across the plot in the series' colour, labelled at its
/// right end.
void peak_line(std::ostringstream& o, const PeakEstimate& peak, const char* color,
               const LogAxis& y) {
  const std::string py = num(y.at(peak.gflops));
  o << "<g class=\"peak\"><line x1=\"" << kLeft << "\" y1=\"" << py << "\" x2=\""
    << kWidth - kRight << "\" y2=\"" << py << "\" stroke=\"" << color
    << "\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/><text x=\"" << kWidth - kRight + 6
    << "\" y=\"" << py << "\" font-size=\"11\" fill=\"" << color
    << "\" dominant-baseline=\"middle\">peak " << whole(peak.gflops) << "</text></g>\n";
}

}  // namespace

std::string render_svg(const BenchReport& report) {
  auto [slo, shi] = size_range(report);
  auto [glo, ghi] = gflops_range(report);
  const LogAxis x{slo, shi, kLeft, kWidth - kRight};
  const LogAxis y{glo, ghi, kPlotHeight - kBottom, kTop};
  auto any_point = [](const BenchResult& r) {
    return std::any_of(r.series.points.begin(), r.series.points.end(), plotted);
  };

  // The legend (and the note) first, to know how tall the picture is.
  std::ostringstream legend;
  double ly = kPlotHeight + 10;
  legend << "<g class=\"legend\" font-size=\"12\" fill=\"#333\">\n";
  if (const auto note = cpu_only_note(report)) {
    legend << "<g class=\"note\" fill=\"#b26a00\">\n";
    ly = text_lines(legend, wrap_words(*note, kLegendColumns + 3), kLegendLeft, ly) + 8;
    legend << "</g>\n";
  }
  std::size_t i = 0;
  for (const auto& r : report.results) {
    const bool any = any_point(r);
    ly = legend_entry(legend, legend_text(r, any), any ? kColors[i % std::size(kColors)] : "#bbb",
                      ly);
    ++i;
  }
  legend << "</g>\n";
  const double height = std::max(kPlotHeight + 20, ly + 10);

  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
       "width=\""
    << kWidth << "\" height=\"" << num(height) << "\" viewBox=\"0 0 " << kWidth << " "
    << num(height)
    << "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << kLeft
    << "\" y=\"28\" font-size=\"16\">gpudoctor bench: fp32 matmul "
       "GFLOPS by matrix size</text>\n";
  axes(o, report, x, y);
  o << legend.str();
  // Expected peaks under the measured lines; one line a value (a device's series share it).
  std::vector<double> drawn;
  i = 0;
  for (const auto& r : report.results) {
    const char* color = kColors[i++ % std::size(kColors)];
    if (!r.peak || r.peak->gflops <= 0 || !any_point(r)) continue;
    if (std::find(drawn.begin(), drawn.end(), r.peak->gflops) != drawn.end()) continue;
    drawn.push_back(r.peak->gflops);
    peak_line(o, *r.peak, color, y);
  }
  i = 0;
  for (const auto& r : report.results) {
    const char* color = kColors[i++ % std::size(kColors)];
    if (any_point(r)) series(o, r, color, x, y);
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace gpudoctor::bench
