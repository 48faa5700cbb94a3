#pragma once
// The kernel's log of the running boot (Linux): /dev/kmsg when this process may read it (root,
// or kernel.dmesg_restrict=0), else the files syslog keeps. Its GPU lines are read by the
// message knowledge (paste/kernel_log.hpp) into symptoms.
#include <vector>

#include "model/host.hpp"
#include "model/symptom.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

/// Reads the log, appends its symptoms to `symptoms`, and says where it was read from.
KernelLogRead probe_kernel_log(const ProbeContext& ctx, std::vector<Symptom>& symptoms);

}  // namespace gpudoctor
