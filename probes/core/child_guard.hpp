#pragma once
// Every child gpudoctor starts (an isolated probe, sysctl, nvcc …) goes through here, so that
// none of them, nor anything they start, outlives the run: not at a deadline, not on Ctrl-C,
// SIGTERM, SIGHUP or SIGQUIT, not when a `timeout` wrapper stops gpudoctor.
//
//   - The child gets its own session and process group (the whole group is killed, helpers
//     included; no controlling terminal, so /dev/tty cannot be opened), a
//     SIGKILL when gpudoctor dies (Linux PR_SET_PDEATHSIG: the one cover for a SIGKILL that no
//     handler sees), no core files (a crashing driver must not write ./core into the user's
//     directory) and the default signal dispositions.
//   - gpudoctor becomes a child subreaper (Linux), so that a helper that left its group
//     (setsid, a double fork) is handed to gpudoctor when its parent dies, and is killed then.
//   - Handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT kill every group still tracked and the
//     adopted helpers, then let the signal take its default course. A disposition that was
//     SIG_IGN (nohup) is left alone.
#include <sys/types.h>

#include <chrono>

namespace gpudoctor {

/// fork(), guarded: signals held across it, the child prepared as above, the parent tracking
/// the child's group. Returns as fork() does. The process must be single threaded.
pid_t fork_guarded();

/// Once the child has exited: kills what is left of its process group (a helper it forked,
/// still holding its pipes), reaps it and stops tracking it. The group is killed before the
/// child is reaped, while its number cannot have been reused. False while it runs.
bool collect_if_exited(pid_t pid, int& status);

/// Its deadline passed: SIGKILL to the child's process group. collect_if_exited() reaps it.
void kill_child(pid_t pid);

/// collect_if_exited() until it succeeds or `grace` has passed, never a blocking wait: a child
/// stuck in the kernel (uninterruptible sleep) must not hold the parent. On false the child is
/// abandoned (no longer tracked).
bool reap_within(pid_t pid, std::chrono::milliseconds grace, int& status);

/// Stops tracking a child that could not be reaped.
void abandon_child(pid_t pid);

/// Readable whenever a child exits (a SIGCHLD self-pipe), for poll(); drain_child_exits()
/// empties it. -1 before the first fork_guarded().
int child_exit_fd();
void drain_child_exits();

/// Kills and reaps the processes gpudoctor adopted as subreaper (helpers whose parent died)
/// and did not start itself. Returns how many it killed.
int kill_adopted_helpers();

/// How many children are tracked now (tests).
int tracked_children();

}  // namespace gpudoctor
