#pragma once
// A fence around an isolated child, raised before its vendor library is loaded, so that the
// library cannot stop, kill or signal the run (issue 29, cause 2). On Linux a seccomp-BPF filter
// (signal_fence_linux.cpp) refuses, with EPERM, every way of signalling or controlling
// gpudoctor itself, its process group, every process at once (kill(-1, …)), init, and the
// isolated siblings alive when the child was forked: kill, tkill, tgkill, rt_sigqueueinfo,
// rt_tgsigqueueinfo, pidfd_open, pidfd_send_signal, ptrace, process_vm_readv/writev,
// prlimit64, and a SIGIO owner (fcntl F_SETOWN, F_SETOWN_EX, ioctl FIOSETOWN, SIOCSPGRP).
// What a driver needs stays open: signals to itself, its threads, its own process group
// (kill(0, …): the child leads its own session) and to the helpers it forks.
//
// Each refused call is written down in a FenceLog, a page the parent shares with the child, so
// that the attempt is reported as that driver's fault even when the child hangs or crashes
// afterwards. Elsewhere (macOS, signal_fence_none.cpp) there is no such filter: the child's own
// session is the only fence there.
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace gpudoctor {

struct FenceRecord {
  std::int64_t call = -1;      ///< the system call's number
  std::int64_t args[3] = {};   ///< its first three arguments
};

/// Lives in memory shared between the parent and one child (mmap MAP_SHARED before the fork).
struct FenceLog {
  std::atomic<std::uint32_t> count{0};  ///< refused calls, all of them
  FenceRecord records[8];               ///< the first ones
};

/// Who the fenced child must not reach.
struct FenceTargets {
  pid_t parent = 0;        ///< gpudoctor
  pid_t parent_group = 0;  ///< gpudoctor's process group (the shell's job, a timeout wrapper's)
  std::vector<pid_t> siblings;  ///< the other isolated children running at the fork
};

/// In the freshly forked child, single threaded, before any vendor code: raises the fence.
/// Returns an empty string, or why there is none (no seccomp here, the kernel refused it).
std::string raise_signal_fence(const FenceTargets& targets, FenceLog* log);

/// One refused call, for a person: "kill(gpudoctor, SIGSTOP)", "kill(-1, SIGKILL): every
/// process". `parent` and `parent_group` are what FenceTargets held.
std::string describe_fenced_call(const FenceRecord& r, pid_t parent, pid_t parent_group);

}  // namespace gpudoctor
