#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/root.hpp"
#include "environment.hpp"

namespace gpudoctor {

/// Where the dynamic loader would look for a library, in its order: LD_LIBRARY_PATH, the
/// directories of /etc/ld.so.conf (and its includes), then the default directories. Files are
/// read under the root, so a fixture tree answers as the machine it came from would.
class LibrarySearch {
 public:
  LibrarySearch(const Root& root, const Environment& env);

  /// A name with a slash is checked as a path; a bare name is searched in order.
  std::optional<std::string> find(const std::string& name) const;
  /// Every match in order (the first one wins; the rest are shadowed).
  std::vector<std::string> find_all(const std::string& name) const;
  const std::vector<std::string>& directories() const { return dirs_; }

 private:
  void add_conf(const std::string& file, int depth);
  void add_dir(const std::string& dir);
  const Root& root_;
  std::vector<std::string> dirs_;
  std::set<std::string> confs_read_;
};

}  // namespace gpudoctor
