#pragma once
// A close-on-exec pipe on every system gpudoctor builds on.
#include <fcntl.h>
#include <unistd.h>

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

}  // namespace gpudoctor
