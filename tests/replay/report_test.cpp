// `gpudoctor report`: the JSON for a ticket, its file output, redaction end to end, the HTML
// page, and `check --from` reading the report back.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli.hpp"
#include "json.hpp"
#include "report/report_html.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A line that names the problem, and nothing else: the whole of stderr is one line.
void expect_one_line_error(const test::CommandResult& r, const std::string& words) {
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(ReportCli, MismatchFixtureReportHasTheWholePicture) {
  auto r = test::run_gpudoctor(
      {"report", "--sysroot", test::fixture_path("nvidia-driver-library-mismatch")},
      {"CUDA_VISIBLE_DEVICES=0", "EDITOR=report-test-editor"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["kind"], "gpudoctor-report");
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["summary"]["failures"], 1);
  EXPECT_EQ(j["findings"][0]["id"], "nvidia.driver_library_mismatch");
  EXPECT_EQ(j["snapshot"]["nvidia"]["kernel"]["module_version"], "550.90.07");
  EXPECT_TRUE(j["snapshot"]["devices"].is_array());
  EXPECT_EQ(j["environment"]["CUDA_VISIBLE_DEVICES"], "0");
  EXPECT_FALSE(j["environment"].contains("EDITOR"));
  EXPECT_EQ(j["redaction"]["redacted"], true);
  EXPECT_GE(j["redaction"]["environment_variables_left_out"].get<int>(), 1);
  EXPECT_EQ(r.out.find("report-test-editor"), std::string::npos);
}

TEST(ReportCli, OutputFileIsWrittenWholeAndCheckFromReadsItBack) {
  test::TempTree tmp;
  const std::string file = tmp.path() + "/ticket.json";
  auto r = test::run_gpudoctor(
      {"report", "-o", file, "--sysroot", test::fixture_path("nvidia-driver-library-mismatch")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  // Only the report is left in the directory: the temporary file was renamed over it.
  int entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(tmp.path())) ++entries;
  EXPECT_EQ(entries, 1);
  EXPECT_EQ(Json::parse(read_file(file))["kind"], "gpudoctor-report");

  auto again = test::run_gpudoctor({"check", "--json", "--from", file});
  EXPECT_EQ(again.exit_code, 1) << again.err;
  EXPECT_EQ(Json::parse(again.out)["findings"][0]["id"], "nvidia.driver_library_mismatch");
}

TEST(ReportCli, RedactsTheUserButNotWithNoRedact) {
  // python-venv-torch-cu124 holds the venv of a user named "dev".
  const std::vector<std::string> args = {"report",
                                         "--backend",
                                         "python",
                                         "--sysroot",
                                         test::fixture_path("python-venv-torch-cu124"),
                                         "--python-env",
                                         "/home/dev/venvs/llm"};
  const std::vector<std::string> env = {"MY_SERVICE_TOKEN=s3cr3t-value-42"};
  auto redacted = test::run_gpudoctor(args, env);
  ASSERT_EQ(redacted.exit_code, 0) << redacted.err;
  EXPECT_EQ(redacted.out.find("/home/dev/"), std::string::npos);
  EXPECT_NE(redacted.out.find("/home/<user1>/venvs/llm"), std::string::npos);
  EXPECT_EQ(Json::parse(redacted.out)["redaction"]["replaced"]["user_name"], 1);

  auto args_plain = args;
  args_plain.push_back("--no-redact");
  auto plain = test::run_gpudoctor(args_plain, env);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.find("/home/dev/venvs/llm"), std::string::npos);
  for (const auto* out : {&redacted.out, &plain.out}) {
    EXPECT_EQ(out->find("s3cr3t-value-42"), std::string::npos);
    EXPECT_EQ(out->find("MY_SERVICE_TOKEN"), std::string::npos);
  }
}

TEST(ReportCli, HtmlPageIsSelfContainedAndEscaped) {
  test::TempTree tmp;
  const std::string page = tmp.path() + "/report.html";
  auto r = test::run_gpudoctor(
      {"report", "--html", page, "--sysroot", test::fixture_path("nvidia-driver-library-mismatch")},
      {"CUDA_VISIBLE_DEVICES=<script>alert(1)</script>"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");  // with only --html, no JSON on stdout
  const std::string html = read_file(page);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  // The failure comes before the devices, with its fix and source link.
  const auto failure = html.find("Driver/library version mismatch");
  ASSERT_NE(failure, std::string::npos);
  EXPECT_LT(failure, html.find("<h2>Devices</h2>"));
  EXPECT_NE(html.find("reboot to load the 550.107.02 module"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"https://docs.nvidia.com/"), std::string::npos);
  EXPECT_NE(html.find("<details><summary>The whole report as JSON"), std::string::npos);
}

/// `gpudoctor report --html` of a fixture machine with these variables: the page.
std::string html_of(const std::string& fixture, const std::vector<std::string>& env) {
  test::TempTree tmp;
  const std::string page = tmp.path() + "/report.html";
  auto r = test::run_gpudoctor({"report", "--html", page, "--sysroot", test::fixture_path(fixture)},
                               env);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return read_file(page);
}

/// The part of the page from the heading `from` to the next heading of the same level.
std::string section_of(const std::string& html, const std::string& from) {
  const auto start = html.find(from);
  if (start == std::string::npos) return "";
  const std::string level = from.substr(0, 3);  // "<h2" or "<h3"
  const auto end = html.find(level, start + from.size());
  return html.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// The machine's sections are the facts layer's, labelled as `query` shows them.
TEST(ReportHtml, RocmInstallOverrideAndKfdNodeOfTheRx7600Xt) {
  const std::string html = html_of("rocm-rx7600xt-gfx1102", {"HSA_OVERRIDE_GFX_VERSION=11.0.0"});
  const std::string rocm = section_of(html, "<h3>ROCm</h3>");
  ASSERT_FALSE(rocm.empty()) << html;
  EXPECT_NE(rocm.find("<th>Installed</th><td>/opt/rocm · 6.0.0 · from .info/version · default</td>"),
            std::string::npos)
      << rocm;
  EXPECT_NE(rocm.find("<th>amdgpu</th><td>loaded · initstate live</td>"), std::string::npos);
  EXPECT_NE(rocm.find("<th>KFD</th><td>1 GPU node(s), 0 CPU node(s)</td>"), std::string::npos);
  EXPECT_NE(rocm.find("<th>Env</th><td>HSA_OVERRIDE_GFX_VERSION=11.0.0</td>"), std::string::npos);
  // The KFD node is the device: its view and where it was seen.
  const std::string devices = section_of(html, "<h2>Devices</h2>");
  EXPECT_NE(devices.find("<td>AMD GPU (gfx1102)</td>"), std::string::npos) << devices;
  EXPECT_NE(devices.find("<td>KFD</td></tr>"), std::string::npos) << devices;
  EXPECT_NE(devices.find("<th>KFD</th><td>node 1 · gfx1102 · gfx_target_version 110002"),
            std::string::npos)
      << devices;
}

TEST(ReportHtml, RocmGroupsOfAUserNotInRenderAreEscaped) {
  const std::string rocm = section_of(html_of("rocm-desktop-not-in-render", {}), "<h3>ROCm</h3>");
  EXPECT_NE(rocm.find("<th>Installed</th><td>none found (/opt/rocm, /opt/rocm-*, ROCM_PATH)</td>"),
            std::string::npos)
      << rocm;
  // Device files and groups are the host's (every vendor's): shown there, not under ROCm.
  const std::string host = section_of(html_of("rocm-desktop-not-in-render", {}), "<h3>Host</h3>");
  EXPECT_EQ(rocm.find("<th>Devices</th>"), std::string::npos) << rocm;
  // The redacted user name is a placeholder in angle brackets: text, not markup.
  // Its groups continue the User row (lines of one cell), not rows with an empty header.
  EXPECT_NE(host.find("<th>User</th><td>&lt;user1&gt; · uid 1000<br>"), std::string::npos) << host;
  EXPECT_EQ(host.find("<th></th>"), std::string::npos) << host;
  EXPECT_NE(host.find("render (109): not a group of this user"), std::string::npos);
  EXPECT_NE(host.find("<th>Devices</th><td>/dev/dri/card1<br>/dev/dri/renderD128"), std::string::npos)
      << host;
  EXPECT_EQ(host.find("<user1>"), std::string::npos);
}

TEST(ReportHtml, MacWithAnEgpuHasMacosAndNoRocm) {
  // The Mac's shell is the one its tree records (.gpudoctor/environment.txt): a copy whose
  // record holds markup in DYLD_LIBRARY_PATH.
  test::TempTree tree;
  const std::string mac_root = tree.path() + "/mac";
  std::filesystem::copy(test::fixture_path("mac-egpu-rx5700xt-plaidml"), mac_root,
                        std::filesystem::copy_options::recursive);
  tree.write("mac/.gpudoctor/environment.txt",
             "HOME=/Users/dev\nCONDA_PREFIX=/Users/dev/opt/anaconda3/envs/plaidml\n"
             "DYLD_LIBRARY_PATH=/opt/<b>lib</b>\n");
  test::TempTree out;
  const std::string page = out.path() + "/report.html";
  auto r = test::run_gpudoctor({"report", "--html", page, "--sysroot", mac_root}, {});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = read_file(page);
  const std::string mac = section_of(html, "<h3>macOS</h3>");
  ASSERT_FALSE(mac.empty()) << html;
  EXPECT_NE(mac.find("<th>Version</th><td>10.15.6 · build 19G2021</td>"), std::string::npos) << mac;
  EXPECT_NE(mac.find("<th>Env</th><td>DYLD_LIBRARY_PATH=/opt/&lt;b&gt;lib&lt;/b&gt;</td>"),
            std::string::npos)
      << mac;
  EXPECT_EQ(html.find("<b>lib"), std::string::npos);
  // The ROCm probe read this tree too and found nothing of AMD's: no section for it.
  EXPECT_EQ(html.find("<h3>ROCm</h3>"), std::string::npos);
  // The eGPU is a device, seen through system_profiler, with its link and Metal family.
  const std::string devices = section_of(html, "<h2>Devices</h2>");
  // No kernel driver on a Mac: that column, empty in every row, is left out.
  EXPECT_NE(devices.find("<td>8 GiB</td><td>macOS</td>"), std::string::npos) << devices;
  EXPECT_EQ(devices.find("<td></td>"), std::string::npos) << devices;
  EXPECT_NE(devices.find("<th>macOS</th><td>AMD · 1002:731f · external GPU x4"), std::string::npos)
      << devices;
  EXPECT_NE(devices.find("8 GiB VRAM · Metal: macOS GPUFamily2 v1"), std::string::npos) << devices;
}

TEST(ReportHtml, NotesOfAnApiWithoutADriverAreNotCardsBesideAFailure) {
  // Issue 30: "install pocl-opencl-icd" beside a GPU's failure. As `check` shows them: one line
  // each under "Also possible here, not set up", after the findings.
  const std::string broken = html_of("rtx5090-torch-cu121-no-sm120", {"HOME=/nonexistent"});
  const std::string findings = section_of(broken, "<h2>Findings</h2>");
  ASSERT_FALSE(findings.empty()) << broken;
  EXPECT_NE(findings.find("python.torch_arch"), std::string::npos) << findings;
  const auto also = findings.find("<h3>Also possible here, not set up</h3>");
  ASSERT_NE(also, std::string::npos) << findings;
  EXPECT_NE(findings.find("opencl.no_icd", also), std::string::npos) << findings;
  EXPECT_EQ(findings.substr(0, also).find("opencl.no_icd"), std::string::npos) << findings;
  EXPECT_EQ(findings.find("No problems found"), std::string::npos) << findings;
  // A healthy tree: the verdict in check's words, which do not call an unexamined area fine.
  const std::string healthy = section_of(html_of("mac-hackintosh-rx570-tf-metal", {}), "<h2>Findings</h2>");
  EXPECT_NE(healthy.find("No problems found in what could be examined; 3 areas were not examined"),
            std::string::npos)
      << healthy;
  EXPECT_EQ(healthy.find("every check passed"), std::string::npos) << healthy;
}

TEST(ReportHtml, AppleSiliconChipAndMemory) {
  const std::string mac = section_of(html_of("mac-m1pro-torch-mps", {}), "<h3>macOS</h3>");
  EXPECT_NE(mac.find("<th>CPU</th><td>Apple M1 Pro · Apple silicon</td>"), std::string::npos) << mac;
  EXPECT_NE(mac.find("<th>Memory</th><td>16 GiB</td>"), std::string::npos);
  EXPECT_EQ(mac.find("<th>Version</th>"), std::string::npos);  // the seed does not say it
}

TEST(ReportHtml, LinksOnlyToWebPagesAndPlotsTheBench) {
  const Json point_64 = {{"n", 64}, {"gflops", 10.5}};
  const Json point_1024 = {{"n", 1024}, {"gflops", 900.0}};
  Json report = {
      {"findings",
       {{{"id", "x.y"},
         {"severity", "warn"},
         {"title", "T & <b>"},
         {"source", "javascript:alert(1)"}}}},
      {"bench",
       {{"sizes", {64, 1024}},
        {"results",
         {{{"series", {{"api", "blas"}, {"device", "CPU"}, {"points", {point_64}}}}},
          {{"series",
            {{"api", "opencl"}, {"device", "GPU <1>"}, {"points", {point_64, point_1024}}}},
           {"best_gflops", 900.0},
           {"best_n", 1024}},
          {{"series",
            {{"api", "opencl"}, {"blas", "CLBlast"}, {"device", "GPU <1>"}, {"points", {point_64}}}},
           {"best_gflops", 10.5},
           {"best_n", 64}}}}}}};
  const std::string html = render_report_html(report);
  EXPECT_NE(html.find("T &amp; &lt;b&gt;"), std::string::npos);
  EXPECT_EQ(html.find("href=\"javascript"), std::string::npos);
  EXPECT_EQ(html.find("<?xml"), std::string::npos);  // the plot is inline, not a document
  const auto bench = html.find("<h2>Benchmark</h2>");
  ASSERT_NE(bench, std::string::npos);
  EXPECT_NE(html.find("<td>opencl</td><td>GPU &lt;1&gt;</td><td>900</td><td>1024</td>", bench),
            std::string::npos);
  // A vendor BLAS's series on the same device is told apart by its library.
  EXPECT_NE(html.find("<td>opencl CLBlast</td><td>GPU &lt;1&gt;</td><td>10.5</td>", bench),
            std::string::npos);
  const std::string series = "class=\"series\"";
  std::size_t lines = 0;
  for (auto at = html.find(series); at != std::string::npos; at = html.find(series, at + 1)) {
    ++lines;
  }
  EXPECT_EQ(lines, 3u);
}

TEST(ReportCli, BenchResultsFromAFileGoIntoTheReportAndThePage) {
  test::TempTree tmp;
  const std::string bench =
      tmp.write("bench.json", R"({"schema_version": 1, "sizes": [64, 128], "results": [
        {"series": {"api": "opencl", "device": "pthread-skylake-avx512-AMD EPYC",
                    "points": [{"n": 64, "gflops": 12.5}, {"n": 128, "gflops": 48.0}]},
         "best_gflops": 48.0, "best_n": 128}]})");
  const std::string page = tmp.path() + "/r.html";
  auto r = test::run_gpudoctor({"report", "--backend", "host", "--bench", bench, "-o",
                                tmp.path() + "/r.json", "--html", page});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json j = Json::parse(read_file(tmp.path() + "/r.json"));
  EXPECT_EQ(j["bench"]["results"][0]["best_gflops"], 48.0);
  EXPECT_NE(read_file(page).find("<h2>Benchmark</h2>"), std::string::npos);

  const std::string not_bench = tmp.write("q.json", R"({"schema_version": 1, "probes": []})");
  expect_one_line_error(test::run_gpudoctor({"report", "--backend", "host", "--bench", not_bench}),
                        "not the output of gpudoctor bench --json");
}

TEST(ReportCliParse, ReportAndDiffOptions) {
  auto r = parse_cli({"report", "-o", "t.json", "--html", "t.html", "--no-redact", "--no-smoke",
                      "--sysroot", "/mnt/img", "--bench", "b.json"},
                     "test");
  ASSERT_TRUE(r.options) << r.err;
  EXPECT_EQ(r.options->command, Command::report);
  EXPECT_EQ(r.options->output, "t.json");
  EXPECT_EQ(r.options->html, "t.html");
  EXPECT_EQ(r.options->bench_file, "b.json");
  EXPECT_TRUE(r.options->no_redact);
  EXPECT_TRUE(r.options->no_smoke);
  EXPECT_EQ(r.options->sysroot, "/mnt/img");

  auto d = parse_cli({"diff", "--json", "a.json", "b.json"}, "test");
  ASSERT_TRUE(d.options) << d.err;
  EXPECT_EQ(d.options->command, Command::diff);
  EXPECT_EQ(d.options->diff_files, (std::vector<std::string>{"a.json", "b.json"}));
  EXPECT_TRUE(d.options->json);
  EXPECT_EQ(parse_cli({"diff", "a.json"}, "test").exit_code, 2);
}

TEST(ReportCli, BadInputIsOneLineAndExitTwo) {
  test::TempTree tmp;
  expect_one_line_error(test::run_gpudoctor({"report", "--sysroot", tmp.path() + "/nowhere"}),
                        "not a directory");
  // A file that cannot be written is an output error, not a usage error: its own status.
  auto unwritable =
      test::run_gpudoctor({"report", "--backend", "host", "-o", tmp.path() + "/no/dir/r.json"});
  EXPECT_EQ(unwritable.exit_code, 74) << unwritable.err;
  EXPECT_NE(unwritable.err.find("cannot be written"), std::string::npos) << unwritable.err;
  EXPECT_EQ(std::count(unwritable.err.begin(), unwritable.err.end(), '\n'), 1);
  const std::string newer =
      tmp.write("newer.json", R"({"schema_version": 99, "kind": "gpudoctor-report",
                      "snapshot": {"schema_version": 1}})");
  expect_one_line_error(test::run_gpudoctor({"check", "--from", newer}), "newer gpudoctor");
  expect_one_line_error(test::run_gpudoctor({"diff", newer, newer}), "newer gpudoctor");
  expect_one_line_error(test::run_gpudoctor({"diff", tmp.path() + "/missing.json", newer}),
                        "cannot be read");
  expect_one_line_error(test::run_gpudoctor({"diff", tmp.path(), newer}), "a directory, not a file");
}


// Eight identical H100s: each one's "every API's view" is headed by its index and bus id, as
// the devices table gives them, so that the eight can be told apart.
TEST(ReportHtml, IdenticalDevicesViewsNameTheirIndexAndBusId) {
  const std::string html = html_of("server-h100-torch-cu124", {});
  EXPECT_NE(html.find("<summary>#0 GH100[H100 SXM5 80GB] (0000:1b:00.0): every API's view"),
            std::string::npos);
  EXPECT_NE(html.find("<summary>#7 GH100[H100 SXM5 80GB] (0000:df:00.0): every API"),
            std::string::npos);
}

// Sections of list items only are lists, not a table with an empty label column; a section with
// nothing in it says so under its heading.
TEST(ReportHtml, ListSectionsAreListsAndEmptySectionsSaySo) {
  const std::string broken = html_of("nvidia-driver-library-mismatch", {});
  const std::string toolkits = section_of(broken, "<h3>CUDA toolkits</h3>");
  EXPECT_NE(toolkits.find("</h3>\n<ul class=\"items\"><li>none found</li></ul>"),
            std::string::npos)
      << toolkits;
  EXPECT_NE(section_of(broken, "<h3>Host</h3>")
                .find("</h3>\n<p class=\"none\">nothing read: no /etc/os-release, kernel release or /proc</p>"),
            std::string::npos)
      << section_of(broken, "<h3>Host</h3>");
  const std::string python =
      section_of(html_of("server-h100-torch-cu124", {}), "<h3>Python environments</h3>");
  EXPECT_NE(python.find("</h3>\n<ul class=\"items\"><li>/opt/conda"), std::string::npos) << python;
  EXPECT_NE(python.find("<li class=\"sub\">nvidia-cuda-nvrtc-cu12"), std::string::npos) << python;
  EXPECT_EQ(python.find("<th>"), std::string::npos) << python;
}

}  // namespace
}  // namespace gpudoctor
