#pragma once
// Who may open the GPU's device files (model/access.hpp), one file each: access_probe.cpp (the
// device files, container mounts and runtime files), access_accounts.cpp (the accounts).
#include <vector>

#include "model/access.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

/// Every access fact of the host, read under the root.
HostAccess probe_access(const ProbeContext& ctx);

/// Who this process is, and the groups that own the device files (or by convention give access
/// to them: render, video), each with its members.
ProcessAccount probe_account(const Root& root, const std::vector<DeviceNode>& nodes);

/// The accounts GPU workloads run as: known services' units under the root, and (on this
/// machine) $USER and $SUDO_USER.
std::vector<WorkloadAccount> probe_workloads(const ProbeContext& ctx);

}  // namespace gpudoctor
