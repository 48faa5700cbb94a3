#pragma once
// What `check` does for fleets: the node's name, the --prometheus textfile, the one line.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "model/finding.hpp"
#include "cli.hpp"
#include "environment.hpp"
#include "machine_source.hpp"

namespace gpudoctor {

/// When a check started, for the run's time and duration metrics.
struct CheckClock {
  double started_at = 0;  ///< Unix time
  std::chrono::steady_clock::time_point start;
  static CheckClock now();
  double elapsed() const;
};

/// The host name of the machine examined: under --sysroot the image's /etc/hostname, never the
/// analysing machine's; nullopt when none is known.
std::optional<std::string> analysed_host_name(const Options& opt);

/// --node-name, SLURMD_NODENAME, NODE_NAME or this host's name; "" when none is known.
std::string node_name_for(const Options& opt, const Environment& env);
/// The same, with where it came from, for reports.
std::pair<std::string, std::string> node_name_and_source(const Options& opt,
                                                         const Environment& env);

/// After the check: --prometheus written (0), or 2 with the reason on stderr.
int write_check_metrics(const Options& opt, const Environment& env, const Diagnosis& m,
                        const std::vector<Finding>& findings, const CheckClock& clock);

/// A check that could not look at the machine: the UNKNOWN line (--oneline), metrics that say
/// so (--prometheus); returns 2.
int check_could_not_run(const Options& opt, const Environment& env, const std::string& why,
                        const CheckClock& clock);

/// What a successful check prints with --oneline.
std::string oneline_for(const Diagnosis& m, const std::vector<Finding>& findings);

/// Writes a file the way every output file is written (atomically); the reason on failure.
std::string write_output_file(const std::string& path, const std::string& text);

}  // namespace gpudoctor
