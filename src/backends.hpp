#pragma once
// The one registry of backends: name, help, the environment variables that matter to it, and
// how its facts read. `--help`, `--backend` errors, the report's environment section, the
// facts layer and the tests read it; the probes' half is probes/collect.cpp, one row per name.
#include <string>
#include <string_view>
#include <vector>

#include "devices.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {

// The facts layer sits above the registry (it reads it); a row only points at its functions.
namespace facts {
struct Row;
struct Sink;
}  // namespace facts

// Backend names as the probes spell them; the registry below is the one list of them.
inline constexpr std::string_view kBackendHost = "host";
inline constexpr std::string_view kBackendPci = "pci";
inline constexpr std::string_view kBackendOpenCl = "opencl";
inline constexpr std::string_view kBackendVulkan = "vulkan";
inline constexpr std::string_view kBackendNvidia = "nvidia";
inline constexpr std::string_view kBackendCuda = "cuda";
inline constexpr std::string_view kBackendNvml = "nvml";
inline constexpr std::string_view kBackendPython = "python";
inline constexpr std::string_view kBackendMacos = "macos";
inline constexpr std::string_view kBackendRocm = "rocm";
inline constexpr std::string_view kBackendMetal = "metal";
inline constexpr std::string_view kBackendLevelZero = "level_zero";

/// A backend's smoke matmul results and how many devices it lists: results are one per device,
/// in its list's order (MergedDevice::seen_by under the backend's name), when the two counts
/// agree.
struct SmokeOf {
  const std::vector<SmokeResult>* results = nullptr;  ///< null when its section is absent
  std::size_t devices = 0;
};

struct Backend {
  std::string_view name;   ///< what `--backend` takes
  std::string_view title;  ///< how findings name it: "OpenCL", "CUDA"
  std::string_view help;  ///< one line: what it reads
  /// The environment variables that change what it finds: exact names, or prefixes ending in
  /// '*' ("VK_*").
  std::vector<std::string_view> variables;
  /// It opens a vendor library (in an isolated child); false for backends that read files.
  bool loads_vendor_library = false;
  /// Its sections and compared facts; null when it has none of its own.
  void (*facts)(const Snapshot&, facts::Sink&) = nullptr;
  /// Its view of a merged device; null when it sees no devices.
  void (*device_view)(const Snapshot&, const MergedDevice&, std::vector<facts::Row>&) = nullptr;
  /// Its smoke matmul results and its device count; null when it runs none.
  SmokeOf (*smoke)(const Snapshot&) = nullptr;
  /// Its identity projection: how its devices join the other backends' (merge_devices); empty
  /// when it lists no devices.
  std::vector<DeviceList> device_lists;
};

/// Every backend, in the order they are listed, run and shown.
const std::vector<Backend>& all_backends();

/// The backend of that name; nullptr when there is none.
const Backend* find_backend(std::string_view name);

/// "host, pci, opencl, …"
std::string backend_names(std::string_view separator = ", ");

/// Every smoke matmul result of the snapshot, backend by backend in registry order.
std::vector<const SmokeResult*> smoke_results(const Snapshot& snap);

/// Whether a variable of this name matters to some backend.
bool backend_variable(std::string_view name);

}  // namespace gpudoctor
