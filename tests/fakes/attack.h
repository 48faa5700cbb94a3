/* What a hostile or broken driver can do to the program that loaded it, for the fake OpenCL ICD
 * and Vulkan driver built with FAKE_ATTACK=<one of the numbers below> (issue 29, cause 2): signal
 * its parent (gpudoctor) by pid, by its process group, by every process at once, through
 * tgkill, sigqueue, a pidfd or a SIGIO owner; signal its own group; write to the terminal.
 * gpudoctor runs each driver in a child of its own session behind a seccomp fence
 * (probes/core/signal_fence.hpp); tests/fault/signal_fence_test.cpp checks that the run
 * survives each and blames the driver.
 *
 * Where a fence that failed would hurt more than the run (kill(-1, …) reaches every process of
 * the user, or of the machine for root), the attack first tries the harmless SIGCONT and stops
 * if that went through, saying so on stderr. */
#ifndef GPUDOCTOR_FAKE_ATTACK_H
#define GPUDOCTOR_FAKE_ATTACK_H

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FAKE_ATTACK_SIGSTOP_PARENT 1
#define FAKE_ATTACK_SIGTSTP_PARENT 2
#define FAKE_ATTACK_SIGTERM_PARENT 3
#define FAKE_ATTACK_SIGKILL_PARENT 4
#define FAKE_ATTACK_SIGUSR1_PARENT 5
#define FAKE_ATTACK_TGKILL_PARENT 6
#define FAKE_ATTACK_SIGQUEUE_PARENT 7
#define FAKE_ATTACK_PIDFD_PARENT 8
#define FAKE_ATTACK_SETOWN_PARENT 9
#define FAKE_ATTACK_KILL_PARENT_GROUP 10
#define FAKE_ATTACK_KILL_ALL 11
#define FAKE_ATTACK_KILL_OWN_GROUP 12
#define FAKE_ATTACK_STOP_OWN_GROUP 13
#define FAKE_ATTACK_TTY 14

static void fake_say(const char* text) {
  if (write(STDERR_FILENO, text, strlen(text)) < 0) {
    /* nothing to do */
  }
}

/* Returns nonzero when the driver should then report failure through its API. */
static int fake_attack(void) {
  const pid_t parent = getppid();
  switch (FAKE_ATTACK) {
    case FAKE_ATTACK_SIGSTOP_PARENT: kill(parent, SIGSTOP); break;
    case FAKE_ATTACK_SIGTSTP_PARENT: kill(parent, SIGTSTP); break;
    case FAKE_ATTACK_SIGTERM_PARENT: kill(parent, SIGTERM); break;
    case FAKE_ATTACK_SIGKILL_PARENT: kill(parent, SIGKILL); break;
    case FAKE_ATTACK_SIGUSR1_PARENT: kill(parent, SIGUSR1); break;
    case FAKE_ATTACK_TGKILL_PARENT: syscall(SYS_tgkill, parent, parent, SIGKILL); break;
    case FAKE_ATTACK_SIGQUEUE_PARENT: {
      union sigval value;
      value.sival_int = 0;
      sigqueue(parent, SIGTERM, value);
      break;
    }
    case FAKE_ATTACK_PIDFD_PARENT: {
      /* A /proc/<pid> directory is a pidfd too (pidfd_send_signal(2)). */
      char path[32];
      snprintf(path, sizeof path, "/proc/%d", (int)parent);
      const int dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (dir >= 0) syscall(SYS_pidfd_send_signal, dir, SIGKILL, NULL, 0);
      const int fd = (int)syscall(SYS_pidfd_open, parent, 0);
      if (fd >= 0) syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0);
      break;
    }
    case FAKE_ATTACK_SETOWN_PARENT: {
      /* SIGIO, whose default action ends a process, to the owner of a pipe that gets data. */
      int p[2];
      if (pipe(p) != 0) break;
      fcntl(p[0], F_SETOWN, parent);
      fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_ASYNC);
      if (write(p[1], "x", 1) < 0) break;
      break;
    }
    case FAKE_ATTACK_KILL_PARENT_GROUP: kill(-getpgid(parent), SIGTERM); break;
    case FAKE_ATTACK_KILL_ALL:
      if (kill(-1, SIGCONT) == 0) {
        fake_say("fake driver: kill(-1, SIGCONT) went through: no fence, SIGKILL not sent\n");
        break;
      }
      kill(-1, SIGKILL);
      break;
    case FAKE_ATTACK_KILL_OWN_GROUP:
      /* Only in a session of its own is the group its own: else it would be the test's. */
      if (getsid(0) != getpid()) {
        fake_say("fake driver: not a session leader, kill(0, SIGKILL) not sent\n");
        return 1;
      }
      kill(0, SIGKILL);
      break;
    case FAKE_ATTACK_STOP_OWN_GROUP:
      if (getsid(0) != getpid()) {
        fake_say("fake driver: not a session leader, kill(0, SIGSTOP) not sent\n");
        return 1;
      }
      kill(0, SIGSTOP);
      break;
    case FAKE_ATTACK_TTY: {
      static const char kMarker[] = "\nFAKE-DRIVER-ON-THE-TERMINAL\n";
      const int tty = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC);
      if (tty >= 0) {
        if (write(tty, kMarker, sizeof kMarker - 1) < 0) fake_say("fake driver: tty write failed\n");
        close(tty);
      }
      if (write(STDIN_FILENO, kMarker, sizeof kMarker - 1) < 0) {
        /* standard input is not writable: as it should be */
      }
      return 1; /* then fails: the run has a finding naming this driver (opencl.no_device) */
    }
    default: break;
  }
  return 0;
}

#endif
