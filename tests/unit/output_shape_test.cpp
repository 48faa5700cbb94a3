// What a person sees: check's short shape and its -v / -q, the terminal's width and ASCII, the
// Markdown block for a ticket, the HTML tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "bench/bench_report.hpp"
#include "bench/bench_text.hpp"
#include "bench_series.hpp"
#include "render/check_text.hpp"
#include "render/terminal_text.hpp"
#include "report/html.hpp"
#include "report/report_markdown.hpp"
#include "snapshot_io.hpp"

namespace gpudoctor {
namespace output_shape_test {

Finding problem() {
  Finding f;
  f.id = "nvidia.driver_library_mismatch";
  f.area = "nvidia";
  f.severity = Severity::fail;
  f.title = "The NVIDIA kernel module and its user-space library are different versions";
  f.evidence = {"kernel module: 550.90.07", "libnvidia-ml.so: 550.127.05"};
  f.fix = "reboot, so that the module of the installed driver is loaded";
  f.source = "https://docs.nvidia.com/deploy/driver-persistence/index.html";
  return f;
}

Finding note() {
  Finding f;
  f.id = "cuda.no_driver";
  f.area = "cuda";
  f.severity = Severity::info;
  f.title = "No NVIDIA driver here";
  f.evidence = {"dlopen(libcuda.so.1) found nothing"};
  f.fix = "install the driver";
  return f;
}

std::size_t widest(const std::string& text) {
  std::size_t w = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) w = std::max(w, display_width(line));
  return w;
}

TEST(CheckShape, SummaryHasCauseAndFixButNoEvidenceIdOrSource) {
  const Snapshot snap;
  CheckTextOptions o;
  o.detail = CheckDetail::summary;
  const std::string text = render_check_text(snap, {}, {problem(), note()}, Style::plain(), nullptr, o);
  EXPECT_NE(text.find("✗ The NVIDIA kernel module"), std::string::npos) << text;
  EXPECT_NE(text.find("fix: reboot"), std::string::npos) << text;
  EXPECT_NE(text.find("No NVIDIA driver here"), std::string::npos) << text;
  EXPECT_EQ(text.find("install the driver"), std::string::npos) << "a note's fix is for -v";
  for (const char* detail : {"550.127.05", "source:", "nvidia.driver_library_mismatch", "dlopen"}) {
    EXPECT_EQ(text.find(detail), std::string::npos) << detail << "\n" << text;
  }
  EXPECT_NE(text.find("1 failure.  Evidence and sources: gpudoctor check -v\n"), std::string::npos)
      << text;
}

TEST(CheckShape, VerboseKeepsEveryDetail) {
  const Snapshot snap;
  CheckTextOptions o;
  o.detail = CheckDetail::full;
  const std::string text = render_check_text(snap, {}, {problem(), note()}, Style::plain(), nullptr, o);
  for (const char* detail : {"libnvidia-ml.so: 550.127.05", "source: https://docs.nvidia.com",
                             "nvidia.driver_library_mismatch", "dlopen(libcuda.so.1)",
                             "fix: install the driver"}) {
    EXPECT_NE(text.find(detail), std::string::npos) << detail << "\n" << text;
  }
  EXPECT_NE(text.find("1 failure, 0 warnings, 1 note.  Every device and detail: gpudoctor query"),
            std::string::npos)
      << text;
}

TEST(CheckShape, QuietPrintsOnlyProblemsAndNothingOnAHealthyMachine) {
  const Snapshot snap;
  CheckTextOptions o;
  o.detail = CheckDetail::problems;
  const std::string text = render_check_text(snap, {}, {problem(), note()}, Style::plain(), nullptr, o);
  EXPECT_NE(text.find("nvidia"), std::string::npos) << text;
  EXPECT_EQ(text.find("cuda"), std::string::npos) << text;
  EXPECT_EQ(text.find("No NVIDIA driver here"), std::string::npos) << text;
  EXPECT_EQ(render_check_text(snap, {}, {note()}, Style::plain(), nullptr, o), "");
}

TEST(CheckShape, HealthyEndsWithOneSentenceAndARecordedMachineIsNotSentToQuery) {
  const Snapshot snap;
  CheckTextOptions o;
  o.detail = CheckDetail::summary;
  const std::string healthy = render_check_text(snap, {}, {note()}, Style::plain(), nullptr, o);
  const std::string last = healthy.substr(healthy.rfind('\n', healthy.size() - 2) + 1);
  EXPECT_EQ(last.rfind("No problems found", 0), 0U) << healthy;
  EXPECT_EQ(healthy.find("0 failures"), std::string::npos);
  o.detail = CheckDetail::full;
  o.more = "";
  o.verbose = "gpudoctor check -v --from paste.txt";
  const std::string from = render_check_text(snap, {}, {problem()}, Style::plain(), nullptr, o);
  EXPECT_EQ(from.find("gpudoctor query"), std::string::npos) << from;
}

TEST(CheckShape, EightyColumnsAndAsciiInTheCLocale) {
  const Snapshot snap;
  Finding f = problem();
  f.title += " — see https://example.invalid/" + std::string(120, 'a') + " … ×2 → ✓";
  CheckTextOptions o;
  o.detail = CheckDetail::full;
  const Style st = Style::plain().with_width(80).with_unicode(false);
  const std::string text = fit_width(terminal_text(render_check_text(snap, {}, {f}, st, nullptr, o), st), 80);
  EXPECT_LE(widest(text), 80U) << text;
  EXPECT_TRUE(std::all_of(text.begin(), text.end(), [](char c) { return (c & 0x80) == 0; })) << text;
  for (const char* ascii : {"...", "x2", "->", "--"}) {
    EXPECT_NE(text.find(ascii), std::string::npos) << ascii << "\n" << text;
  }
}

TEST(TerminalWidth, BreaksAtSpacesUnderTheValueColumnAndInsideLongWords) {
  const std::string row = "  OS        " + std::string(50, 'w') + " " + std::string(40, 'v');
  const std::string fitted = fit_width(row, 80);
  EXPECT_EQ(fitted, "  OS        " + std::string(50, 'w') + "\n            " + std::string(40, 'v'));
  const std::string path = "    /" + std::string(200, 'p');
  const std::string cut = fit_width(path, 80);
  EXPECT_LE(widest(cut), 80U) << cut;
  std::string joined = cut;
  joined.erase(std::remove_if(joined.begin(), joined.end(), [](char c) { return c == ' ' || c == '\n'; }),
               joined.end());
  EXPECT_EQ(joined, "/" + std::string(200, 'p')) << "nothing lost";
  // Colour takes no column: 80 letters in colour fit.
  const std::string coloured = "\x1b[31m" + std::string(80, 'r') + "\x1b[0m";
  EXPECT_EQ(fit_width(coloured, 80), coloured);
}

TEST(TerminalWidth, EveryGlyphHasAnAsciiForm) {
  EXPECT_EQ(ascii_fallback("✓ ✗ • … · → ← × – — ≥ ≤ µ °"), "+ x - ... - -> <- x - -- >= <= u deg");
  EXPECT_EQ(ascii_fallback("Radeon™ 日本"), "Radeon(TM) ??");
  const Style c = Style::plain().with_unicode(false);
  EXPECT_EQ(terminal_text("a · b", c), "a - b");
  EXPECT_EQ(terminal_text("a · b", Style::plain()), "a · b");
}

TEST(HtmlTables, NoEmptyColumnNoBlankCellNoRepeatedRow) {
  const std::string t = html::table({"a", "b", "c"}, {{"1", "", "x"}, {"1", "", "x"}, {"2", "", ""}});
  EXPECT_EQ(t.find("<th>b</th>"), std::string::npos) << t;
  EXPECT_EQ(t.find("<td></td>"), std::string::npos) << t;
  std::size_t rows = 0;
  for (auto at = t.find("<tr>"); at != std::string::npos; at = t.find("<tr>", at + 1)) ++rows;
  EXPECT_EQ(rows, 3U) << "header and two rows: " << t;
  const std::string facts = html::facts_table({{"a", "1"}, {"", "more"}, {"a", "1"}});
  EXPECT_EQ(facts.find("<th></th>"), std::string::npos) << facts;
  EXPECT_NE(facts.find("1<br>more"), std::string::npos) << facts;
}

Json report_with(const std::string& device_name, std::size_t python_envs) {
  Snapshot snap;
  snap.root = "/";
  snap.python.emplace();
  for (std::size_t i = 0; i < python_envs; ++i) {
    PythonEnv e;
    e.prefix = "/opt/env" + std::to_string(i) + "/" + std::string(60, 'x');
    snap.python->envs.push_back(e);
  }
  Finding f = problem();
  f.title = device_name;
  return Json{{"tool_version", "0.0-test"},
              {"generated_at", "2026-11-28T12:00:00Z"},
              {"summary", {{"failures", 1}, {"warnings", 0}, {"notes", 0}}},
              {"areas", Json::array({{{"area", "nvidia"}, {"state", "fail"}, {"summary", "driver"}}})},
              {"findings", Json::array({Json(f)})},
              {"redaction", {{"redacted", true}, {"replaced", {{"host_name", 1}}}}},
              {"snapshot", Json(snap)}};
}

TEST(MarkdownBlock, DiagnosisFirstMachineCollapsedAndBounded) {
  const std::string md = render_report_markdown(report_with("title", 3));
  EXPECT_EQ(md.rfind("### gpudoctor: 1 failure\n", 0), 0U) << md;
  const auto details = md.find("<details><summary>The machine (redacted: 1 host name replaced)");
  ASSERT_NE(details, std::string::npos) << md;
  EXPECT_LT(md.find("**Fix:** reboot"), details) << md;
  EXPECT_LT(md.find("nvidia.driver_library_mismatch"), details);
  EXPECT_NE(md.find("```text\n", details), std::string::npos) << md;

  const std::string big = render_report_markdown(report_with("title", 5000));
  EXPECT_LE(big.size(), kMarkdownMaxChars);
  EXPECT_NE(big.find("more lines"), std::string::npos);
  EXPECT_NE(big.find("</details>"), std::string::npos) << "the section is closed after the cut";
}

TEST(MarkdownBlock, TextFromTheMachineCannotCloseTheBlockOrBecomeHtml) {
  const std::string md = render_report_markdown(report_with("</details><script>x</script> ```", 1));
  EXPECT_EQ(md.find("<script>"), std::string::npos) << md;
  EXPECT_EQ(std::count(md.begin(), md.end(), '\n') > 0, true);
  std::size_t closes = 0;
  for (auto at = md.find("</details>"); at != std::string::npos; at = md.find("</details>", at + 1)) ++closes;
  EXPECT_EQ(closes, 1U) << md;
}

TEST(BenchSpread, RunsThatDisagreeAreMarkedAndTheSpreadSaid) {
  // Issue 30's OpenBLAS: two runs, 101 and 15 GFLOPS at one size; the other size's 50 runs
  // agree but for one slow run, which is not a disagreement.
  BenchSeries cpu = bench::test::series("blas", "AMD EPYC", {{256, 101}, {512, 120}});
  cpu.points[0].repeats = 2;
  cpu.points[0].median_ms = *cpu.points[0].ms * (101.0 + 15.0) / 2 / 15.0;
  cpu.points[0].spread_percent = (101.0 / 15.0 - 1) * 100;
  cpu.points[1].repeats = 50;
  cpu.points[1].median_ms = *cpu.points[1].ms * 1.02;
  cpu.points[1].spread_percent = 300;
  BenchSeries gpu = bench::test::gpu({{256, 700}, {512, 1500}});
  const std::string text =
      bench::render_text(bench::assemble_report({cpu, gpu}, std::nullopt, {256, 512}));
  EXPECT_NE(text.find("101*"), std::string::npos) << text;
  EXPECT_EQ(text.find("120*"), std::string::npos) << text;
  EXPECT_NE(text.find("The runs disagree"), std::string::npos) << text;
  EXPECT_NE(text.find("n=256: median run +"), std::string::npos) << text;
  EXPECT_NE(text.find("slowest +573 %"), std::string::npos) << text;
  EXPECT_EQ(text.find("n=512: median run"), std::string::npos) << text;
  // At 80 columns the table's rows fit.
  const std::string narrow =
      bench::render_text(bench::assemble_report({cpu, gpu}, std::nullopt, {256, 512}), 80);
  std::istringstream in(narrow);
  std::string line;
  std::getline(in, line);  // the title wraps at the terminal, not here
  std::getline(in, line);
  for (int row = 0; row < 3 && std::getline(in, line); ++row) {
    EXPECT_LE(display_width(line), 80U) << line;
  }
}

}  // namespace output_shape_test
}  // namespace gpudoctor
