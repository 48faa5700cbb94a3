// The HTML report and the bench plot as a reader sees them: rendered by headless Chromium
// (Debian's `chromium`), and the screenshots checked to be real renderings, not a blank or
// broken page: their size, how varied their pixels are, and the colours that carry meaning
// (the red of failures, the green "0 failures" badge, the plot's series). The PNGs stay in the
// build tree (tests/screenshots/) to be looked at. Skipped when chromium is not installed.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "bench/bench_svg.hpp"
#include "json.hpp"
#include "png_image.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

std::optional<std::string> chromium() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      const std::string p = dir + "/" + name;
      if (::access(p.c_str(), X_OK) == 0) return p;
    }
  }
  return std::nullopt;
}

std::string shots_dir() {
  ::mkdir(GPUDOCTOR_SCREENSHOTS, 0755);
  return GPUDOCTOR_SCREENSHOTS;
}

/// Renders `file` at width × height into `png` with its own throwaway profile; what Chromium
/// said on failure.
std::string screenshot(const std::string& file, int width, int height, const std::string& png) {
  test::TempTree profile;
  ::unlink(png.c_str());
  const std::string log = profile.path() + "/chromium.log";
  // --no-sandbox: the suite may run as root (CI), where Chromium refuses its sandbox.
  // --virtual-time-budget: layout settles before the shot; the pages load nothing from outside.
  const std::string cmd = "timeout 60 '" + *chromium() +
                          "' --headless --no-sandbox --disable-gpu --hide-scrollbars "
                          "--no-first-run --user-data-dir='" + profile.path() +
                          "/profile' --window-size=" + std::to_string(width) + "," +
                          std::to_string(height) + " --virtual-time-budget=2000 --screenshot='" +
                          png + "' 'file://" + file + "' >'" + log + "' 2>&1";
  const int rc = std::system(cmd.c_str());
  if (rc == 0 && ::access(png.c_str(), R_OK) == 0) return "";
  std::ifstream in(log);
  return "chromium exited " + std::to_string(rc) + ": " +
         std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// What sets a rendering apart from a blank page.
struct Looks {
  double stddev = 0;          ///< of the grey level over every pixel
  double share_of_top = 0;    ///< of the most common colour (the background)
  std::size_t colours = 0;    ///< distinct colours
  std::map<std::uint32_t, std::size_t> counts;
  std::size_t near(std::uint32_t rgb, int tolerance = 24) const {
    std::size_t n = 0;
    for (auto [c, k] : counts) {
      const int dr = int(c >> 16) - int(rgb >> 16), dg = int((c >> 8) & 255) - int((rgb >> 8) & 255),
                db = int(c & 255) - int(rgb & 255);
      if (std::abs(dr) <= tolerance && std::abs(dg) <= tolerance && std::abs(db) <= tolerance) n += k;
    }
    return n;
  }
};

Looks look_at(const test::PngImage& img) {
  Looks l;
  double sum = 0, sq = 0;
  const std::size_t n = std::size_t(img.width) * img.height;
  for (std::size_t y = 0; y < img.height; ++y) {
    for (std::size_t x = 0; x < img.width; ++x) {
      const std::uint32_t c = img.at(x, y);
      ++l.counts[c];
      const double grey = 0.299 * (c >> 16) + 0.587 * ((c >> 8) & 255) + 0.114 * (c & 255);
      sum += grey;
      sq += grey * grey;
    }
  }
  const double mean = sum / double(n);
  l.stddev = std::sqrt(std::max(0.0, sq / double(n) - mean * mean));
  std::size_t top = 0;
  for (auto [c, k] : l.counts) top = std::max(top, k);
  l.share_of_top = double(top) / double(n);
  l.colours = l.counts.size();
  return l;
}

/// The screenshot of `file`, checked to be a real rendering of that size.
std::optional<Looks> render(const std::string& file, int width, int height, const std::string& png) {
  const std::string failed = screenshot(file, width, height, png);
  EXPECT_EQ(failed, "");
  if (!failed.empty()) return std::nullopt;
  std::string why;
  const auto img = test::read_png(png, why);
  EXPECT_TRUE(img) << png << ": " << why;
  if (!img) return std::nullopt;
  EXPECT_EQ(img->width, std::uint32_t(width)) << png;
  EXPECT_EQ(img->height, std::uint32_t(height)) << png;
  Looks l = look_at(*img);
  // A blank page is one colour; a page of text and boxes has a background that leaves room
  // for the rest, antialiased text (hundreds of colours) and real contrast.
  EXPECT_LT(l.share_of_top, 0.95) << png;
  EXPECT_GT(l.colours, 100u) << png;
  EXPECT_GT(l.stddev, 10.0) << png;
  return l;
}

std::string html_report(const std::string& fixture, const std::string& name,
                        const std::vector<std::string>& more = {}) {
  const std::string html = shots_dir() + "/" + name + ".html";
  std::vector<std::string> args{"report", "--html", html, "-o", "/dev/null", "--sysroot",
                                test::fixture_path(fixture)};
  args.insert(args.end(), more.begin(), more.end());
  const auto r = test::run_gpudoctor(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return html;
}

class Screenshot : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!chromium()) {
      GTEST_SKIP() << "chromium is not installed (apt-get install chromium): no screenshots";
    }
  }
};

// Colours of src/report/report_html.cpp's stylesheet.
constexpr std::uint32_t kFailRed = 0xc62828;
constexpr std::uint32_t kOkGreen = 0x2e7d32;

TEST_F(Screenshot, ReportOfABrokenMachineShowsItsFailuresInRed) {
  const std::string html = html_report("nvidia-driver-library-mismatch", "report-broken");
  const auto l = render(html, 1200, 1600, shots_dir() + "/report-broken.png");
  ASSERT_TRUE(l);
  EXPECT_GT(l->near(kFailRed), 500u);  // the failures badge and each failure's mark and border
}

TEST_F(Screenshot, ReportWithoutFailuresHasAGreenBadgeAndTheBenchPlot) {
  const std::string bench = test::fixture_path("bench/pocl-lavapipe-openblas.json");
  const std::string html =
      html_report("server-h100-torch-cu124", "report-healthy", {"--bench", bench});
  const auto l = render(html, 1200, 1600, shots_dir() + "/report-healthy.png");
  ASSERT_TRUE(l);
  EXPECT_GT(l->near(kOkGreen), 300u);  // "0 failures"
}

TEST_F(Screenshot, BenchPlotDrawsEverySeriesAndItsLegend) {
  std::ifstream in(test::fixture_path("bench/pocl-lavapipe-openblas.json"));
  const auto report = Json::parse(std::string((std::istreambuf_iterator<char>(in)),
                                             std::istreambuf_iterator<char>()))
                          .get<BenchReport>();
  const std::string svg_text = bench::render_svg(report);
  const std::string svg = shots_dir() + "/bench.svg";
  std::ofstream(svg) << svg_text;
  // The picture's own height: the legend under the plot makes it taller with every series.
  const auto h = svg_text.find("height=\"");
  ASSERT_NE(h, std::string::npos);
  const int height = int(std::lround(std::stod(svg_text.substr(h + 8))));
  const auto l = render(svg, 900, height, shots_dir() + "/bench.png");
  ASSERT_TRUE(l);
  // The first three series' colours (bench_svg.cpp's kColors): lines, points and swatches.
  for (std::uint32_t colour : {0x1f77b4u, 0xd62728u, 0x2ca02cu}) {
    EXPECT_GT(l->near(colour, 30), 100u) << std::hex << colour;
  }
}

}  // namespace
}  // namespace gpudoctor
