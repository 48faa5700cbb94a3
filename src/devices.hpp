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

/// How far a device list's name is trusted when lists join: a list names a device it joins
/// only if no list that ranks higher has seen it (today's precedence: the CUDA driver's name
/// over NVML's over Vulkan's over OpenCL's over HIP's over pci.ids' over a made-up one).
enum class NameRank : int {
  kPlaceholder = 0,  ///< made up from ids (PCI's "PCI device 10de:2330", KFD's "AMD GPU
                     ///< (gfx1031)"): pci.ids' name replaces it; it names no device it joins
  kKept = 10,        ///< stands on a device its list made, names none it joins
                     ///< (system_profiler, Metal: the same machine's names for its hardware)
  kHip = 20,
  kOpenCl = 30,
  kVulkan = 40,
  kNvml = 50,
  kCuda = 60,
  // A new list may rank between two: NameRank{45}.
};

/// One device of a backend's list, as the merge sees it: the keys it may join on, a name, and
/// what a new merged device made from it records.
struct DeviceIdentity {
  std::size_t position = 0;                 ///< in its list: MergedDevice::seen_by's value
  std::optional<std::string> pci_address;   ///< as the API prints it ("00000000:01:00.0")
  std::optional<std::string> uuid;          ///< as the API prints it ("GPU-9a1b…", "9a1b…")
  std::optional<std::uint32_t> vendor_id;
  std::optional<std::uint32_t> device_id;
  std::optional<std::string> name;          ///< absent when its API gave none
  std::string fallback_name;                ///< a new device's name when `name` is absent
  DeviceKind kind = DeviceKind::gpu;
  bool software = false;                    ///< a CPU implementation: joins the host CPU's entry
};

/// A backend's identity projection: one list per device list it has (ROCm has two: kApiKfd
/// and kApiHip), declared in its registry row (src/backends.cpp). merge_devices joins every
/// list of every row; nothing in the merge is written per backend.
struct DeviceList {
  std::string_view api;          ///< its key in MergedDevice::seen_by
  int order = 0;                 ///< lists join lowest first (kJoin*: hardware, drivers, APIs)
  NameRank rank = NameRank::kPlaceholder;
  std::string_view name_source;  ///< MergedDevice::name_source for its names; `api` when empty
  /// Appends its devices in its own order; nothing when the snapshot lacks its section.
  void (*identities)(const Snapshot&, std::vector<DeviceIdentity>&) = nullptr;
  /// One of its devices as JSON, for `query --json`'s merged device (key `api`).
  Json (*json)(const Snapshot&, std::size_t position) = nullptr;
  bool json_first_only = false;  ///< one object (its first device) or null, not an array
  /// The bus's own list of functions (PCI): each is a device of its own, never joined, and the
  /// device it makes takes the name of the highest-ranked API that sees it (MergedDevice::pci
  /// holds its position; seen_by does not).
  bool pci_list = false;
  bool joins_on_ids = true;      ///< may join on vendor (+device) id where exactly one fits
  bool one_per_device = false;   ///< lists each device once: never joins, by ids, one it saw
  bool fills_device_id = false;  ///< its device id fills a joined device that lacks one
  /// Joins, by name, a device the list of this key saw and this one has not (Metal joins
  /// system_profiler's GPU: equal ignoring case, or ending in it after a vendor prefix).
  std::string_view joins_by_name_in;
};

/// DeviceList::order bands: lists of the hardware, the vendor drivers' own lists, portable APIs.
inline constexpr int kJoinHardware = 100;
inline constexpr int kJoinDriver = 200;
inline constexpr int kJoinApi = 300;

struct Backend;

/// Joins the device lists of the registry's backends: on PCI address, then UUID (each
/// normalised once), then vendor+device id (only where one device fits). Every CPU
/// implementation joins one entry for the host CPU. Linear in the number of devices.
std::vector<MergedDevice> merge_devices(const Snapshot& snap);

/// The same with these backends' lists instead of the registry's (a test adds a fake row).
std::vector<MergedDevice> merge_devices(const Snapshot& snap, const std::vector<Backend>& backends);

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

/// The same with these backends' lists.
Json devices_json(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                  const std::vector<Backend>& backends);

}  // namespace gpudoctor
