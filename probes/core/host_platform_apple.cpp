// macOS builds.
#include "core/host_platform.hpp"

#include "platform/platform.hpp"

namespace gpudoctor {

std::string_view host_platform() { return kPlatformMacos; }

}  // namespace gpudoctor
