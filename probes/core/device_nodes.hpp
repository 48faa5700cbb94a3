#pragma once
// Device files (/dev/nvidia*, /dev/kfd, /dev/dri/renderD*) as this process finds them.
#include <cstdint>
#include <map>
#include <string>

#include "model/device_node.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

/// /etc/group under the root: gid → name.
std::map<std::uint32_t, std::string> group_names(const Root& root);

/// Owner, group and mode of a device file, and (on this machine) whether this process may read
/// and write it. A fixture tree holds plain files where the machine had device nodes; their
/// owner and mode say nothing about that machine, so only real nodes (or anything on this
/// machine) count.
DeviceNode read_device_node(const ProbeContext& ctx,
                            const std::map<std::uint32_t, std::string>& groups,
                            const std::string& path);

}  // namespace gpudoctor
