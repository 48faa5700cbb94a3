#pragma once
// DKMS's builds of GPU kernel modules (Linux): the build log of each module and version
// (/var/lib/dkms/<module>/<version>/build/make.log), the kernel it was for, whether a module
// came out of it, and whether that kernel is installed and running.
#include <vector>

#include "model/host.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

std::vector<DkmsBuild> probe_dkms_builds(const ProbeContext& ctx);

}  // namespace gpudoctor
