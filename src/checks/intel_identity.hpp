#pragma once
// Intel GPU identity (data/compat/intel.json): device id -> platform, generation, the kernel
// drivers that bind it and the first kernel that has them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/pci.hpp"

namespace gpudoctor {

struct IntelPlatform {
  std::string platform;                   ///< "Battlemage"
  std::string generation;                 ///< "Xe2-HPG"
  std::string kind;                       ///< "discrete", "integrated"
  std::vector<std::uint16_t> ids;
  std::vector<std::string> name_match;
  std::vector<std::string> drivers;       ///< the first is the one it normally gets
  std::optional<std::string> min_kernel;  ///< "6.11"; absent: not looked up
  std::optional<std::string> force_probe_kernel;
  std::optional<std::string> runtime;     ///< "legacy1": current compute-runtime dropped it
  std::string source;                     ///< the first source's URL
};

struct IntelIpexRule {
  std::string xpu_local_tag = "xpu";
  std::optional<std::string> last_release_series;  ///< "2.8"
  std::vector<std::string> sources;                ///< URLs, in the file's order
};

struct IntelTable {
  std::vector<IntelPlatform> platforms;
  IntelIpexRule ipex;
  std::vector<std::string> errors;  ///< what in the file could not be read
};

/// The built-in table, read once from the embedded data/compat/intel.json.
const IntelTable& intel_table();
/// Reads a table from JSON text (tests hand their own).
IntelTable read_intel_table(std::string_view json);

/// The platform of an Intel GPU: by its device id, else by its pci.ids name (how says which).
struct IntelIdentity {
  const IntelPlatform* platform = nullptr;
  std::string how;  ///< "device id 0xe20b", "pci.ids name 'Battlemage G21 [Intel Graphics]'"
};
IntelIdentity identify_intel(const IntelTable& t, std::uint16_t device_id,
                             const std::optional<std::string>& name);
IntelIdentity identify_intel(const PciDevice& p);

/// "6.8.0" from a kernel release "6.8.0-51-generic".
std::optional<std::string> intel_kernel_version(const std::optional<std::string>& release);

}  // namespace gpudoctor
