#pragma once
// The facts `gpudoctor diff` compares, shared by diff.cpp and the per-platform fact lists.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/snapshot.hpp"

namespace gpudoctor::diff {

/// Most likely cause first: what failed, then the stack from the driver up, then the rest.
enum Rank {
  kFailure,
  kSmoke,
  kDriver,
  kToolkit,
  kCudnn,
  kFramework,
  kPython,
  kDevice,
  kVariable,
  kWarning,
  kHost,
  kApi,
  kNote
};

/// Every fact of one machine that diff compares, keyed by area and name.
class Facts {
 public:
  struct Fact {
    int rank;
    std::string area;
    std::string what;
    std::string value;
  };

  void add(int rank, const std::string& area, const std::string& what,
           const std::optional<std::string>& value);
  /// A set of values, order-free: "12.4, 13.0".
  void add_set(int rank, const std::string& area, const std::string& what,
               const std::set<std::string>& values);
  const std::vector<Fact>& all() const { return facts_; }

 private:
  std::vector<Fact> facts_;
};

/// ROCm: the amdgpu module, device files and groups, installs, HIP, GPU targets, variables.
void add_rocm(Facts& f, const Snapshot& s);

/// macOS: its version, the chip, Rosetta, Metal per GPU, eGPUs, PlaidML, variables.
void add_macos(Facts& f, const Snapshot& s);

}  // namespace gpudoctor::diff
