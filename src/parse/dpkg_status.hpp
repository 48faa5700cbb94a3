#pragma once
// /var/lib/dpkg/status: which Debian packages are installed, at which version.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

struct DpkgPackage {
  std::string name;     ///< "nvidia-fabricmanager-535"
  std::string version;  ///< "535.129.03-1" as dpkg writes it
  bool installed = false;  ///< Status "install ok installed"
};

/// The stanzas whose Package starts with `prefix` (all when it is empty).
std::vector<DpkgPackage> parse_dpkg_status(std::string_view text, std::string_view prefix = "");

/// The upstream part of a Debian version: "1:535.129.03-0ubuntu1" -> "535.129.03".
std::string debian_upstream_version(std::string_view version);

}  // namespace gpudoctor
