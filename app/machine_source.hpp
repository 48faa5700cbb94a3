#pragma once
// Where a command's machine comes from: this machine's probes, or a recorded report
// (`--from`). The one place a command reads a snapshot.
#include <string>
#include <variant>
#include <vector>

#include "cli.hpp"
#include "devices.hpp"
#include "environment.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {

struct Machine {
  Snapshot snap;
  std::vector<MergedDevice> devices;
};

/// The machine the options name, or a one-line reason (for exit status 2).
std::variant<Machine, std::string> load_machine(const Options& opt, const Environment& env);

}  // namespace gpudoctor
