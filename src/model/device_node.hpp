#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "json.hpp"

namespace gpudoctor {

/// A device file a GPU stack opens (/dev/nvidia0, /dev/kfd, /dev/dri/renderD128), as this
/// process finds it.
struct DeviceNode {
  std::string path;                         ///< "/dev/nvidia0"
  std::optional<std::string> mode;          ///< "crw-rw-rw-"
  std::optional<std::uint32_t> uid;
  std::optional<std::uint32_t> gid;
  std::optional<std::string> group;         ///< group name from /etc/group under the root
  std::optional<bool> readable;             ///< by this process (live only)
  std::optional<bool> writable;             ///< by this process (live only)
};
GPUDOCTOR_JSON(DeviceNode, path, mode, uid, gid, group, readable, writable)

}  // namespace gpudoctor
