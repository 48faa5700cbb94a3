#pragma once
// The name a fleet knows a node by. Slurm's emulated nodes share one host name and
// Kubernetes names nodes apart from their hosts, so the engines' own names come first.
#include <optional>
#include <string>

#include "environment.hpp"

namespace gpudoctor {

struct NodeName {
  std::string name;
  std::string source;  ///< "--node-name", "SLURMD_NODENAME", "NODE_NAME", "host name"
};

/// --node-name, else SLURMD_NODENAME (set by slurmd for health checks, prologs and jobs), else
/// NODE_NAME (the Kubernetes downward API's usual variable), else the host name; nullopt when
/// none is known. Control characters become '?', surrounding blanks are dropped, and a value
/// left empty does not count.
std::optional<NodeName> resolve_node_name(const std::optional<std::string>& flag,
                                          const Environment& env,
                                          const std::optional<std::string>& host_name);

}  // namespace gpudoctor
