#pragma once
// The command line of fleets: check --oneline, --prometheus, --fail-on, --node-name;
// report --brief, --node-name; the summary command.
#include <CLI/CLI.hpp>
#include <string>

#include "cli.hpp"

namespace gpudoctor {

struct FleetCli {
  CLI::App* summary = nullptr;
  std::string fail_on = "fail";
};

/// Adds the options to `check` and `report`, and the `summary` command to `app`.
FleetCli add_fleet_cli(CLI::App& app, CLI::App& check, CLI::App& report, Options& o);

/// After parsing: the command and the values that need converting.
void finish_fleet_cli(const FleetCli& cli, Options& o);

}  // namespace gpudoctor
