#pragma once
#include <string_view>

#include "core/host_platform.hpp"
#include "core/root.hpp"
#include "environment.hpp"

namespace gpudoctor {

/// What every probe is given: where to read files, the environment to honour, and whether it
/// may load vendor libraries (false under --sysroot: they cannot be loaded from another root).
struct ProbeContext {
  const Root& root;
  const Environment& env;
  bool live = true;
  bool smoke = false;  ///< run the smoke matmul on every device a vendor API shows
  /// The platform whose files and libraries to look for (core/host_platform.hpp): this
  /// machine's, or a --sysroot tree's.
  std::string_view platform = host_platform();
};

}  // namespace gpudoctor
