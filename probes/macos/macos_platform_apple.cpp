// macOS builds: the probe runs the system's own tools.
#include "macos/macos_probe.hpp"

namespace gpudoctor {

const CommandRunner* macos_command_runner() {
  static const SpawnRunner runner;
  return &runner;
}

}  // namespace gpudoctor
