#pragma once
#include "cli.hpp"

namespace gpudoctor {

/// `gpudoctor summary`: 0 when no node fails, 1 when some do, 2 when no input could be read.
int run_summary(const Options& opt);

}  // namespace gpudoctor
