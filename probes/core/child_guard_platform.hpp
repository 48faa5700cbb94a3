#pragma once
// What child_guard.cpp needs that only some systems have (child_guard_linux.cpp, with a stub
// in child_guard_none.cpp). Everything here may run in a signal handler.
#include <sys/types.h>

#include <atomic>

namespace gpudoctor::platform {

/// In a freshly forked child: die with the parent (`parent` is its pid before the fork).
void die_with_parent(pid_t parent);
/// In the parent: orphans of its descendants are handed to it, not to init.
void become_subreaper();
/// SIGKILL to every direct child of this process whose pid is not in tracked[0..n), and to its
/// process group; their pids go to killed[0..max). Returns how many.
int kill_untracked_children(const std::atomic<pid_t>* tracked, int n, pid_t* killed, int max);

}  // namespace gpudoctor::platform
