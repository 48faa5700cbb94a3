#include "cli.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

#include "backends.hpp"
#include "checks/check_ids.hpp"
#include "cli/suggest.hpp"
#include "fleet_cli.hpp"
#include "paste/read_pasted.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// CLI::Range lets NaN through (every comparison with it is false): a timeout must be a number.
const CLI::Validator kFinite(
    [](std::string& text) {
      double v = 0;
      return CLI::detail::lexical_cast(text, v) && std::isfinite(v)
                 ? std::string()
                 : "Value " + text + " is not a finite number of seconds";
    },
    "");

/// The GPU APIs bench has a matmul for.
const std::vector<std::string> kBenchBackends = {"opencl", "vulkan", "cuda", "rocm", "metal",
                                                 "level_zero"};

/// One line on stderr, exit 2: "gpudoctor: check: --only x: ...".
CliResult usage_error(const std::string& command, const std::string& message) {
  CliResult r;
  r.exit_code = kExitUsage;
  r.err = "gpudoctor: " + (command.empty() ? "" : command + ": ") + message + "\n";
  return r;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  return names;
}

bool is_command(const CLI::App& app, const std::string& word) {
  const auto names = command_names(app);
  return std::find(names.begin(), names.end(), word) != names.end();
}

/// What CLI11 cannot do before it parses: `help [COMMAND]`; options with no command (they are
/// check's, the default command's); a mistyped command or long option, with a near name.
std::optional<CliResult> before_parse(CLI::App& app, std::vector<std::string>& words) {
  const std::string commands = join(command_names(app), ", ");
  if (!words.empty() && words[0] == "help") {
    CliResult r;
    if (words.size() == 1) {
      r.out = app.help();
      return r;
    }
    if (words.size() > 2) return usage_error("help", "takes one command, not several");
    if (!is_command(app, words[1])) {
      return usage_error("help", "no command '" + words[1] + "'" +
                                     did_you_mean(words[1], command_names(app)) +
                                     " (commands: " + commands + ")");
    }
    words = {words[1], "--help"};  // CLI11's help for it, with "gpudoctor" in its usage line
    return std::nullopt;
  }
  static const char* const kProgramOptions[] = {"-h", "--help", "-V", "--version"};
  const bool program_option =
      !words.empty() && std::find(std::begin(kProgramOptions), std::end(kProgramOptions),
                                  words[0]) != std::end(kProgramOptions);
  if (words.empty() || (starts_with(words[0], "-") && !program_option)) {
    words.insert(words.begin(), "check");
  } else if (!program_option && !is_command(app, words[0])) {
    return usage_error("", "no command '" + words[0] + "'" +
                               did_you_mean(words[0], command_names(app)) +
                               " (commands: " + commands + "; gpudoctor help lists them)");
  }
  if (program_option) return std::nullopt;
  const CLI::App* sub = app.get_subcommand(words[0]);
  std::vector<std::string> long_names{"--help"};
  for (const CLI::Option* opt : sub->get_options()) {
    for (const auto& l : opt->get_lnames()) long_names.push_back("--" + l);
  }
  for (std::size_t i = 1; i < words.size() && words[i] != "--"; ++i) {
    if (!starts_with(words[i], "--")) continue;
    const std::string name = words[i].substr(0, words[i].find('='));
    if (std::find(long_names.begin(), long_names.end(), name) == long_names.end()) {
      return usage_error(words[0], "no option " + name + did_you_mean(name, long_names) +
                                       " (gpudoctor help " + words[0] + " lists them)");
    }
  }
  return std::nullopt;
}

