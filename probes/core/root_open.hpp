#pragma once
// One system call that opens a path under a root directory as root_walk.hpp resolves it:
// Linux's openat2 with RESOLVE_IN_ROOT (5.6 and later). Elsewhere, on older kernels, and where a
// seccomp filter refuses it, Root walks the path itself.
#include <sys/stat.h>

namespace gpudoctor {

/// openat2(root_fd, rel, flags, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS): a descriptor, or
/// -errno; -ENOSYS when this system cannot do it in one call (then never asked again), -EAGAIN
/// when the walk must decide (a rename kept racing it, a magic /proc link, too many links).
int open_in_root(int root_fd, const char* rel, int flags);

/// The same lookup, opened O_PATH (nothing of the file itself is opened) and fstat'ed: 0 or
/// -errno, with the same -ENOSYS and -EAGAIN.
int stat_in_root(int root_fd, const char* rel, struct stat* st);

/// Tests: false makes every lookup take the userspace walk, so both ways are exercised.
void set_open_in_root_enabled(bool enabled);

}  // namespace gpudoctor
