// The built gpudoctor's command-line conventions as a user meets them: options on the default
// command, help, "did you mean", explain's ids, --only/--skip, exit statuses per command,
// options that would do nothing, colour and marks, and what check's text names once.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "checks/check_ids.hpp"
#include "cli.hpp"
#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

extern char** environ;

namespace gpudoctor {
namespace {

using test::run_gpudoctor;

std::vector<std::string> finding_ids(const std::string& check_json) {
  std::vector<std::string> ids;
  const Json doc = Json::parse(check_json);
  for (const auto& f : doc["findings"]) ids.push_back(f["id"].get<std::string>());
  return ids;
}

/// A usage error: exit 2, one line on stderr starting "gpudoctor:", containing `words`.
void expect_usage_error(const test::CommandResult& r, const std::string& words) {
  EXPECT_EQ(r.exit_code, kExitUsage) << r.out << r.err;
  EXPECT_EQ(r.err.rfind("gpudoctor: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

const std::string kNouveau = test::fixture_path("nvidia-nouveau-bound");

TEST(CliConventions, OptionsWorkOnTheDefaultCommand) {
  auto json = run_gpudoctor({"--json", "--sysroot", kNouveau});
  ASSERT_EQ(json.exit_code, 1) << json.err;  // nouveau owns the GPU: a failure
  const auto ids = finding_ids(json.out);
  ASSERT_FALSE(ids.empty()) << json.out;
  EXPECT_EQ(ids.front(), "nvidia.nouveau_bound");
  auto explicit_check = run_gpudoctor({"check", "--json", "--sysroot", kNouveau});
  EXPECT_EQ(finding_ids(json.out), finding_ids(explicit_check.out));

  const auto opts = parse_cli({"--no-smoke", "--json"}, "1");
  ASSERT_TRUE(opts.options) << opts.err;
  EXPECT_EQ(opts.options->command, Command::check);
  EXPECT_TRUE(opts.options->no_smoke);
  EXPECT_TRUE(opts.options->json);
}

TEST(CliConventions, ShortVersionAndHelpCommand) {
  auto v = run_gpudoctor({"-V"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out, run_gpudoctor({"--version"}).out);
  EXPECT_EQ(v.out.rfind("gpudoctor ", 0), 0u);

  auto help = run_gpudoctor({"help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.out, run_gpudoctor({"--help"}).out);
  EXPECT_NE(help.out.find("Exit status:"), std::string::npos);

  auto help_check = run_gpudoctor({"help", "check"});
  EXPECT_EQ(help_check.exit_code, 0);
  EXPECT_EQ(help_check.out, run_gpudoctor({"check", "--help"}).out);
  EXPECT_NE(help_check.out.find("--only"), std::string::npos);

  expect_usage_error(run_gpudoctor({"help", "chekc"}), "did you mean 'check'?");
}

TEST(CliConventions, TyposGetDidYouMean) {
  expect_usage_error(run_gpudoctor({"qeury"}), "no command 'qeury' (did you mean 'query'?)");
  expect_usage_error(run_gpudoctor({"check", "--no-smok"}), "did you mean '--no-smoke'?");
  expect_usage_error(run_gpudoctor({"--jsn"}), "did you mean '--json'?");
  expect_usage_error(run_gpudoctor({"query", "--backend", "vulkn"}), "did you mean 'vulkan'?");
  expect_usage_error(run_gpudoctor({"explain", "nvidia.nouvaeu_bound"}),
                     "did you mean 'nvidia.nouveau_bound'?");
  expect_usage_error(run_gpudoctor({"check", "--only", "cuda.stub_libcdua"}),
                     "did you mean 'cuda.stub_libcuda'?");
  // Every message, CLI11's own included, says whose it is.
  expect_usage_error(run_gpudoctor({"query", "--timeout", "0"}), "--timeout");
  expect_usage_error(run_gpudoctor({"diff", "only-one.json"}), "diff");
}

TEST(CliConventions, MetavarsSayWhatTheValueIs) {
  const std::string help = run_gpudoctor({"help", "check"}).out +
                           run_gpudoctor({"help", "report"}).out +
                           run_gpudoctor({"help", "bench"}).out +
                           run_gpudoctor({"help", "explain"}).out;
  for (const char* want : {"--sysroot DIR", "--python-env DIR", "--from FILE", "--timeout SECONDS",
                           "--only ID", "-o,--output FILE", "--plot FILE", "--backend NAME",
                           "--color auto|always|never"}) {
    EXPECT_NE(help.find(want), std::string::npos) << want;
  }
  for (const char* generic : {" TEXT", "FLOAT", ":FLOAT", ":{"}) {
    EXPECT_EQ(help.find(generic), std::string::npos) << generic << "\n" << help;
  }
}

TEST(CliConventions, ExplainListsMatchesAnyCaseAndUniquePrefix) {
  auto list = run_gpudoctor({"explain"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  for (const auto& c : all_check_ids()) {
    EXPECT_NE(list.out.find(c.id + "  "), std::string::npos) << c.id;
  }
  auto upper = run_gpudoctor({"explain", "NVIDIA.NOUVEAU_BOUND"});
  EXPECT_EQ(upper.exit_code, 0);
  EXPECT_EQ(upper.out, run_gpudoctor({"explain", "nvidia.nouveau_bound"}).out);
  EXPECT_EQ(run_gpudoctor({"explain", "nvidia.nouv"}).out, upper.out);

  auto ambiguous = run_gpudoctor({"explain", "nvidia."});
  expect_usage_error(ambiguous, "could be any of");
  EXPECT_NE(ambiguous.err.find("nvidia.nouveau_bound"), std::string::npos);
  EXPECT_NE(ambiguous.err.find("nvidia.device_nodes"), std::string::npos);

  // An id a check also emits is explained under its own name.
  auto also = run_gpudoctor({"explain", "probe.crashed"});
  EXPECT_EQ(also.exit_code, 0);
  EXPECT_EQ(also.out.rfind("probe.crashed", 0), 0u) << also.out;
}

TEST(CliConventions, OnlyAndSkipPickFindings) {
  auto only = run_gpudoctor({"check", "--json", "--sysroot", kNouveau, "--only", "nvidia"});
  EXPECT_EQ(finding_ids(only.out), std::vector<std::string>{"nvidia.nouveau_bound"});
  EXPECT_EQ(only.exit_code, 1);

  auto skip = run_gpudoctor(
      {"check", "--json", "--sysroot", kNouveau, "--skip", "nvidia.nouveau_bound,vulkan"});
  EXPECT_EQ(finding_ids(skip.out), std::vector<std::string>{"opencl.no_icd"});
  EXPECT_EQ(skip.exit_code, 0);  // the failure was skipped

  auto several = run_gpudoctor(
      {"check", "--json", "--sysroot", kNouveau, "--only", "OPENCL.no_icd", "--only", "vulkan."});
  EXPECT_EQ(finding_ids(several.out),
            (std::vector<std::string>{"opencl.no_icd", "vulkan.no_driver"}));

  expect_usage_error(run_gpudoctor({"check", "--sysroot", kNouveau, "--skip", "nothing.here"}),
                     "no check or area 'nothing.here'");
}

TEST(CliConventions, IdleOptionsAreRefused) {
  test::TempTree tmp;
  const std::string rec = tmp.write("r.json", "{\"schema_version\": 1}");
  expect_usage_error(run_gpudoctor({"check", "--from", rec, "--sysroot", kNouveau}),
                     "--sysroot does nothing with --from");
  expect_usage_error(run_gpudoctor({"check", "--from", rec, "--python-env", tmp.path()}),
                     "--python-env does nothing with --from");
  expect_usage_error(run_gpudoctor({"check", "--from", rec, "--backend", "pci"}),
                     "--backend does nothing with --from");
  expect_usage_error(run_gpudoctor({"bench", "--backend", "pci"}),
                     "bench times matrix multiplies on opencl, vulkan, cuda, rocm, metal, "
                     "level_zero only");
  EXPECT_EQ(run_gpudoctor({"check", "--from", rec}).exit_code, 0);
}

TEST(CliConventions, DiffExitsLikeDiff) {
  test::TempTree tmp;
  const std::string a = tmp.path() + "/a.json";
  const std::string b = tmp.path() + "/b.json";
  ASSERT_EQ(run_gpudoctor({"report", "-o", a, "--sysroot", kNouveau}).exit_code, 0);
  ASSERT_EQ(run_gpudoctor({"report", "-o", b, "--sysroot",
                           test::fixture_path("nvidia-dkms-stale-module")})
                .exit_code,
            0);
  EXPECT_EQ(run_gpudoctor({"diff", a, a}).exit_code, 0);
  EXPECT_EQ(run_gpudoctor({"diff", a, b}).exit_code, 1);
  EXPECT_EQ(run_gpudoctor({"diff", "--json", a, b}).exit_code, 1);
  EXPECT_EQ(run_gpudoctor({"diff", a, tmp.path() + "/missing.json"}).exit_code, 2);
}

TEST(CliConventions, QueryAndReportDescribeWithoutJudging) {
  // The machine has a failure; query and report still exit 0: they wrote what they found.
  EXPECT_EQ(run_gpudoctor({"query", "--sysroot", kNouveau}).exit_code, 0);
  test::TempTree tmp;
  EXPECT_EQ(run_gpudoctor({"report", "-o", tmp.path() + "/r.json", "--sysroot", kNouveau})
                .exit_code,
            0);
  EXPECT_EQ(run_gpudoctor({"check", "--sysroot", kNouveau}).exit_code, 1);
}

TEST(CliConventions, AnOutputErrorIsNotAUsageError) {
  test::TempTree tmp;
  auto r = run_gpudoctor(
      {"report", "-o", tmp.path() + "/no-such-dir/r.json", "--sysroot", kNouveau});
  EXPECT_EQ(r.exit_code, kExitOutput) << r.err;
  EXPECT_EQ(r.err.rfind("gpudoctor: -o ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(CliConventions, AClosedPipeOnStdoutIsAnOutputError) {
  // A pipe whose reader is gone before gpudoctor writes: EPIPE, deterministically.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);
  const int devnull = ::open("/dev/null", O_WRONLY);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, devnull, STDERR_FILENO);
  std::string bin = GPUDOCTOR_BIN;
  std::string cmd = "explain";
  char* argv[] = {bin.data(), cmd.data(), nullptr};
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, bin.c_str(), &actions, nullptr, argv, environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  ::close(devnull);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), kExitOutput);
}

TEST(CliConventions, AsciiMarksOutsideAUtf8Locale) {
  auto ascii = run_gpudoctor({"check", "--sysroot", kNouveau, "--color", "never"},
                             {"LANG=C", "LC_ALL=", "LC_CTYPE="});
  EXPECT_EQ(ascii.out.find("✗"), std::string::npos) << ascii.out;
  EXPECT_NE(ascii.out.find("x nvidia"), std::string::npos) << ascii.out;
  auto utf8 = run_gpudoctor({"check", "--sysroot", kNouveau, "--color", "never"},
                            {"LANG=C.UTF-8", "LC_ALL=", "LC_CTYPE="});
  EXPECT_NE(utf8.out.find("✗ nvidia"), std::string::npos) << utf8.out;
}

TEST(CliConventions, ForceColorColoursAPipe) {
  auto forced = run_gpudoctor({"check", "--sysroot", kNouveau},
                              {"FORCE_COLOR=1", "NO_COLOR=", "CLICOLOR_FORCE="});
  EXPECT_NE(forced.out.find("\033["), std::string::npos);
  auto empty_no_color = run_gpudoctor({"check", "--sysroot", kNouveau, "--color", "always"},
                                      {"NO_COLOR="});
  EXPECT_NE(empty_no_color.out.find("\033["), std::string::npos);
  auto plain = run_gpudoctor({"check", "--sysroot", kNouveau},
                             {"FORCE_COLOR=", "NO_COLOR=", "CLICOLOR_FORCE="});
  EXPECT_EQ(plain.out.find("\033["), std::string::npos);
  // Not a terminal: no wrapping, whatever COLUMNS says.
  auto narrow = run_gpudoctor({"check", "--sysroot", kNouveau}, {"COLUMNS=30"});
  EXPECT_EQ(narrow.out, plain.out);
}

TEST(CliConventions, PythonEnvFindsTheEnvironmentsInsideADirectory) {
  // The fixture's ~/venvs holds one venv, llm (its README names the wheels).
  const std::string root = test::fixture_path("python-venv-torch-cu124");
  auto r = run_gpudoctor({"query", "--json", "--backend", "python", "--sysroot", root,
                          "--python-env", "/home/dev/venvs"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json doc = Json::parse(r.out);
  std::vector<std::string> from_option;
  for (const auto& env : doc["python"]["envs"]) {
    for (const auto& by : env["found_by"]) {
      if (by == "--python-env") from_option.push_back(env["prefix"].get<std::string>());
    }
  }
  EXPECT_EQ(from_option, std::vector<std::string>{"/home/dev/venvs/llm"}) << r.out;
  // The environment itself, named directly, is still itself.
  auto direct = run_gpudoctor({"query", "--json", "--backend", "python", "--sysroot", root,
                               "--python-env", "/home/dev/venvs/llm"});
  EXPECT_NE(direct.out.find("\"/home/dev/venvs/llm\""), std::string::npos);
}

TEST(CliConventions, IdenticalGpusOnceWithIndexAndBusId) {
  // Eight H100 SXM5 boards (the fixture's README names its source).
  auto r = run_gpudoctor({"check", "--sysroot", test::fixture_path("server-h100-torch-cu124"),
                          "--color", "never"},
                         {"LANG=C.UTF-8"});
  const auto gpu = r.out.find("gpu     ");
  ASSERT_NE(gpu, std::string::npos) << r.out;
  const std::string line = r.out.substr(gpu, r.out.find('\n', gpu) - gpu);
  EXPECT_NE(line.find("×8 (#0-7 at 0000:1b:00.0, 0000:43:00.0,"), std::string::npos) << line;
  EXPECT_EQ(line.find("SXM5", line.find("SXM5") + 1), std::string::npos) << line;  // named once
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

TEST(CliConventions, HtmlCountsOfZeroAreGreen) {
  // A machine with one failure and no warnings: the failure pill red, "0 warnings" green.
  test::TempTree tmp;
  const std::string html = tmp.path() + "/r.html";
  ASSERT_EQ(run_gpudoctor({"report", "--html", html, "--sysroot", kNouveau}).exit_code, 0);
  std::ifstream in(html);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("<span class=\"pill-fail\">1 failure</span>"), std::string::npos);
  EXPECT_NE(page.find("<span class=\"pill-ok\">0 warnings</span>"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

TEST(CliConventions, HtmlRedactionNoteSaysWordsNotJsonKeys) {
  test::TempTree tmp;
  const std::string html = tmp.path() + "/r.html";
  ASSERT_EQ(run_gpudoctor({"report", "--html", html, "--sysroot", kNouveau}).exit_code, 0);
  std::ifstream in(html);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto note = page.find("Redacted: ");
  ASSERT_NE(note, std::string::npos);
  const std::string line = page.substr(note, page.find('\n', note) - note);
  EXPECT_NE(line.find(" host names"), std::string::npos) << line;
  for (const char* key : {"host_name", "serial_number", "user_name", " uuid"}) {
    EXPECT_EQ(line.find(key), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace gpudoctor
