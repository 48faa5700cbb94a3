// `nvcc --version`, for a toolkit that has no version file. Only ever run on this machine
// (never under --sysroot), with a deadline on the whole run, and only when no file tells the
// version.
#include "core/command_runner.hpp"
#include "nvidia/nvidia_readers.hpp"

namespace gpudoctor {

std::optional<std::string> run_nvcc_version(const std::string& nvcc) {
  const CommandOutput r = SpawnRunner().run({nvcc, "--version"}, {}, std::chrono::seconds(5));
  if (r.timed_out || r.error || r.exit_code != 0) return std::nullopt;
  return r.out.substr(0, 64 * 1024);
}

}  // namespace gpudoctor
