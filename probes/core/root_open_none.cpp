// No openat2 here (macOS): Root walks every path itself.
#include <cerrno>

#include "core/root_open.hpp"

namespace gpudoctor {

int open_in_root(int, const char*, int) { return -ENOSYS; }

int stat_in_root(int, const char*, struct stat*) { return -ENOSYS; }

void set_open_in_root_enabled(bool) {}

}  // namespace gpudoctor
