#pragma once
// A close-on-exec pipe on every system gpudoctor builds on, and reading one without blocking.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <string>

namespace gpudoctor {

/// pipe2(O_CLOEXEC) on Linux; elsewhere (macOS has no pipe2) pipe() then FD_CLOEXEC on both
/// ends, which is race-free here because gpudoctor creates pipes only from its one thread.
inline bool open_pipe_cloexec(int fds[2]) {
#ifdef __linux__
  return ::pipe2(fds, O_CLOEXEC) == 0;
#else
  if (::pipe(fds) != 0) return false;
  for (int i = 0; i < 2; ++i) ::fcntl(fds[i], F_SETFD, FD_CLOEXEC);
  return true;
#endif
}

/// Reads what a non-blocking pipe holds now into `sink`, keeping at most `cap` bytes: the first
/// ones, or with keep_tail the last (the reading goes on, so the writer never blocks). False at
/// the pipe's end (EOF or an error), when it should be closed.
inline bool read_available(int fd, std::string& sink, std::size_t cap, bool keep_tail = false) {
  char buf[65536];
  for (;;) {
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return errno == EAGAIN || errno == EWOULDBLOCK;
    if (got == 0) return false;
    if (keep_tail) {
      sink.append(buf, static_cast<std::size_t>(got));
      if (sink.size() > 2 * cap) sink.erase(0, sink.size() - cap);
    } else if (sink.size() < cap) {
      sink.append(buf, std::min(static_cast<std::size_t>(got), cap - sink.size()));
    }
  }
}

}  // namespace gpudoctor
