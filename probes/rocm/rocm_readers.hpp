#pragma once
// The pieces of the rocm probe, one file each; rocm_system_probe.cpp puts them together.
#include "core/root.hpp"
#include "model/rocm.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

/// The GPU nodes of /sys/class/kfd/kfd/topology and the number of CPU nodes.
void probe_kfd_topology(const Root& root, RocmInfo& info);

/// /opt/rocm, /opt/rocm-<version> and ROCM_PATH, each with the version its .info files state.
std::vector<RocmInstall> find_rocm_installs(const ProbeContext& ctx);

}  // namespace gpudoctor
