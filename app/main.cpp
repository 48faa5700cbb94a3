// gpudoctor: parse the command line, then run the command it names.
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>

#include "bench_command.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "report_command.hpp"
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
  }
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  // A reader that went away (`gpudoctor check | head -1`) is an output error with its own exit
  // status, not a silent death by SIGPIPE. No child gpudoctor starts execs anything.
  std::signal(SIGPIPE, SIG_IGN);
  const std::vector<std::string> args(argv + 1, argv + argc);
  const CliResult cli = parse_cli(args, version_text());
  std::cout << cli.out;
  std::cerr << cli.err;
  int status = cli.options ? run_command(*cli.options) : cli.exit_code;
  errno = 0;
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "gpudoctor: standard output: cannot write ("
              << (errno != 0 ? std::strerror(errno) : "write error") << ")\n";
    status = kExitOutput;
  }
  return status;
}
