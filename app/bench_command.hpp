#pragma once
// The impure edge of `gpudoctor bench`: it runs the bench children, prints, writes the plot.
// Everything it computes is pure code in src/bench/.
#include "cli.hpp"
#include "environment.hpp"

namespace gpudoctor {

/// `gpudoctor bench`: 0; 1 when a bench child failed, crashed or timed out, or a device
/// returned a wrong product; 2 when the plot cannot be written.
int run_bench_command(const Options& opt, const Environment& env);

}  // namespace gpudoctor
