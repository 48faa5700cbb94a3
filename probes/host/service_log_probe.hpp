#pragma once
// The logs of daemons that hand GPUs out (Linux): Slurm's node daemon and controller. Their
// lines since the daemon last started are read by the message knowledge (data/messages/
// slurm.json) into symptoms, as the kernel's log is (kernel_log_probe.hpp).
#include <string>
#include <vector>

#include "model/symptom.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

/// Reads the logs that exist, appends their recognised symptoms to `symptoms`, and returns the
/// files read.
std::vector<std::string> probe_service_logs(const ProbeContext& ctx,
                                            std::vector<Symptom>& symptoms);

}  // namespace gpudoctor
