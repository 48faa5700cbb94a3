#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "core/root_open.hpp"

namespace gpudoctor {

namespace {

bool g_enabled = true;

}  // namespace

int open_in_root(int root_fd, const char* rel, int flags) {
  if (!g_enabled) return -ENOSYS;
  open_how how{};
  how.flags = static_cast<unsigned long long>(flags);
  // Magic links (/proc/<pid>/fd/N, exe, root) end in ELOOP here; the walk follows their text,
  // as it follows every link (below, ELOOP sends the caller to it).
  how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
  for (int tries = 0; tries < 8; ++tries) {
    const long fd = ::syscall(SYS_openat2, root_fd, rel, &how, sizeof how);
    if (fd >= 0) return static_cast<int>(fd);
    if (errno == EINTR || errno == EAGAIN) continue;  // EAGAIN: a rename raced the lookup
    // ENOSYS: before 5.6; EPERM: a seccomp filter (containers); E2BIG: an older open_how.
    if (errno == ENOSYS || errno == EPERM || errno == E2BIG) {
      g_enabled = false;
      return -ENOSYS;
    }
    // ELOOP: a magic link, or too many links, which the walk finds again; EXDEV: a lookup the
    // kernel would not keep in the root. The walk decides both.
    if (errno == ELOOP || errno == EXDEV) return -EAGAIN;
    return -errno;
  }
  return -EAGAIN;
}

int stat_in_root(int root_fd, const char* rel, struct stat* st) {
  const int fd = open_in_root(root_fd, rel, O_PATH | O_CLOEXEC);
  if (fd < 0) return fd;
  const int r = ::fstat(fd, st) == 0 ? 0 : -errno;
  ::close(fd);
  return r;
}

void set_open_in_root_enabled(bool enabled) { g_enabled = enabled; }

}  // namespace gpudoctor
