// Every build that is not for macOS: Linux is the one other platform gpudoctor probes.
#include "core/host_platform.hpp"

#include "platform/platform.hpp"

namespace gpudoctor {

std::string_view host_platform() { return kPlatformLinux; }

}  // namespace gpudoctor
