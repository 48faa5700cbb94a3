#include "cli.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <sstream>

#include "backends.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

void add_common(CLI::App& sub, Options& o, std::string& backends, double& timeout_s,
                std::string& color) {
  sub.add_flag("--json", o.json, "Print JSON for machines instead of text");
  sub.add_option("--backend", backends,
                 "Only these backends, comma separated: " + backend_names(","));
  sub.add_option("--sysroot", o.sysroot,
                 "Read every file under DIR (a fixture tree or a mounted image); "
                 "vendor libraries are not loaded");
  sub.add_option("--python-env", o.python_envs,
                 "Also read this Python environment: a prefix (venv, conda env) or a "
                 "site-packages directory; repeatable")
      ->take_all()
      ->allow_extra_args(false);
  sub.add_option("--timeout", timeout_s,
                 "Seconds each probe that loads a vendor library may take (default 5; 20 "
                 "when smoke tests run, as a cold driver compiles their kernels first)")
      ->check(CLI::Range(0.1, 600.0));
  sub.add_option("--color", color, "auto, always or never (NO_COLOR is honoured)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

}  // namespace

CliResult parse_cli(const std::vector<std::string>& args, const std::string& version) {
  CLI::App app{"gpudoctor: is your GPU compute stack working, and if not, why and what to change.",
               "gpudoctor"};
  app.set_version_flag("--version", "gpudoctor " + version);
  app.require_subcommand(0, 1);
  app.footer(
      "Run without a command to get `gpudoctor check`.\n"
      "Exit status: 0 nothing failed, 1 a check failed, 2 usage or input error.");

  Options o;
  std::string backends;
  double timeout_s = 0;  // 0: not given; the default depends on whether smoke tests run
  std::string color = "auto";
  CLI::App* query =
      app.add_subcommand("query", "Every GPU and compute device, through every API that sees it");
  CLI::App* check =
      app.add_subcommand("check", "Diagnose the GPU compute stack and say what to fix");
  add_common(*query, o, backends, timeout_s, color);
  add_common(*check, o, backends, timeout_s, color);
  check->add_option("--from", o.from,
                    "Re-run every check on a recorded report (gpudoctor query/check --json) "
                    "instead of this machine");
  check->add_flag("--no-smoke", o.no_smoke,
                  "Skip the smoke matmul that check runs on every CUDA, OpenCL and Vulkan "
                  "device");
  CLI::App* report = app.add_subcommand(
      "report", "The whole picture as JSON (and HTML) for a bug ticket, redacted by default");
  add_common(*report, o, backends, timeout_s, color);
  report->add_flag("--no-smoke", o.no_smoke, "Skip the smoke matmuls");
  report->add_option("-o,--output", o.output,
                     "Write the JSON to FILE (atomically) instead of stdout");
  report->add_option("--html", o.html, "Also write one self-contained HTML page to FILE");
  report->add_flag("--no-redact", o.no_redact,
                   "Keep user names, home directories, host name, serials, UUIDs and the "
                   "environment (variables that look like secrets are never written)");
  report->add_option("--bench", o.bench_file,
                     "Include benchmark results: what `gpudoctor bench --json` wrote to FILE");
  CLI::App* diff = app.add_subcommand(
      "diff", "What differs that matters between two reports (one machine works, one does not)");
  diff->add_option("files", o.diff_files, "A.json B.json")->required()->expected(2);
  diff->add_flag("--json", o.json, "Print JSON for machines instead of text");
  CLI::App* bench = app.add_subcommand(
      "bench", "How fast each device multiplies matrices, against the CPU BLAS and its own peak");
  double bench_timeout_s = 300.0;
  bench->add_flag("--json", o.json, "Print JSON for machines instead of text");
  bench->add_option("--backend", backends,
                    "Only these GPU APIs, comma separated: opencl,vulkan,cuda");
  bench
      ->add_option("--sizes", o.sizes,
                   "Matrix sizes n, comma separated (default 64,128,256,512,1024)")
      ->delimiter(',')
      ->check(CLI::Range(1, 16384));
  bench->add_option("--plot", o.plot, "Write an SVG chart of GFLOPS against size to FILE");
  bench->add_flag("--no-vendor-blas", o.no_vendor_blas,
                  "Only gpudoctor's kernels and OpenBLAS: no CLBlast, cuBLAS or MKL series");
  bench
      ->add_option("--timeout", bench_timeout_s,
                   "Seconds each benchmark child (one per driver) may take (default 300)")
      ->check(CLI::Range(1.0, 3600.0));
  CLI::App* explain = app.add_subcommand("explain", "What a check looks at, why, and its source");
  explain->add_option("id", o.explain_id, "Check id, e.g. nvidia.nouveau_bound")->required();

  std::vector<std::string> rev(args.rbegin(), args.rend());
  CliResult result;
  try {
    app.parse(rev);
  } catch (const CLI::CallForHelp&) {
    result.out = app.help();
    return result;
  } catch (const CLI::CallForVersion&) {
    result.out = app.version() + "\n";
    return result;
  } catch (const CLI::ParseError& e) {
    std::ostringstream out;
    std::ostringstream err;
    result.exit_code = app.exit(e, out, err) == 0 ? 0 : 2;
    result.out = out.str();
    result.err = err.str();
    return result;
  }
  if (query->parsed()) o.command = Command::query;
  if (check->parsed()) o.command = Command::check;
  if (explain->parsed()) o.command = Command::explain;
  if (report->parsed()) o.command = Command::report;
  if (diff->parsed()) o.command = Command::diff;
  if (bench->parsed()) {
    o.command = Command::bench;
    timeout_s = bench_timeout_s;
  }
  if (timeout_s == 0) {
    const bool smoke =
        (o.command == Command::check || o.command == Command::report) && !o.no_smoke && !o.from;
    timeout_s = smoke ? 20.0 : 5.0;
  }
  o.timeout = std::chrono::milliseconds(static_cast<long>(timeout_s * 1000.0));
  o.color = color == "always"  ? ColorMode::always
            : color == "never" ? ColorMode::never
                               : ColorMode::automatic;
  for (auto& b : split_words(backends, ", ")) {
    if (!find_backend(b)) {
      result.exit_code = 2;
      result.err = "gpudoctor: unknown backend '" + b + "' (known: " + backend_names() + ")\n";
      return result;
    }
    if (std::find(o.backends.begin(), o.backends.end(), b) == o.backends.end()) {
      o.backends.push_back(b);
    }
  }
  result.options = o;
  return result;
}

}  // namespace gpudoctor