/// Options that would be accepted and then do nothing are refused: a recorded report is
/// checked as it was recorded, so what chooses how to probe a machine has no machine to probe.
std::optional<CliResult> refuse_idle_options(const CLI::App& app, const Options& o) {
  const CLI::App* check = app.get_subcommand("check");
  if (!check->parsed() || !o.from) return std::nullopt;
  // (--no-smoke is let be: what it asks for, no smoke matmul, is what --from does anyway.)
  for (const char* name : {"--sysroot", "--python-env", "--backend", "--timeout", "--deadline"}) {
    if (check->get_option(name)->count() > 0) {
      return usage_error("check", std::string(name) +
                                      " does nothing with --from: the recorded report is "
                                      "checked as it was recorded; drop one of them");
    }
  }
  return std::nullopt;
}

/// Whether the command that ran was given --backend (an empty value included).
bool backend_given(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands()) {
    const CLI::Option* opt = sub->get_option_no_throw("--backend");
    if (opt != nullptr && opt->count() > 0) return true;
  }
  return false;
}

void add_common(CLI::App& sub, Options& o, std::string& backends, double& timeout_s,
                std::string& color) {
  sub.add_flag("--json", o.json, "Print JSON for machines instead of text");
  sub.add_option("--backend", backends,
                 "Only these backends, comma separated: " + backend_names(", "))
      ->type_name("NAME,...");
  sub.add_option("--sysroot", o.sysroot,
                 "Read every file under DIR (a fixture tree or a mounted image); "
                 "vendor libraries are not loaded")
      ->type_name("DIR");
  sub.add_option("--python-env", o.python_envs,
                 "Also read this Python environment: a prefix (venv, conda env), a "
                 "site-packages directory, or a directory of environments (each one inside "
                 "it); repeatable")
      ->type_name("DIR")
      ->take_all()
      ->allow_extra_args(false);
  sub.add_option("--timeout", timeout_s,
                 "Seconds each probe that loads a vendor library may take (default 5; 20 "
                 "when smoke tests run, as a cold driver compiles their kernels first)")
      ->type_name("SECONDS")
      ->check(kFinite)
      ->check(CLI::Range(0.1, 600.0).description(""));
  sub.add_option("--deadline", o.deadline_s,
                 "Seconds the whole run may take: probes not started by then are not started, "
                 "running ones are stopped, and the verdict names them \"not examined: "
                 "deadline\" (a health check's engine kills what runs past its own limit)")
      ->type_name("SECONDS")
      ->check(kFinite)
      ->check(CLI::Range(1.0, 86400.0).description(""));
  sub.add_option("--color", color,
                 "auto, always or never (auto: on a terminal; NO_COLOR turns it off, "
                 "FORCE_COLOR and CLICOLOR_FORCE on)")
      ->type_name("WHEN")
      ->option_text("auto|always|never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

}  // namespace

std::vector<std::pair<std::string, std::string>> exit_status_table() {
  return {
      {std::to_string(kExitOk),
       "Nothing failed: no check failed (check), the reports match (diff), every benchmark ran "
       "(bench). query, report and explain describe, they do not judge: 0 whenever they wrote "
       "what they found."},
      {std::to_string(kExitFound),
       "check: a check failed. diff: the two reports differ, as with diff(1). bench: a "
       "benchmark child failed, crashed or timed out."},
      {std::to_string(kExitUsage),
       "A usage error (an unknown command, option, backend or finding id; an option that does "
       "nothing with the others), or input that cannot be read (--from, --sysroot, --bench, "
       "diff's files)."},
      {std::to_string(kExitOutput),
       "The output could not be written: -o, --html or --plot FILE, or standard output closed "
       "(EX_IOERR of sysexits.h)."},
  };
}

CliResult parse_cli(const std::vector<std::string>& args, const std::string& version,
                    const CliInspector& inspect) {
  CLI::App app{"gpudoctor: is your GPU compute stack working, and if not, why and what to change.",
               "gpudoctor"};
  app.set_version_flag("-V,--version", "gpudoctor " + version);
  app.require_subcommand(0, 1);
  std::string footer =
      "Run without a command to get `gpudoctor check` (its options work there too);\n"
      "gpudoctor help COMMAND tells about one.\n\nExit status:";
  for (const auto& [code, meaning] : exit_status_table()) {
    footer += "\n  " + code + std::string(code.size() < 4 ? 4 - code.size() : 1, ' ') + meaning;
  }
  app.footer(footer);

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
  check
      ->add_option("--from", o.from,
                   "Re-run every check on a recorded report (gpudoctor report, query/check "
                   "--json, report --brief), or on any text pasted from a ticket (it reads " +
                       paste_formats_text() + "); - reads stdin")
      ->type_name("FILE");
  check
      ->add_option("--only", o.only,
                   "Show only these findings: ids, unique prefixes of ids, areas (nvidia) or "
                   "prefixes (nvidia.); comma separated or repeated")
      ->type_name("ID")
      ->delimiter(',');
  check
      ->add_option("--skip", o.skip,
                   "Leave out these findings (the same kinds of names as --only)")
      ->type_name("ID")
      ->delimiter(',');
  CLI::Option* verbose = check->add_flag(
      "-v,--verbose", o.verbose,
      "Under each finding also its evidence, the lines it quotes, its id and its source");
  check
      ->add_flag("-q,--quiet", o.quiet,
                 "Print only the problems (warnings and failures), nothing when there is none")
      ->excludes(verbose);
  check->add_flag("--no-smoke", o.no_smoke,
                  "Skip the smoke matmul that check runs on every CUDA, OpenCL and Vulkan "
                  "device");
  CLI::App* report = app.add_subcommand(
      "report",
      "The whole picture as JSON (or HTML, or Markdown to paste) for a bug ticket, redacted by "
      "default");
  add_common(*report, o, backends, timeout_s, color);
  report->add_flag("--no-smoke", o.no_smoke, "Skip the smoke matmuls");
  report
      ->add_option("-o,--output", o.output,
                   "Write the JSON to FILE (atomically) instead of stdout; with neither -o, "
                   "--html nor --markdown, a terminal gets a file gpudoctor-report-TIME.json in "
                   "the current directory and a line saying where")
      ->type_name("FILE");
  report
      ->add_option("--html", o.html,
                   "Write one self-contained HTML page to FILE; the JSON is then written only "
                   "with -o FILE")
      ->type_name("FILE");
  report
      ->add_option("--markdown", o.markdown,
                   "Write a block to paste into a GitHub comment to FILE (- : stdout): the "
                   "diagnosis, then the machine in a collapsed section, redacted as the report, "
                   "under 60,000 characters; the JSON is then written only with -o FILE")
      ->type_name("FILE");
  report->add_flag("--no-redact", o.no_redact,
                   "Keep user names, home directories, host name, serials, UUIDs and the "
                   "environment (variables that look like secrets are never written)");
  report
      ->add_option("--bench", o.bench_file,
                   "Include benchmark results: what `gpudoctor bench --json` wrote to FILE")
      ->type_name("FILE");
  CLI::App* diff = app.add_subcommand(
      "diff", "What differs that matters between two reports (one machine works, one does not)");
  diff->add_option("files", o.diff_files, "A.json B.json")
      ->type_name("FILE")
      ->required()
      ->expected(2);
  diff->add_flag("--json", o.json, "Print JSON for machines instead of text");
  CLI::App* bench = app.add_subcommand(
      "bench", "How fast each device multiplies matrices, against the CPU BLAS and its own peak");
  double bench_timeout_s = 300.0;
  bench->add_flag("--json", o.json, "Print JSON for machines instead of text");
  bench
      ->add_option("--backend", backends,
                   "Only these GPU APIs, comma separated: " + join(kBenchBackends, ", "))
      ->type_name("NAME,...");
  bench
      ->add_option("--sizes", o.sizes,
                   "Matrix sizes n, comma separated (default 64,128,256,512,1024)")
      ->type_name("N,...")
      ->delimiter(',')
      ->check(CLI::Range(1, 16384).description(""));
  bench->add_option("--plot", o.plot, "Write an SVG chart of GFLOPS against size to FILE")
      ->type_name("FILE");
  bench->add_flag("--no-vendor-blas", o.no_vendor_blas,
                  "Only gpudoctor's kernels and OpenBLAS: no CLBlast, cuBLAS, rocBLAS or MKL series");
  bench
      ->add_option("--timeout", bench_timeout_s,
                   "Seconds each benchmark child (one per driver) may take (default 300)")
      ->type_name("SECONDS")
      ->check(kFinite)
      ->check(CLI::Range(1.0, 3600.0).description(""));
  FleetCli fleet = add_fleet_cli(app, *check, *report, o);
  CLI::App* explain = app.add_subcommand(
      "explain", "What a check looks at, why, and its source; with no id, every id");
  explain
      ->add_option("id", o.explain_id,
                   "Finding id, any case, or a prefix only one id has, e.g. nvidia.nouveau")
      ->type_name("ID");

  if (inspect) {
    inspect(app);
    return {};
  }
  CliResult result;
  std::vector<std::string> words = args;
  if (auto early = before_parse(app, words)) return *early;
  std::vector<std::string> rev(words.rbegin(), words.rend());
  try {
    app.parse(rev);
  } catch (const CLI::CallForHelp&) {
    result.out = app.help();
    return result;
  } catch (const CLI::CallForVersion&) {
    result.out = app.version() + "\n";
    return result;
  } catch (const CLI::ParseError& e) {
    // CLI11's sentence, in the lower case of the middle of ours: "gpudoctor: check: the ...".
    std::string what = e.what();
    if (!what.empty() && std::isupper(static_cast<unsigned char>(what[0])) &&
        (what.size() < 2 || std::islower(static_cast<unsigned char>(what[1])))) {
      what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
    }
    return usage_error(words.empty() ? "" : words.front(), what);
  }
  if (query->parsed()) o.command = Command::query;
  if (check->parsed()) o.command = Command::check;
  if (explain->parsed()) o.command = Command::explain;
  if (report->parsed()) o.command = Command::report;
  if (diff->parsed()) o.command = Command::diff;
  finish_fleet_cli(fleet, o);
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
  if (auto refused = refuse_idle_options(app, o)) return *refused;
  for (auto* sel : {&o.only, &o.skip}) {
    for (auto& typed : *sel) {
      const Selector r = resolve_selector(typed);
      if (!r.value) return usage_error("check", r.error);
      typed = *r.value;
    }
  }
  const bool bench_only = o.command == Command::bench;
  const auto backend_list = split_words(backends, ", ");
  if (backend_list.empty() && backend_given(app)) {
    // `--backend ''` (an unset shell variable) would otherwise mean every backend.
    return usage_error(words.front(), "--backend needs at least one name (known: " +
                                          (bench_only ? join(kBenchBackends, ", ")
                                                      : backend_names()) +
                                          ")");
  }
  for (auto& b : backend_list) {
    if (bench_only && std::find(std::begin(kBenchBackends), std::end(kBenchBackends), b) ==
                          std::end(kBenchBackends)) {
      return usage_error("bench", "--backend " + b + ": bench times matrix multiplies on " +
                                      join(kBenchBackends, ", ") + " only" +
                                      did_you_mean(b, kBenchBackends));
    }
    if (!find_backend(b)) {
      std::vector<std::string> known;
      for (const auto& k : all_backends()) known.emplace_back(k.name);
      return usage_error("", "unknown backend '" + b + "'" + did_you_mean(b, known) +
                                 " (known: " + backend_names() + ")");
    }
    if (std::find(o.backends.begin(), o.backends.end(), b) == o.backends.end()) {
      o.backends.push_back(b);
    }
  }
  result.options = o;
  return result;
}

}  // namespace gpudoctor
