#pragma once
// The command line as data, for the documents generated from it: the man page and the shell
// completions. app/cli_spec.cpp fills it from the CLI11 App that parse_cli builds, so that what
// they say cannot drift from what the program accepts.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpudoctor {

/// What an option's value is, for completion: which words a shell may offer.
enum class ValueKind {
  none,       ///< a flag: no value
  file,       ///< a path to a file
  directory,  ///< a path to a directory
  backends,   ///< backend names, comma separated (choices_)
  check_id,   ///< a finding id
  choice,     ///< one of choices_
  number,     ///< a number: nothing to offer
};

struct CliOption {
  std::vector<std::string> names;  ///< "-o", "--output"; for a positional, its name ("files")
  std::string help;
  std::string metavar;  ///< what the help shows for the value ("DIR"); empty for a flag
  ValueKind kind = ValueKind::none;
  std::vector<std::string> choices;  ///< for choice and backends
  bool positional = false;
  bool repeatable = false;  ///< may be given more than once, or takes several values
  bool required = false;
  int count = 1;  ///< how many values a positional takes
};

struct CliCommand {
  std::string name;
  std::string help;
  std::vector<CliOption> options;  ///< options first, then positionals, in definition order
};

struct CliSpec {
  std::string program;             ///< "gpudoctor"
  std::string description;         ///< one line: what it is
  std::string footer;              ///< what --help prints after the list
  std::vector<CliOption> options;  ///< the program's own: --help, --version
  std::vector<CliCommand> commands;
  std::string default_command;  ///< what runs when no command is named
  std::vector<std::pair<std::string, std::string>> exit_status;  ///< (status, meaning)
};

/// The option of a command with this name (long or short, or a positional's name).
const CliOption* find_option(const CliCommand& command, const std::string& name);

/// The first sentence of a help text, for a completion menu.
std::string short_help(const std::string& help);

}  // namespace gpudoctor
