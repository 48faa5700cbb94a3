#pragma once
// Reading the access facts (model/access.hpp) off a snapshot: for the checks and the facts.
#include <string>

#include "model/snapshot.hpp"

namespace gpudoctor {

/// The host's access facts; none (nothing listed, /dev not looked at) where the host section
/// was not asked for or a report predates them.
inline const HostAccess& host_access(const Snapshot& s) {
  static const HostAccess kNone;
  return s.host && s.host->access ? *s.host->access : kNone;
}

/// /dev/kfd and the render nodes: the device files ROCm opens.
inline bool is_compute_node(const DeviceNode& d) {
  return d.path == "/dev/kfd" || d.path.rfind("/dev/dri/renderD", 0) == 0;
}

inline bool has_device_node(const HostAccess& a, const std::string& path) {
  for (const auto& d : a.device_nodes) {
    if (d.path == path) return true;
  }
  return false;
}

}  // namespace gpudoctor
