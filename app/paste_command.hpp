#pragma once
// `gpudoctor check --from FILE|-` when FILE is not a gpudoctor report but text a person pasted
// (collect_env, nvidia-smi, …): read it (src/paste/), run every check, print like `check`.
#include <string>

#include "cli.hpp"
#include "environment.hpp"

namespace gpudoctor {

/// Exit 0 or 1 as `check`; 2 with a one-line message when nothing in `text` was recognised.
int run_check_on_paste(const Options& opt, const std::string& name, const std::string& text,
                       const Environment& env);

}  // namespace gpudoctor
