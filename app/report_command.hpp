#pragma once
// The impure edge of `gpudoctor report` and `gpudoctor diff`: files, the clock. main.cpp calls
// these; everything they compute is pure code in src/report/.
#include "cli.hpp"
#include "diagnose.hpp"
#include "environment.hpp"

namespace gpudoctor {

/// `gpudoctor report`: 0, 2 when --bench cannot be read, 74 when a file cannot be written.
int run_report(const Options& opt, const Diagnosis& d, const Environment& env);

/// `gpudoctor report` on the machine the options name (this one, or --from).
int run_report(const Options& opt, const Environment& env);

/// `gpudoctor diff A B`: 0 when the reports match, 1 when they differ, 2 when a file cannot be
/// used.
int run_diff(const Options& opt);

}  // namespace gpudoctor
