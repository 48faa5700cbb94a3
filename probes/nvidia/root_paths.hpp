#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/paths.hpp"
#include "core/root.hpp"

namespace gpudoctor {

/// File access under a Root that follows symbolic links the way the target machine would:
/// an absolute link inside a fixture tree or a mounted image points into that tree, not at
/// this machine. Every path is an absolute target path.
class RootPaths {
 public:
  explicit RootPaths(const Root& root) : root_(root) {}
  const Root& root() const { return root_; }

  /// The path with every link followed under the root (as `realpath -m`: missing components
  /// are kept as written). Loops stop after 40 links.
  std::string resolve(std::string_view path) const;

  bool exists(std::string_view path) const;
  bool is_directory(std::string_view path) const;
  /// Names in a directory, sorted; empty when it is not there.
  std::vector<std::string> list(std::string_view dir) const;
  std::optional<std::string> read(std::string_view path, std::size_t max_bytes = 1 << 20) const;
  std::optional<std::string> read_line(std::string_view path) const;
  /// Where the resolved file lives on this machine.
  std::string host_path(std::string_view path) const;

 private:
  const Root& root_;
};


}  // namespace gpudoctor
