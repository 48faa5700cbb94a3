#pragma once
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/finding.hpp"
#include "render/style.hpp"

namespace CLI {
class App;
}

namespace gpudoctor {

enum class Command { query, check, explain, report, diff, bench, summary };

/// The command line as a plain value.
struct Options {
  Command command = Command::check;
  std::vector<std::string> backends;  ///< empty: all
  bool json = false;
  std::optional<std::string> sysroot;
  std::vector<std::string> python_envs;  ///< --python-env DIR, repeatable
  std::chrono::milliseconds timeout{5000};
  std::optional<double> deadline_s;     ///< --deadline SECONDS: the whole run's
  ColorMode color = ColorMode::automatic;
  std::optional<std::string> from;     ///< check --from FILE: a recorded snapshot
  bool no_smoke = false;               ///< check --no-smoke: skip the smoke matmuls
  bool verbose = false;                ///< check -v: each finding's evidence, id and source
  bool quiet = false;                  ///< check -q: only the problems
  std::string explain_id;              ///< explain ID
  std::optional<std::string> output;   ///< report -o FILE (written atomically)
  std::optional<std::string> html;     ///< report --html FILE
  std::optional<std::string> markdown; ///< report --markdown FILE|-: a block for a ticket
  bool no_redact = false;              ///< report --no-redact
  std::optional<std::string> bench_file;  ///< report --bench FILE: a saved `bench --json`
  std::vector<std::string> diff_files; ///< diff A B
  std::vector<int> sizes;              ///< bench --sizes: matrix sizes (empty: the defaults)
  std::optional<std::string> plot;     ///< bench --plot FILE.svg (written atomically)
  // Fleets (app/fleet_cli.cpp)
  bool oneline = false;                    ///< check --oneline
  std::optional<std::string> prometheus;   ///< check --prometheus FILE (written atomically)
  Severity fail_on = Severity::fail;       ///< check --fail-on warn|fail: what exits 1
  std::optional<std::string> node_name;    ///< check/report --node-name
  bool brief = false;                      ///< report --brief
  std::vector<std::string> summary_inputs; ///< summary DIR|FILE…|-
  double stale_after_hours = 24;           ///< summary --stale-after HOURS
  std::vector<std::string> only;       ///< check --only: selectors (resolve_selector)
  std::vector<std::string> skip;       ///< check --skip: selectors
  bool no_vendor_blas = false;         ///< bench --no-vendor-blas: gpudoctor's kernels only
};

/// Exit statuses, the same for every command (each command's own meaning of 1 is in
/// exit_status_table, which --help and the man page print).
constexpr int kExitOk = 0;
constexpr int kExitFound = 1;   ///< check: a check failed; diff: the reports differ
constexpr int kExitUsage = 2;   ///< usage error or input that cannot be read
constexpr int kExitOutput = 74; ///< output could not be written (sysexits.h EX_IOERR)

/// (status, meaning) rows, for --help's footer and the man page's EXIT STATUS.
std::vector<std::pair<std::string, std::string>> exit_status_table();

/// Either options to run with, or text to print and an exit code (help, version, errors).
struct CliResult {
  std::optional<Options> options;
  int exit_code = 0;
  std::string out;  ///< for stdout (help, version)
  std::string err;  ///< for stderr (usage errors)
};

/// Given `inspect`, parse_cli builds the command line, hands it to `inspect` instead of parsing,
/// and returns nothing: how the man page and the completions read it (app/cli_spec.cpp).
using CliInspector = std::function<void(const CLI::App&)>;

CliResult parse_cli(const std::vector<std::string>& args, const std::string& version,
                    const CliInspector& inspect = {});

}  // namespace gpudoctor
