#pragma once
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"

namespace gpudoctor {

/// Where the variables the probes honoured came from when the files are a tree's (--sysroot):
/// the environment the tree recorded, or the analysing machine's, named variable by variable.
/// Absent for this machine's own run (its environment is its own).
struct EnvironmentOrigin {
  std::string source;                 ///< "recorded" (the tree's file) or "this machine"
  std::optional<std::string> file;    ///< "/.gpudoctor/environment.txt" under the root
  std::vector<std::string> variables; ///< the set variables the probes read, by name
  std::vector<std::string> errors;    ///< lines of the file that are not NAME=value
};
GPUDOCTOR_JSON(EnvironmentOrigin, source, file, variables, errors)

}  // namespace gpudoctor
