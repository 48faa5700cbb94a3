// Every other OS: no macOS tools to run. Recorded outputs under --sysroot are still read.
#include "macos/macos_probe.hpp"

namespace gpudoctor {

const CommandRunner* macos_command_runner() { return nullptr; }

}  // namespace gpudoctor
