#pragma once
#include <sys/stat.h>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/unique_fd.hpp"

namespace gpudoctor {

/// What reading a file gave: its text (at most the bytes asked for), or why not.
struct FileText {
  std::optional<std::string> text;
  std::string error;  ///< "is a FIFO, not a regular file", "No such file or directory", …
};

/// Every file a probe reads is resolved under a root: "/" for this machine, a fixture tree or
/// a mounted image under --sysroot. Paths given to it are absolute paths as seen on the target.
///
/// Whatever is under the root may be hostile (a FIFO, a socket, a device, a huge file, a link
/// bomb): links are followed by hand and never out of the root (core/root_walk.hpp), only
/// regular files are opened, never blocking, and every read and listing is bounded.
class Root {
 public:
  explicit Root(std::filesystem::path base = "/");

  const std::filesystem::path& base() const { return base_; }
  bool is_host() const { return base_ == "/"; }

  /// Where a target path lives on this machine, every link followed under the root. Only for
  /// handing a file already checked with stat_of() to a library that opens paths itself.
  std::filesystem::path host_path(std::string_view target_path) const;

  /// The target path with every link followed under the root (as `realpath -m`: components
  /// that do not exist are kept as written). Loops stop after 40 links.
  std::string resolve(std::string_view target_path) const;

  /// Whole regular file, at most max_bytes; nullopt when it is not one or cannot be read.
  std::optional<std::string> read(std::string_view target_path,
                                  std::size_t max_bytes = 1 << 20) const;
  /// The same, saying why not.
  FileText read_file(std::string_view target_path, std::size_t max_bytes = 1 << 20) const;
  /// The last max_bytes of a regular file, from the first whole line in them (a log).
  FileText read_tail(std::string_view target_path, std::size_t max_bytes) const;
  /// First line without the newline and surrounding blanks (sysfs attributes).
  std::optional<std::string> read_line(std::string_view target_path) const;
  /// Names in a directory, sorted, at most kMaxDirEntries; empty when it is not there.
  std::vector<std::string> list(std::string_view target_dir) const;
  /// The raw target of a symbolic link (the directories on the way are resolved).
  std::optional<std::string> link_target(std::string_view target_path) const;
  /// stat(2) of what the path leads to, links followed under the root.
  std::optional<struct stat> stat_of(std::string_view target_path) const;
  bool exists(std::string_view target_path) const;
  bool is_directory(std::string_view target_path) const;

  /// A directory with more entries than this is read in part (a hostile or broken tree).
  static constexpr std::size_t kMaxDirEntries = 65536;

 private:
  FileText read_bounded(std::string_view target_path, std::size_t max_bytes, bool tail) const;

  std::filesystem::path base_;
  std::shared_ptr<const UniqueFd> fd_;  ///< the root directory, opened once
};

}  // namespace gpudoctor
