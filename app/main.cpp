// gpudoctor: parse the command line, collect (or load) a snapshot, check it, render it.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "bench_command.hpp"
#include "checks/checks.hpp"
#include "cli.hpp"
#include "collect.hpp"
#include "devices.hpp"
#include "environment.hpp"
#include "render/check_text.hpp"
#include "render/query_text.hpp"
#include "render/style.hpp"
#include "report_command.hpp"
#include "snapshot_io.hpp"
#include "tool_version.hpp"

using namespace gpudoctor;

namespace {

constexpr int kExitUsage = 2;

int usage_error(const std::string& message) {
  std::cerr << "gpudoctor: " << message << "\n";
  return kExitUsage;
}

int explain(const std::string& id) {
  if (const CheckSpec* spec = find_check(id)) {
    std::cout << render_explain(*spec);
    return 0;
  }
  std::string known;
  for (const auto& c : all_checks()) known += "\n  " + std::string(c.id);
  return usage_error("no check '" + id + "'; known checks:" + known);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  CliResult cli = parse_cli(args, kToolVersion);
  std::cout << cli.out;
  std::cerr << cli.err;
  if (!cli.options) return cli.exit_code;
  const Options& opt = *cli.options;
  if (opt.command == Command::explain) return explain(opt.explain_id);
  if (opt.command == Command::diff) return run_diff(opt);
  const Environment env = Environment::from_process();
  if (opt.command == Command::bench) return run_bench_command(opt, env);

  Snapshot snap;
  if (opt.from) {
    std::error_code ec;
    if (std::filesystem::is_directory(*opt.from, ec)) {
      return usage_error("--from " + *opt.from + ": cannot be read (a directory, not a report)");
    }
    std::ifstream in(*opt.from, std::ios::binary);
    if (!in) {
      return usage_error("--from " + *opt.from + ": cannot be read (" + std::strerror(errno) + ")");
    }
    std::stringstream text;
    text << in.rdbuf();
    auto loaded = snapshot_from_json_text(text.str());
    if (auto* why = std::get_if<std::string>(&loaded)) {
      return usage_error("--from " + *opt.from + ": " + *why);
    }
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
      req.live = false;  // even `--sysroot /`: the README promises files only
    }
    snap = collect(req, env);
  }
  const auto devices = merge_devices(snap);
  const Style style = Style::for_stream(opt.color, ::isatty(STDOUT_FILENO) != 0, env);

  if (opt.command == Command::query) {
    if (opt.json) {
      std::cout << dump_json(query_json(snap, devices), 2) << "\n";
    } else {
      std::cout << render_query_text(snap, devices, style);
    }
    return 0;
  }
  const auto findings = run_checks(CheckInput{snap, devices, builtin_compat()});
  if (opt.command == Command::report) return run_report(opt, snap, devices, findings, env);
  if (opt.json) {
    std::cout << dump_json(check_json(snap, devices, findings), 2) << "\n";
  } else {
    std::cout << render_check_text(snap, devices, findings, style);
  }
  return check_exit_code(findings);
}
