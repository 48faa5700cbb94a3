// Linux: the parent-death signal, the child subreaper and the list of this process's children,
// read from /proc with plain system calls only (this runs in signal handlers too).
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>

#include "core/child_guard_platform.hpp"

namespace gpudoctor::platform {

namespace {

/// Decimal digits of v at the end of buf[0..size); returns where they start.
char* format_pid(pid_t v, char* end) {
  char* p = end;
  do {
    *--p = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v > 0 && p > end - 16);
  return p;
}

/// "prefix" + pid + "suffix" into out (a signal handler cannot allocate).
void pid_path(char* out, std::size_t size, const char* prefix, pid_t pid, const char* suffix) {
  char digits[16];
  char* d = format_pid(pid, digits + sizeof digits);
  std::size_t n = 0;
  for (const char* s = prefix; *s != '\0' && n + 1 < size; ++s) out[n++] = *s;
  for (; d < digits + sizeof digits && n + 1 < size; ++d) out[n++] = *d;
  for (const char* s = suffix; *s != '\0' && n + 1 < size; ++s) out[n++] = *s;
  out[n] = '\0';
}

bool is_tracked(pid_t pid, const std::atomic<pid_t>* tracked, int n) {
  for (int i = 0; i < n; ++i) {
    if (tracked[i].load() == pid) return true;
  }
  return false;
}

/// Reads a small file whole; -1 when it cannot be read.
long read_small(const char* path, char* buf, std::size_t size) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  long got = 0;
  while (static_cast<std::size_t>(got) + 1 < size) {
    const ssize_t r = ::read(fd, buf + got, size - 1 - static_cast<std::size_t>(got));
    if (r <= 0) break;
    got += r;
  }
  ::close(fd);
  buf[got] = '\0';
  return got;
}

/// The parent pid in /proc/<pid>/stat: the field after the command, which ends at the last ')'.
pid_t parent_of(pid_t pid) {
  char path[64];
  pid_path(path, sizeof path, "/proc/", pid, "/stat");
  char buf[512];
  const long n = read_small(path, buf, sizeof buf);
  if (n <= 0) return -1;
  const char* close = nullptr;
  for (const char* p = buf; *p != '\0'; ++p) {
    if (*p == ')') close = p;
  }
  if (close == nullptr || close[1] == '\0' || close[2] == '\0' || close[3] != ' ') return -1;
  pid_t ppid = 0;
  for (const char* p = close + 4; *p >= '0' && *p <= '9'; ++p) ppid = ppid * 10 + (*p - '0');
  return ppid;
}

template <typename Visit>
void for_each_pid_in(const char* text, Visit&& visit) {
  pid_t v = 0;
  bool in_number = false;
  for (const char* p = text;; ++p) {
    if (*p >= '0' && *p <= '9') {
      v = v * 10 + (*p - '0');
      in_number = true;
    } else {
      if (in_number) visit(v);
      v = 0;
      in_number = false;
      if (*p == '\0') break;
    }
  }
}

/// Every direct child: /proc/<self>/task/<self>/children where the kernel has it (one thread
/// here), else a walk of /proc comparing parent pids.
template <typename Visit>
void for_each_child(Visit&& visit) {
  const pid_t self = ::getpid();
  char path[96];
  char tail[48];
  pid_path(tail, sizeof tail, "/task/", self, "/children");
  pid_path(path, sizeof path, "/proc/", self, tail);
  static char list[65536];
  if (read_small(path, list, sizeof list) >= 0) {
    for_each_pid_in(list, visit);
    return;
  }
  const int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  alignas(8) static char buf[32768];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
    if (n <= 0) break;
    for (long off = 0; off < n;) {
      const auto* e = reinterpret_cast<const struct dirent64*>(buf + off);
      off += e->d_reclen;
      pid_t pid = 0;
      const char* p = e->d_name;
      for (; *p >= '0' && *p <= '9'; ++p) pid = pid * 10 + (*p - '0');
      if (*p == '\0' && pid > 0 && parent_of(pid) == self) visit(pid);
    }
  }
  ::close(dir);
}

}  // namespace

void die_with_parent(pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);  // the parent died before the line above
}

void become_subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 1); }

int kill_untracked_children(const std::atomic<pid_t>* tracked, int n, pid_t* killed, int max) {
  int count = 0;
  for_each_child([&](pid_t pid) {
    if (is_tracked(pid, tracked, n)) return;
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
    if (count < max) killed[count] = pid;
    ++count;
  });
  return count;
}

}  // namespace gpudoctor::platform
