#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {

enum class DeviceKind { gpu, accelerator, cpu, other };

/// The two APIs of the rocm backend, as MergedDevice::seen_by names them.
inline constexpr std::string_view kApiKfd = "kfd";
inline constexpr std::string_view kApiHip = "hip";

/// One physical device and every backend's view of it, by index into the snapshot's sections.
struct MergedDevice {
  std::string name;
  /// Where the name came from: the API that named it ("cuda", "nvml", "vulkan", "opencl", "hip",
  /// "system_profiler", "kfd", "host"), "supported-gpus.json" (the NVIDIA driver's table),
  /// "pci.ids" (the root's), "builtin pci.ids", or "none".
  std::string name_source = "none";
  std::optional<std::string> chip;         ///< "GA102", "Navi 22": pci.ids' name for the chip
  DeviceKind kind = DeviceKind::other;
  bool software = false;                   ///< a CPU implementation (PoCL CPU, llvmpipe/lavapipe)
  std::optional<std::string> pci_address;
  std::optional<std::uint32_t> vendor_id;
  std::optional<std::uint32_t> device_id;
  std::optional<std::string> uuid;
  std::optional<std::size_t> pci;  ///< snapshot.pci->devices[i]: the hardware list, not an API
  /// Every API that saw it: the API's name → positions in that API's device list, in the order
  /// it lists them. A backend keys its devices under its own name ("cuda", "vulkan", "metal"…:
  /// its section's `devices`; "opencl": its devices counted across platforms, see
  /// opencl_position; "macos": snapshot.macos->gpus); ROCm under two, kApiKfd
  /// (snapshot.rocm->nodes) and kApiHip (snapshot.rocm->hip->devices).
  std::map<std::string, std::vector<std::size_t>, std::less<>> seen_by;

  /// The positions in `api`'s list; empty when that API did not see this device.
  const std::vector<std::size_t>& in(std::string_view api) const;
  /// Whether `api` saw this device.
  bool saw(std::string_view api) const;
};

/// Joins the backends' device lists: on PCI address, then UUID, then vendor+device id (only
/// where that pair is unique). Every CPU implementation joins one entry for the host CPU.
std::vector<MergedDevice> merge_devices(const Snapshot& snap);

const char* to_string(DeviceKind k);

/// "00000000:01:00.0" (NVML) or "0000:01:00.0" → "0000:01:00.0"; nullopt if it is not one.
std::optional<std::string> normalize_pci_address(std::string_view address);

/// "GPU-1a2b…" (CUDA, NVML) or "1a2b…" (Vulkan, OpenCL) → lower-case hex without dashes.
std::string normalize_uuid(std::string_view uuid);

/// OpenCL device number `i`, counted across platforms platform by platform, as its platform
/// and its place there; nullopt past the last.
std::optional<std::pair<std::size_t, std::size_t>> opencl_position(const OpenClInfo& info,
                                                                   std::size_t i);

/// How many devices OpenCL lists, across platforms.
std::size_t opencl_device_count(const OpenClInfo& info);

/// The merged devices with each backend's view copied in, for `query --json`.
Json devices_json(const Snapshot& snap, const std::vector<MergedDevice>& devices);

}  // namespace gpudoctor
