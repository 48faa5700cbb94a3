#pragma once
// `check --oneline`: one line of plain ASCII for node-problem-detector messages and Slurm drain
// reasons, and the exit status that goes with it.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "model/finding.hpp"

namespace gpudoctor {

/// node-problem-detector keeps the first 80 bytes of a message by default
/// (max_output_length); Slurm's reason is shown in `sinfo -R` lists.
inline constexpr std::size_t kOnelineHead = 80;
inline constexpr std::size_t kOnelineMax = 200;

/// "FAIL 2: nvidia.driver_library_mismatch, cuda.init; WARN 1: python.x | <first title>",
/// "WARN 1: … | …", or "OK: 8 GPUs, no failure or warning, 2 notes". The verdict and the ids
/// of the worst level always sit in the first 80 bytes (ids that do not fit become "+N");
/// the whole line is at most 200 bytes, ASCII only, with no newline.
std::string render_oneline(const std::vector<Finding>& findings, std::size_t gpus);

/// "UNKNOWN: <why>" for a run that could not look at the machine (exit status 2).
std::string render_oneline_unknown(std::string_view why);

/// 1 when a finding is at `fail_on` or worse (fail, or warn with --fail-on warn); 0 otherwise.
int fleet_exit_code(const std::vector<Finding>& findings, Severity fail_on);

/// The text as printable ASCII: common typographic characters spelled out ("→" as "->"),
/// anything else outside ASCII as '?', control characters as spaces.
std::string ascii_only(std::string_view text);

}  // namespace gpudoctor
