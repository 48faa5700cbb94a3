// Checks of how a container engine hands GPUs to containers, from the host's files.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "model/access_view.hpp"
#include "text.hpp"

namespace gpudoctor {

void check_nvidia_cdi_spec_stale(const CheckSpec& self, const CheckInput& in,
                                 std::vector<Finding>& out) {
  const HostAccess& a = host_access(in.snap);
  // Inside a container /dev is the container's, not the host's the spec was written for.
  if (in.snap.host && in.snap.host->container) return;
  for (const RuntimeFile& spec : a.cdi_specs) {
    if (spec.missing_device_nodes.empty()) continue;
    if (!spec.kind || !starts_with(*spec.kind, "nvidia.com/")) continue;
    Finding f = make_finding(
        self, Severity::fail,
        "The CDI spec " + spec.path + " names " + join(spec.missing_device_nodes, ", ") +
            ", which this host does not have: every container given " + *spec.kind +
            " devices from it fails (\"failed to stat CDI host device\")");
    f.evidence.push_back(spec.path + ": kind " + *spec.kind);
    for (const auto& node : spec.missing_device_nodes) f.evidence.push_back(node + ": not in /dev");
    f.fix = "regenerate the spec for the devices this host has now (after a driver upgrade or a "
            "change of GPUs the nodes are renumbered): sudo nvidia-ctk cdi generate --output=" +
            spec.path;
    out.push_back(std::move(f));
  }
}

}  // namespace gpudoctor
