#include "core/root.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/root_open.hpp"
#include "core/root_walk.hpp"

namespace gpudoctor {

namespace fs = std::filesystem;

namespace {

#ifdef O_PATH
constexpr int kRootFlags = O_PATH | O_DIRECTORY | O_CLOEXEC;
#else
constexpr int kRootFlags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
#endif
// O_NONBLOCK: a FIFO swapped in after the type was looked at still cannot block the open;
// O_NOCTTY: a terminal never becomes ours.
constexpr int kReadFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;

std::string not_regular(mode_t mode) {
  const char* what = S_ISDIR(mode)    ? "a directory"
                     : S_ISFIFO(mode) ? "a FIFO"
                     : S_ISSOCK(mode) ? "a socket"
                     : S_ISCHR(mode)  ? "a character device"
                     : S_ISBLK(mode)  ? "a block device"
                                      : "not a file";
  return std::string("is ") + what + ", not a regular file";
}

/// A path's final object under the root, links followed: looked at, then opened, by openat2
/// where the kernel has it (one call), else by the walk (root_walk.hpp), which gives the same.
class Target {
 public:
  Target(int root_fd, std::string_view path) : root_fd_(root_fd), path_(path) {
    while (!path.empty() && path.front() == '/') path.remove_prefix(1);
    rel_ = path.empty() ? "." : std::string(path);
  }
  /// 0, or the errno of the lookup.
  int stat(struct stat& st) {
    if (!walk_) {
      const int r = stat_in_root(root_fd_, rel_.c_str(), &st);
      if (r != -ENOSYS && r != -EAGAIN) return -r;
    }
    if (!walked()) return walk_->error;
    return ::fstatat(walk_->dir.get(), walk_->name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 ? 0
                                                                                         : errno;
  }
  /// Opened with `flags` (which must not hold O_NOFOLLOW); empty with errno set on failure.
  UniqueFd open(int flags) {
    if (!walk_) {
      const int fd = open_in_root(root_fd_, rel_.c_str(), flags);
      if (fd >= 0) return UniqueFd(fd);
      if (fd != -ENOSYS && fd != -EAGAIN) {
        errno = -fd;
        return {};
      }
    }
    if (!walked()) {
      errno = walk_->error;
      return {};
    }
    return UniqueFd(::openat(walk_->dir.get(), walk_->name.c_str(), flags | O_NOFOLLOW));
  }

 private:
  bool walked() {
    if (!walk_) walk_ = walk_under(root_fd_, path_, true);
    return walk_->error == 0;
  }
  int root_fd_;
  std::string_view path_;
  std::string rel_;
  std::optional<RootWalk> walk_;
};

}  // namespace

Root::Root(fs::path base)
    : base_(std::move(base)),
      fd_(std::make_shared<const UniqueFd>(::open(base_.c_str(), kRootFlags))) {}

fs::path Root::host_path(std::string_view target_path) const {
  std::string rel = resolve(target_path);
  return is_host() ? fs::path(rel) : base_ / rel.substr(1);
}

std::string Root::resolve(std::string_view target_path) const {
  if (!*fd_) return std::string(target_path);
  return walk_under(fd_->get(), target_path, true).path;
}

FileText Root::read_file(std::string_view target_path, std::size_t max_bytes) const {
  return read_bounded(target_path, max_bytes, false);
}

FileText Root::read_tail(std::string_view target_path, std::size_t max_bytes) const {
  return read_bounded(target_path, max_bytes, true);
}

FileText Root::read_bounded(std::string_view target_path, std::size_t max_bytes, bool tail) const {
  FileText out;
  if (!*fd_) {
    out.error = base_.string() + " cannot be opened";
    return out;
  }
  Target target(fd_->get(), target_path);
  struct stat st {};
  if (const int e = target.stat(st); e != 0) {
    out.error = std::strerror(e);
    return out;
  }
  // Looked at before it is opened: opening a device can do things (a watchdog starts).
  if (!S_ISREG(st.st_mode)) {
    out.error = not_regular(st.st_mode);
    return out;
  }
  UniqueFd fd = target.open(kReadFlags);
  struct stat opened {};
  if (!fd || ::fstat(fd.get(), &opened) != 0) {
    out.error = std::strerror(errno);
    return out;
  }
  if (!S_ISREG(opened.st_mode) || opened.st_ino != st.st_ino || opened.st_dev != st.st_dev) {
    out.error =
        S_ISREG(opened.st_mode) ? "changed while it was opened" : not_regular(opened.st_mode);
    return out;
  }
  if (tail && opened.st_size > 0 && static_cast<std::uint64_t>(opened.st_size) > max_bytes) {
    // The last max_bytes, from the start of a line.
    const off_t from = opened.st_size - static_cast<off_t>(max_bytes);
    if (::lseek(fd.get(), from, SEEK_SET) != from) {
      out.error = std::strerror(errno);
      return out;
    }
  }
  std::string text;
  char buf[65536];
  while (text.size() < max_bytes) {
    const std::size_t want = std::min(sizeof buf, max_bytes - text.size());
    const ssize_t n = ::read(fd.get(), buf, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      out.error = std::strerror(errno);
      return out;
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  if (tail && opened.st_size > 0 && static_cast<std::uint64_t>(opened.st_size) > max_bytes) {
    const auto nl = text.find('\n');
    text.erase(0, nl == std::string::npos ? text.size() : nl + 1);
  }
  out.text = std::move(text);
  return out;
}

std::optional<std::string> Root::read(std::string_view target_path, std::size_t max_bytes) const {
  return read_file(target_path, max_bytes).text;
}

std::optional<std::string> Root::read_line(std::string_view target_path) const {
  auto text = read(target_path, 64 * 1024);
  if (!text) return std::nullopt;
  std::string line = text->substr(0, text->find('\n'));
  auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return std::string();
  auto last = line.find_last_not_of(" \t\r");
  return line.substr(first, last - first + 1);
}

std::vector<std::string> Root::list(std::string_view target_dir) const {
  std::vector<std::string> names;
  if (!*fd_) return names;
  Target target(fd_->get(), target_dir);
  struct stat st {};
  if (target.stat(st) != 0 || !S_ISDIR(st.st_mode)) return names;
  UniqueFd fd = target.open(kReadFlags | O_DIRECTORY);
  DIR* dir = fd ? ::fdopendir(fd.get()) : nullptr;
  if (dir == nullptr) return names;
  fd.release();  // the DIR owns it now
  while (names.size() < kMaxDirEntries) {
    const dirent* e = ::readdir(dir);
    if (e == nullptr) break;
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    names.emplace_back(e->d_name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> Root::link_target(std::string_view target_path) const {
  if (!*fd_) return std::nullopt;
  RootWalk w = walk_under(fd_->get(), target_path, false);
  if (w.error != 0 || w.name == ".") return std::nullopt;
  char buf[kMaxTargetPath];
  const ssize_t n = ::readlinkat(w.dir.get(), w.name.c_str(), buf, sizeof buf);
  if (n <= 0 || static_cast<std::size_t>(n) >= sizeof buf) return std::nullopt;
  return std::string(buf, static_cast<std::size_t>(n));
}

std::optional<struct stat> Root::stat_of(std::string_view target_path) const {
  if (!*fd_) return std::nullopt;
  struct stat st {};
  if (Target(fd_->get(), target_path).stat(st) != 0) return std::nullopt;
  return st;
}

bool Root::exists(std::string_view target_path) const { return stat_of(target_path).has_value(); }

bool Root::is_directory(std::string_view target_path) const {
  auto st = stat_of(target_path);
  return st && S_ISDIR(st->st_mode);
}

}  // namespace gpudoctor
