#include "host/host_probe.hpp"
namespace gpudoctor {
HostInfo probe_host(const ProbeContext&) { return {}; }
}  // namespace gpudoctor
