#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "render/style.hpp"

namespace gpudoctor {

enum class Command { query, check, explain, report, diff, bench };

/// The command line as a plain value.
struct Options {
  Command command = Command::check;
  std::vector<std::string> backends;  ///< empty: all
  bool json = false;
  std::optional<std::string> sysroot;
  std::vector<std::string> python_envs;  ///< --python-env DIR, repeatable
  std::chrono::milliseconds timeout{5000};
  ColorMode color = ColorMode::automatic;
  std::optional<std::string> from;     ///< check --from FILE: a recorded snapshot
  bool no_smoke = false;               ///< check --no-smoke: skip the smoke matmuls
  std::string explain_id;              ///< explain ID
  std::optional<std::string> output;   ///< report -o FILE (written atomically)
  std::optional<std::string> html;     ///< report --html FILE
  bool no_redact = false;              ///< report --no-redact
  std::optional<std::string> bench_file;  ///< report --bench FILE: a saved `bench --json`
  std::vector<std::string> diff_files; ///< diff A B
  std::vector<int> sizes;              ///< bench --sizes: matrix sizes (empty: the defaults)
  std::optional<std::string> plot;     ///< bench --plot FILE.svg (written atomically)
  bool no_vendor_blas = false;         ///< bench --no-vendor-blas: gpudoctor's kernels only
};

/// Either options to run with, or text to print and an exit code (help, version, errors).
struct CliResult {
  std::optional<Options> options;
  int exit_code = 0;
  std::string out;  ///< for stdout (help, version)
  std::string err;  ///< for stderr (usage errors)
};

CliResult parse_cli(const std::vector<std::string>& args, const std::string& version);

}  // namespace gpudoctor
