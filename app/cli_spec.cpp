#include "cli_spec.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iterator>
#include <map>

#include "backends.hpp"
#include "cli.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// What CLI11 cannot say about a value: a metavar of TEXT says neither file nor directory.
/// A metavar of FILE or DIR, or a {a,b} validator, needs no row here.
const std::map<std::string, ValueKind>& known_kinds() {
  static const std::map<std::string, ValueKind> kinds = {
      {"--sysroot", ValueKind::directory}, {"--python-env", ValueKind::directory},
      {"--from", ValueKind::file},         {"--output", ValueKind::file},
      {"--html", ValueKind::file},         {"--bench", ValueKind::file},
      {"--plot", ValueKind::file},         {"files", ValueKind::file},
      {"--backend", ValueKind::backends},  {"id", ValueKind::check_id},
      {"--timeout", ValueKind::number},    {"--sizes", ValueKind::number},
      {"--deadline", ValueKind::number},
      {"--only", ValueKind::check_id},     {"--skip", ValueKind::check_id},
      // A node's name and a number of hours: nothing a shell could offer.
      {"--node-name", ValueKind::number},  {"--stale-after", ValueKind::number},
  };
  return kinds;
}

/// "TEXT:{auto,always,never}" -> {"auto", "always", "never"}
std::vector<std::string> choices_in(const std::string& type_name) {
  const auto open = type_name.find('{');
  const auto close = type_name.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return {};
  return split_words(type_name.substr(open + 1, close - open - 1), ",");
}

/// The backends an option's help lists after "comma separated: ", when each is a backend (bench
/// takes fewer than the rest); else all of them.
std::vector<std::string> backends_in(const std::string& help) {
  std::vector<std::string> out;
  const auto at = help.find("comma separated: ");
  if (at != std::string::npos) {
    for (const auto& name : split_words(help.substr(at + 17), ", ")) {
      if (!find_backend(name)) {
        out.clear();
        break;
      }
      out.push_back(name);
    }
  }
  if (out.empty()) {
    for (const auto& b : all_backends()) out.emplace_back(b.name);
  }
  return out;
}

CliOption describe(const CLI::Option& opt, std::vector<std::string>* unclassified) {
  CliOption o;
  o.positional = !opt.nonpositional();
  if (o.positional) {
    o.names = {opt.get_single_name()};
  } else {
    for (const auto& s : opt.get_snames()) o.names.push_back("-" + s);
    for (const auto& l : opt.get_lnames()) o.names.push_back("--" + l);
  }
  o.help = opt.get_description();
  o.required = opt.get_required();
  o.count = std::max(1, opt.get_expected_min());
  o.repeatable = opt.get_items_expected_max() > 1;
  if (opt.get_items_expected_max() == 0) return o;  // a flag

  const std::string type = opt.get_type_name();
  o.metavar = type.substr(0, type.find(':'));
  o.choices = choices_in(type);
  const std::string key = o.positional ? o.names.front() : o.names.back();
  if (!o.choices.empty()) {
    o.kind = ValueKind::choice;
  } else if (o.metavar == "FILE" || o.metavar.rfind("FILE.", 0) == 0) {
    o.kind = ValueKind::file;
  } else if (o.metavar == "DIR") {
    o.kind = ValueKind::directory;
  } else if (auto it = known_kinds().find(key); it != known_kinds().end()) {
    o.kind = it->second;
  } else {
    o.kind = ValueKind::number;
    if (unclassified) unclassified->push_back(key);
  }
  if (o.kind == ValueKind::backends) o.choices = backends_in(o.help);
  // CLI11's own type names (TEXT, FLOAT) say little: the man page shows what the value is.
  static const char* const kGeneric[] = {"TEXT", "FLOAT", "INT", "UINT", ""};
  if (std::find(std::begin(kGeneric), std::end(kGeneric), o.metavar) != std::end(kGeneric)) {
    if (o.kind == ValueKind::file) o.metavar = "FILE";
    if (o.kind == ValueKind::directory) o.metavar = "DIR";
    if (o.kind == ValueKind::backends) o.metavar = "NAMES";
    if (o.kind == ValueKind::check_id) o.metavar = "ID";
  }
  if (o.kind == ValueKind::choice) o.metavar = join(o.choices, "|");
  return o;
}

std::vector<CliOption> describe_options(const CLI::App& app,
                                        std::vector<std::string>* unclassified) {
  std::vector<CliOption> out;
  std::vector<CliOption> positionals;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_group().empty()) continue;  // hidden
    CliOption o = describe(*opt, unclassified);
    (o.positional ? positionals : out).push_back(std::move(o));
  }
  out.insert(out.end(), positionals.begin(), positionals.end());
  return out;
}

std::string command_name(Command c) {
  switch (c) {
    case Command::query:
      return "query";
    case Command::check:
      return "check";
    case Command::explain:
      return "explain";
    case Command::report:
      return "report";
    case Command::diff:
      return "diff";
    case Command::bench:
      return "bench";
  }
  return "";
}

}  // namespace

CliSpec describe_cli(std::vector<std::string>* unclassified) {
  CliSpec spec;
  parse_cli({}, "", [&](const CLI::App& app) {
    spec.program = app.get_name();
    spec.description = app.get_description();
    spec.footer = app.get_footer();
    spec.options = describe_options(app, unclassified);
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
      spec.commands.push_back(
          {sub->get_name(), sub->get_description(), describe_options(*sub, unclassified)});
    }
  });
  if (auto parsed = parse_cli({}, "").options) spec.default_command = command_name(parsed->command);
  spec.exit_status = exit_status_table();
  return spec;
}

}  // namespace gpudoctor
