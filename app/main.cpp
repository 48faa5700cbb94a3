// gpudoctor: parse the command line, then run the command it names.
#include <csignal>

#include "bench_command.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "file_io.hpp"
#include "terminal.hpp"
#include "report_command.hpp"
#include "summary_command.hpp"
#include "version_text.hpp"

using namespace gpudoctor;

namespace {

int run_command(const Options& opt) {
  const Environment env = Environment::from_process();
  switch (opt.command) {
    case Command::query: return run_query(opt, env);
    case Command::check: return run_check(opt, env);
    case Command::report: return run_report(opt, env);
    case Command::diff: return run_diff(opt);
    case Command::bench: return run_bench_command(opt, env);
    case Command::explain: return run_explain(opt);
    case Command::summary: return run_summary(opt);
  }
  return kExitUsage;
}

/// What the command reads and writes by name, for io_conflict.
std::string io_problem(const Options& opt) {
  std::vector<NamedPath> outputs;
  std::vector<NamedPath> inputs;
  const std::pair<const char*, const std::optional<std::string>*> named_outputs[] = {
      {"-o", &opt.output}, {"--html", &opt.html}, {"--prometheus", &opt.prometheus},
      {"--plot", &opt.plot}};
  for (const auto& [option, path] : named_outputs) {
    if (*path) outputs.push_back({option, **path});
  }
  if (opt.markdown && *opt.markdown != "-") outputs.push_back({"--markdown", *opt.markdown});
  if (opt.from) inputs.push_back({"--from", *opt.from});
  if (opt.bench_file) inputs.push_back({"--bench", *opt.bench_file});
  for (const auto& f : opt.diff_files) inputs.push_back({"diff", f});
  for (const auto& f : opt.summary_inputs) inputs.push_back({"summary", f});
  return io_conflict(outputs, inputs);
}

}  // namespace

int main(int argc, char** argv) {
  // A reader that went away (`gpudoctor check | head -1`) is an output error with its own exit
  // status, not a silent death by SIGPIPE; children get the default back (core/child_guard).
  std::signal(SIGPIPE, SIG_IGN);
  guard_standard_streams();
  const std::vector<std::string> args(argv + 1, argv + argc);
  const CliResult cli = parse_cli(args, version_text());
  write_stderr(cli.err);
  // Help and version: wrapped at a terminal's width like every other text for people.
  if (!cli.options) {
    return emit(cli.out, cli.exit_code, true,
                stdout_style(ColorMode::never, Environment::from_process()));
  }
  if (const std::string why = io_problem(*cli.options); !why.empty()) {
    print_error(why);
    return kExitUsage;
  }
  return run_command(*cli.options);
}
