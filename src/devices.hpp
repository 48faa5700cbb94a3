#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {

enum class DeviceKind { gpu, accelerator, cpu, other };

/// One physical device and every backend's view of it, by index into the snapshot's sections.
struct MergedDevice {
  std::string name;
  /// Where the name came from: the API that named it ("cuda", "nvml", "vulkan", "opencl", "hip",
  /// "system_profiler", "kfd", "host"), "pci.ids" (the root's), "builtin pci.ids", or "none".
  std::string name_source = "none";
  std::optional<std::string> chip;         ///< "GA102", "Navi 22": pci.ids' name for the chip
  DeviceKind kind = DeviceKind::other;
  bool software = false;                   ///< a CPU implementation (PoCL CPU, llvmpipe/lavapipe)
  std::optional<std::string> pci_address;
  std::optional<std::uint32_t> vendor_id;
  std::optional<std::uint32_t> device_id;
  std::optional<std::string> uuid;
  std::optional<std::size_t> pci;                           ///< snapshot.pci->devices[i]
  std::vector<std::pair<std::size_t, std::size_t>> opencl;  ///< platforms[p].devices[d]
  std::vector<std::size_t> vulkan;                          ///< snapshot.vulkan->devices[i]
  std::vector<std::size_t> cuda;                            ///< snapshot.cuda->devices[i]
  std::vector<std::size_t> nvml;                            ///< snapshot.nvml->devices[i]
  std::optional<std::size_t> macos;                         ///< snapshot.macos->gpus[i]
  std::vector<std::size_t> kfd;                             ///< snapshot.rocm->nodes[i]
  std::vector<std::size_t> hip;                             ///< snapshot.rocm->hip->devices[i]
  std::vector<std::size_t> metal;                           ///< snapshot.metal->devices[i]
};

/// Joins the backends' device lists: on PCI address, then UUID, then vendor+device id (only
/// where that pair is unique). Every CPU implementation joins one entry for the host CPU.
std::vector<MergedDevice> merge_devices(const Snapshot& snap);

const char* to_string(DeviceKind k);

/// "00000000:01:00.0" (NVML) or "0000:01:00.0" → "0000:01:00.0"; nullopt if it is not one.
std::optional<std::string> normalize_pci_address(std::string_view address);

/// "GPU-1a2b…" (CUDA, NVML) or "1a2b…" (Vulkan, OpenCL) → lower-case hex without dashes.
std::string normalize_uuid(std::string_view uuid);

/// The merged devices with each backend's view copied in, for `query --json`.
Json devices_json(const Snapshot& snap, const std::vector<MergedDevice>& devices);

}  // namespace gpudoctor
