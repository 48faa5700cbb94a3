#pragma once
#include "model/host.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

/// OS, kernel, CPU, memory, libc and whether we run in a container, WSL or a VM.
/// Reads files under the root; uname and the libc version only when the root is the host.
HostInfo probe_host(const ProbeContext& ctx);

}  // namespace gpudoctor
