#include "fleet_cli.hpp"

namespace gpudoctor {

FleetCli add_fleet_cli(CLI::App& app, CLI::App& check, CLI::App& report, Options& o) {
  FleetCli cli;
  const std::string node_help =
      "The node's name in reports and metrics (default: SLURMD_NODENAME, then NODE_NAME, then "
      "the host name); kept when the report is redacted";
  check.add_flag("--oneline", o.oneline,
                 "Print one ASCII line (at most 200 bytes; the verdict and failing ids in the "
                 "first 80) for node-problem-detector and Slurm drain reasons");
  check
      .add_option("--prometheus", o.prometheus,
                  "Also write the metrics to FILE (atomically) for node_exporter's textfile "
                  "collector")
      ->type_name("FILE");
  check
      .add_option("--fail-on", cli.fail_on,
                  "What makes the exit status 1: fail (default) or warn (failures and warnings)")
      ->type_name("WHEN")
      ->option_text("warn|fail")
      ->check(CLI::IsMember({"warn", "fail"}));
  check.add_option("--node-name", o.node_name, node_help)->type_name("NAME");
  report.add_flag("--brief", o.brief,
                  "Write the compact record of this node (about 1 KB, one line) that `summary` "
                  "reads, instead of the full report");
  report.add_option("--node-name", o.node_name, node_help)->type_name("NAME");

  cli.summary = app.add_subcommand(
      "summary",
      "What many nodes' reports say together: findings by node list, versions, outliers");
  cli.summary
      ->add_option("inputs", o.summary_inputs,
                   "Report files, directories of them (*.json, recursively), or - for reports on "
                   "standard input")
      ->type_name("FILE")
      ->required();
  cli.summary->add_flag("--json", o.json, "Print JSON for machines instead of text");
  cli.summary
      ->add_option("--stale-after", o.stale_after_hours,
                   "Hours a report may be older than the newest before it counts as stale "
                   "(default 24)")
      ->type_name("HOURS")
      ->check(CLI::Range(0.0, 1e6).description(""));
  return cli;
}

void finish_fleet_cli(const FleetCli& cli, Options& o) {
  if (cli.summary->parsed()) o.command = Command::summary;
  o.fail_on = cli.fail_on == "warn" ? Severity::warn : Severity::fail;
}

}  // namespace gpudoctor
