// Systems without seccomp (macOS): no filter. The child still leads its own session
// (child_guard.cpp), so it has no terminal to write to and its process-group signals stay its
// own; a signal aimed at gpudoctor's pid is not stopped here.
#include "core/signal_fence.hpp"

namespace gpudoctor {

std::string raise_signal_fence(const FenceTargets&, FenceLog*) {
  return "no system-call filter on this system";
}

std::string describe_fenced_call(const FenceRecord& r, pid_t, pid_t) {
  return "system call " + std::to_string(r.call);
}

}  // namespace gpudoctor
