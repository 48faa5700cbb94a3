#include "core/file_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpudoctor {

namespace {

/// Closes the descriptor however `use` returns.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::optional<std::string> with_file_source(
    const Root& root, std::string_view target_path,
    const std::function<void(const binary::ByteSource&)>& use) {
  const std::string host = root.host_path(target_path).string();
  Fd file{::open(host.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) return std::string(target_path) + ": " + std::strerror(errno);
  struct stat st {};
  if (::fstat(file.fd, &st) != 0) return std::string(target_path) + ": " + std::strerror(errno);
  if (!S_ISREG(st.st_mode)) return std::string(target_path) + ": not a regular file";
  binary::ByteSource src;
  src.size = static_cast<std::uint64_t>(st.st_size);
  const int fd = file.fd;
  src.read = [fd](std::uint64_t offset, std::size_t n, unsigned char* out) {
    std::size_t done = 0;
    while (done < n) {
      const ssize_t got = ::pread(fd, out + done, n - done, static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      done += static_cast<std::size_t>(got);
    }
    return true;
  };
  use(src);
  return std::nullopt;
}

}  // namespace gpudoctor
