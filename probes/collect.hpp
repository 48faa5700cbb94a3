#pragma once
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "environment.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {

struct CollectRequest {
  std::vector<std::string> backends;      ///< names from all_backends(); empty means all
  std::filesystem::path root = "/";
  std::chrono::milliseconds timeout{5000};
  std::string tool_version;
  std::vector<std::string> python_env_dirs;  ///< --python-env DIR, as paths on the target
  bool smoke = false;  ///< run the smoke matmul on every device (ProbeContext::smoke)
  /// False under --sysroot, even `--sysroot /`: files only, no vendor library is loaded and no
  /// vendor tool is run (ProbeContext::live).
  bool live = true;
};

/// Runs the probes and returns what they found. Must be called while the process is single
/// threaded: the isolated children are forked first.
Snapshot collect(const CollectRequest& request, const Environment& env);

}  // namespace gpudoctor
