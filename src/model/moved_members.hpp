#pragma once
// Puts what an older report kept in one section where this schema keeps it.
#include <utility>

#include "model/snapshot.hpp"

namespace gpudoctor {

/// A report written before the access facts moved to the host has rocm.device_nodes,
/// rocm.dev_listed and rocm.account (read into rocm.older_access): they become host.access,
/// unless the report also has that. A report without a host section gets one holding only them.
inline void adopt_moved_members(Snapshot& snap) {
  if (!snap.rocm || !snap.rocm->older_access) return;
  if (!snap.host) snap.host.emplace();
  if (!snap.host->access) snap.host->access = std::move(snap.rocm->older_access);
  snap.rocm->older_access.reset();
}

}  // namespace gpudoctor
