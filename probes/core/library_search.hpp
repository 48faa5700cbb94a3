#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/ld_so/ld_cache.hpp"
#include "core/root.hpp"
#include "environment.hpp"

namespace gpudoctor {

/// Where the dynamic loader would look for a library, in its order: LD_LIBRARY_PATH, the
/// directories of /etc/ld.so.conf (and its includes), then the default directories. Files are
/// read under the root, so a fixture tree answers as the machine it came from would.
///
/// ld.so searches LD_LIBRARY_PATH and its default directories itself, but sees the directories
/// ld.so.conf names only through /etc/ld.so.cache, by exact name. Where the cache can be read
/// (/etc/ld.so.cache, or in a tree /.gpudoctor/ldconfig-p.txt, `ldconfig -p`'s output), a file
/// in such a directory is found only when the cache lists it; where it cannot, the directory is
/// searched as if the cache were current.
class LibrarySearch {
 public:
  LibrarySearch(const Root& root, const Environment& env);

  /// A name with a slash is checked as a path; a bare name is searched in order.
  std::optional<std::string> find(const std::string& name) const;
  /// Every match in order (the first one wins; the rest are shadowed).
  std::vector<std::string> find_all(const std::string& name) const;
  const std::vector<std::string>& directories() const { return dirs_; }

  /// Whether the loader's cache was read.
  bool cache_known() const { return cache_.has_value(); }
  /// Where the cache was read from ("/etc/ld.so.cache"); empty when it was not.
  const std::string& cache_source() const { return cache_source_; }
  /// A file the loader cannot open by its bare name although it lies in a directory of
  /// ld.so.conf: the directory is seen only through the cache, and the cache has no entry of
  /// that name there. False where the cache is unknown or the directory is searched directly.
  bool hidden_from_cache(const std::string& dir, const std::string& name) const;

 private:
  void add_conf(const std::string& file, int depth);
  void add_dir(const std::string& dir);
  void read_cache();
  bool cache_only(const std::string& dir) const;
  const Root& root_;
  std::vector<std::string> dirs_;
  std::set<std::string> searched_directly_;  ///< LD_LIBRARY_PATH and the default directories
  std::optional<LdCache> cache_;
  std::string cache_source_;
  std::set<std::string> confs_read_;
};

}  // namespace gpudoctor
