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

/// LEGACY_PLATFORMS.md: from which release the regular compute-runtime packages dropped the
/// platforms marked "runtime": "legacy1", and the packages that carry them.
struct IntelLegacyRuntime {
  std::string mark = "legacy1";               ///< in the legacy packages' file names
  std::optional<std::string> regular_from;    ///< "24.35.30872.22"
  std::vector<std::string> packages;          ///< "intel-opencl-icd-legacy1", …
  std::vector<std::string> no_level_zero;     ///< legacy platforms with no Level Zero at all
  std::string source;
};

/// The variables that hide, reorder or split Intel GPUs, as data/compat/intel.json gives them.
struct IntelDeviceSelection {
  std::vector<std::string> selector_backends;    ///< ONEAPI_DEVICE_SELECTOR's <backend>
  std::vector<std::string> intel_gpu_backends;   ///< the backends an Intel GPU is reached by
  std::vector<std::string> selector_device_words;
  std::vector<std::string> selector_gpu_words;   ///< device words that take GPUs
  std::string selector_source;
  std::optional<std::string> filter_deprecated_by;  ///< SYCL_DEVICE_FILTER's successor
  std::vector<std::string> filter_sources;
  std::string mask_source;
  std::vector<std::string> hierarchy_values;     ///< ZE_FLAT_DEVICE_HIERARCHY: FLAT, …
  std::string hierarchy_source;
};

/// The oneAPI runtime wheels an XPU framework pins, and where a sourced toolkit shows.
struct IntelXpuWheels {
  std::vector<std::string> frameworks;          ///< "torch"
  std::vector<std::string> core;                ///< "intel-sycl-rt", …
  std::vector<std::string> toolkit_path_words;  ///< "/oneapi/", …
  std::vector<std::string> sources;
};

struct IntelTable {
  std::vector<IntelPlatform> platforms;
  IntelIpexRule ipex;
  IntelLegacyRuntime legacy;
  IntelDeviceSelection selection;
  IntelXpuWheels wheels;
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
