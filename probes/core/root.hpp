#pragma once
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// Every file a probe reads is resolved under a root: "/" for this machine, a fixture tree or
/// a mounted image under --sysroot. Paths given to it are absolute paths as seen on the target.
class Root {
 public:
  explicit Root(std::filesystem::path base = "/");

  const std::filesystem::path& base() const { return base_; }
  bool is_host() const { return base_ == "/"; }

  /// Where an absolute target path lives on this machine. Under a non-host root, symbolic
  /// links on the way are followed as the target machine would: an absolute link points into
  /// the tree, never out to this machine.
  std::filesystem::path host_path(std::string_view target_path) const;

  /// The target path with every link followed under the root (as `realpath -m`: components
  /// that do not exist are kept as written). Loops stop after 40 links.
  std::string resolve(std::string_view target_path) const;

  /// Whole file, at most max_bytes; nullopt when it cannot be read.
  std::optional<std::string> read(std::string_view target_path,
                                  std::size_t max_bytes = 1 << 20) const;
  /// First line without the newline and surrounding blanks (sysfs attributes).
  std::optional<std::string> read_line(std::string_view target_path) const;
  /// Names in a directory, sorted; empty when it is not there.
  std::vector<std::string> list(std::string_view target_dir) const;
  /// The raw target of a symbolic link (the directories on the way are resolved).
  std::optional<std::string> link_target(std::string_view target_path) const;
  bool exists(std::string_view target_path) const;
  bool is_directory(std::string_view target_path) const;

 private:
  std::filesystem::path raw_path(std::string_view target_path) const;
  std::filesystem::path base_;
};

}  // namespace gpudoctor
