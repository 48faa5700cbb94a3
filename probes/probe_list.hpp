#pragma once
// The probes' half of the backend registry (src/backends.cpp holds the other half: name, help,
// variables, facts): one row per backend, in the registry's order, saying how its probe runs.
// collect() walks these rows in four passes; adding a backend adds one row here.
#include <string_view>
#include <vector>

#include "collect.hpp"
#include "core/isolate.hpp"
#include "model/snapshot.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

struct ProbeSteps {
  std::string_view backend;  ///< as in all_backends()
  /// 1. File reads that decide which children to start; runs while the process is still
  ///    single threaded, before any child is forked.
  void (*discover)(const ProbeContext&, const CollectRequest&, Snapshot&) = nullptr;
  /// 2. The isolated children it needs (everything that loads a vendor library).
  std::vector<IsolatedJob> (*jobs)(const ProbeContext&, const Snapshot&) = nullptr;
  /// 3. File reads done in process while the children work; fills `outcome` (timed by collect).
  void (*read)(const ProbeContext&, const CollectRequest&, Snapshot&, ProbeOutcome&) = nullptr;
  /// 4. Folds its children's results into its section and records their outcomes.
  void (*fold)(Snapshot&, std::vector<IsolatedResult>, bool live) = nullptr;
};

/// Every backend's probe, in all_backends() order.
const std::vector<ProbeSteps>& all_probes();

}  // namespace gpudoctor
