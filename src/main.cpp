// gpudoctor: parse the command line, collect a snapshot, render it. Nothing else lives here.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli.hpp"
#include "collect.hpp"
#include "devices.hpp"
#include "environment.hpp"
#include "render/check_text.hpp"
#include "render/query_text.hpp"
#include "render/style.hpp"
#include "version.hpp"

using namespace gpudoctor;

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  CliResult cli = parse_cli(args, kToolVersion);
  std::cout << cli.out;
  std::cerr << cli.err;
  if (!cli.options) return cli.exit_code;
  const Options& opt = *cli.options;
  const Environment env = Environment::from_process();

  CollectRequest req;
  req.backends = opt.backends;
  req.timeout = opt.timeout;
  req.tool_version = kToolVersion;
  if (opt.sysroot) {
    std::error_code ec;
    if (!std::filesystem::is_directory(*opt.sysroot, ec)) {
      std::cerr << "gpudoctor: --sysroot " << *opt.sysroot << ": not a directory\n";
      return 2;
    }
    req.root = std::filesystem::absolute(*opt.sysroot);
  }
  const Snapshot snap = collect(req, env);
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
  if (opt.json) {
    std::cout << dump_json(query_json(snap, devices), 2) << "\n";
  } else {
    std::cout << render_check_text(snap, devices, style);
  }
  return check_exit_code(snap);
}
