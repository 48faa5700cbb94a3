#pragma once
// One body per command. Each reads its options, calls the probes and the pure library, writes
// what it made, and returns the exit status (0 nothing failed, 1 something failed, 2 usage or
// input error).
#include "cli.hpp"
#include "environment.hpp"

namespace gpudoctor {

int run_query(const Options& opt, const Environment& env);
int run_check(const Options& opt, const Environment& env);
int run_explain(const Options& opt);

}  // namespace gpudoctor
