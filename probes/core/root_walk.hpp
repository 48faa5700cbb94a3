#pragma once
// A target path resolved under a root directory as the kernel resolves it after chroot(root):
// every symbolic link followed here, one component at a time, with ".." and absolute link
// targets kept inside the root, and at most 40 links per lookup (then ELOOP, Linux's
// MAXSYMLINKS). Only directories are opened on the way (O_PATH where there is one), so that a
// FIFO, a socket or a device is never opened before the caller has looked at what it is.
#include <string>
#include <string_view>

#include "core/unique_fd.hpp"

namespace gpudoctor {

inline constexpr int kMaxSymlinks = 40;
inline constexpr std::size_t kMaxTargetPath = 4096;  ///< PATH_MAX: longer is ENAMETOOLONG

struct RootWalk {
  UniqueFd dir;      ///< the directory holding `name`; empty after an error
  std::string name;  ///< the last component; "." when the path names the root or ends in ".."
  /// The target path with every link followed, like `realpath -m`: from the component that
  /// failed on, the rest is kept as written (with "." and ".." applied).
  std::string path;
  int error = 0;  ///< 0, or an errno: ENOENT, ENOTDIR, ELOOP, EACCES, ENAMETOOLONG, EMFILE …
};

/// Resolves `target_path` (absolute on the target; a relative one is taken from the root) under
/// the directory `root_fd`. With follow_last, a link in the last place is followed too.
RootWalk walk_under(int root_fd, std::string_view target_path, bool follow_last);

}  // namespace gpudoctor
