// gpudoctor: parse the command line, collect (or load) a snapshot, check it, render it.
#include <unistd.h>

#include <filesystem>

#include "bench_command.hpp"
#include "checks/checks.hpp"
#include "cli.hpp"
#include "collect.hpp"
#include "devices.hpp"
#include "environment.hpp"
#include "file_io.hpp"
#include "render/check_text.hpp"
#include "render/query_text.hpp"
#include "render/style.hpp"
#include "render/terminal_text.hpp"
#include "report_command.hpp"
#include "tool_version.hpp"

using namespace gpudoctor;

namespace {

constexpr int kExitUsage = 2;

int usage_error(const std::string& message) {
  print_error(message);
  return kExitUsage;
}

int explain(const std::string& id) {
  if (const CheckSpec* spec = find_check(id)) {
    return emit(render_explain(*spec), 0, true, Style::plain());
  }
  std::string known;
  for (const auto& c : all_checks()) known += "\n  " + std::string(c.id);
  // A list, one id a line: the one error that is not one line.
  write_stderr("gpudoctor: no check '" + terminal_text(id, Style::plain(), true) +
               "'; known checks:" + known + "\n");
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  guard_standard_streams();
  std::vector<std::string> args(argv + 1, argv + argc);
  CliResult cli = parse_cli(args, kToolVersion);
  write_stderr(cli.err);
  if (!cli.options) return emit(cli.out, cli.exit_code, true, Style::plain());
  const Options& opt = *cli.options;
  if (opt.command == Command::explain) return explain(opt.explain_id);
  if (opt.command == Command::diff) return run_diff(opt);
  const Environment env = Environment::from_process();
  if (opt.command == Command::bench) return run_bench_command(opt, env);

  Snapshot snap;
  if (opt.from) {
    auto loaded = read_snapshot_file(*opt.from);
    if (auto* why = std::get_if<std::string>(&loaded)) return usage_error("--from " + *why);
    snap = std::move(std::get<Snapshot>(loaded));
  } else {
    CollectRequest req;
    req.backends = opt.backends;
    req.timeout = opt.timeout;
    req.tool_version = kToolVersion;
    req.smoke =
        (opt.command == Command::check || opt.command == Command::report) && !opt.no_smoke;
    for (const auto& dir : opt.python_envs) {
      // Under --sysroot the directory is a path on the target; otherwise make it absolute here.
      req.python_env_dirs.push_back(opt.sysroot ? dir : std::filesystem::absolute(dir).string());
    }
    if (opt.sysroot) {
      std::error_code ec;
      if (!std::filesystem::is_directory(*opt.sysroot, ec)) {
        return usage_error("--sysroot " + *opt.sysroot + ": not a directory");
      }
      req.root = std::filesystem::absolute(*opt.sysroot);
    }
    snap = collect(req, env);
  }
  const auto devices = merge_devices(snap);
  const Style style = Style::for_stream(opt.color, ::isatty(STDOUT_FILENO) != 0, env);

  if (opt.command == Command::query) {
    if (opt.json) return emit(dump_json(query_json(snap, devices), 2) + "\n", 0, false, style);
    return emit(render_query_text(snap, devices, style), 0, true, style);
  }
  const auto findings = run_checks(CheckInput{snap, devices, builtin_compat()});
  if (opt.command == Command::report) return run_report(opt, snap, devices, findings, env);
  const int code = check_exit_code(findings);
  if (opt.json) return emit(dump_json(check_json(snap, devices, findings), 2) + "\n", code, false, style);
  return emit(render_check_text(snap, devices, findings, style), code, true, style);
}
