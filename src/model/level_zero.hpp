#pragma once
// The Level Zero backend's section: what the loader (libze_loader.so.1) and its drivers report
// through zeDriverGet, zeDeviceGet and zeDeviceGetProperties (probes/level_zero).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "model/smoke.hpp"

namespace gpudoctor {

/// A Level Zero call that failed, as a fact: "zeInit returned 0x78000001
/// (ZE_RESULT_ERROR_UNINITIALIZED)".
struct LevelZeroError {
  std::string call;
  std::uint32_t code = 0;
  std::optional<std::string> name;  ///< "ZE_RESULT_ERROR_UNINITIALIZED"
};
GPUDOCTOR_JSON(LevelZeroError, call, code, name)

/// A root device's live state through Sysman (zes*, the loader's own entry points, with
/// ZES_ENABLE_SYSMAN=1 set in the child before zeInit so the device handles serve both APIs;
/// https://oneapi-src.github.io/level-zero-spec/level-zero/latest/sysman/PROG.html). A figure the
/// driver did not give stays null; `not_read` says which calls failed.
struct LevelZeroSysman {
  std::optional<std::uint64_t> memory_total_bytes;  ///< zesMemoryGetState: sum of modules' size
  std::optional<std::uint64_t> memory_free_bytes;   ///< and of their free bytes
  std::optional<int> temperature_c;         ///< zesTemperatureGetState, the GPU (else global) sensor
  std::optional<std::uint32_t> clock_mhz;   ///< zesFrequencyGetState's actual, GPU domain
  std::optional<std::uint32_t> clock_max_mhz;  ///< zesFrequencyGetProperties' max, GPU domain
  std::optional<int> utilization_percent;   ///< zesEngineGetActivity, engine group ALL (else
                                            ///< COMPUTE_ALL), over two samples
  std::vector<std::string> not_read;
};
GPUDOCTOR_JSON(LevelZeroSysman, memory_total_bytes, memory_free_bytes, temperature_c, clock_mhz,
               clock_max_mhz, utilization_percent, not_read)

/// One device (or sub-device: a tile) as zeDeviceGetProperties and its neighbours report it.
struct LevelZeroDevice {
  std::size_t driver = 0;                  ///< index into LevelZeroInfo::drivers
  std::optional<std::string> name;
  std::optional<std::string> type;         ///< "gpu", "cpu", "fpga", "mca", "vpu", "unknown (N)"
  std::optional<std::uint32_t> vendor_id;
  std::optional<std::uint32_t> device_id;
  std::optional<std::string> uuid;         ///< 32 hex digits
  std::vector<std::string> flags;          ///< "integrated", "subdevice", "ecc", "ondemandpaging"
  std::optional<std::uint32_t> core_clock_mhz;
  std::optional<std::uint64_t> max_mem_alloc_bytes;
  std::optional<std::uint32_t> eu_count;   ///< numSlices × numSubslicesPerSlice × numEUsPerSubslice
  std::optional<std::uint32_t> slices;
  std::optional<std::uint32_t> subslices_per_slice;
  std::optional<std::uint32_t> eus_per_subslice;
  std::optional<std::uint32_t> threads_per_eu;
  std::optional<std::uint32_t> eu_simd_width;
  std::optional<std::uint64_t> memory_bytes;     ///< the sum of zeDeviceGetMemoryProperties' sizes
  std::optional<std::uint32_t> memory_clock_mhz;
  std::optional<std::uint32_t> memory_bus_width_bits;
  std::optional<std::string> pci_bus_id;   ///< zeDevicePciGetPropertiesExt: "0000:03:00.0"
  std::optional<std::int32_t> pci_gen;
  std::optional<std::int32_t> pci_width;
  std::optional<std::uint32_t> subdevice_id;  ///< a tile: its id on its device
  std::optional<std::size_t> parent;          ///< a tile: its device's index in `devices`
  std::size_t subdevices = 0;                 ///< a device: how many tiles it has (`tiles`)
  std::optional<LevelZeroSysman> sysman;      ///< a root device: its live state (null: not read)
};
GPUDOCTOR_JSON(LevelZeroDevice, driver, name, type, vendor_id, device_id, uuid, flags,
               core_clock_mhz, max_mem_alloc_bytes, eu_count, slices, subslices_per_slice,
               eus_per_subslice, threads_per_eu, eu_simd_width, memory_bytes, memory_clock_mhz,
               memory_bus_width_bits, pci_bus_id, pci_gen, pci_width, subdevice_id, parent,
               subdevices, sysman)

/// One driver the loader took (zeDriverGet).
struct LevelZeroDriver {
  std::optional<std::uint32_t> driver_version_raw;  ///< zeDriverGetProperties' driverVersion
  /// major.minor.build from the top 8, next 8 and low 16 bits, as oneAPI.jl reads it
  /// (https://github.com/JuliaGPU/oneAPI.jl/blob/master/lib/level-zero/driver.jl); the
  /// specification only says it increases.
  std::optional<std::string> driver_version;
  std::optional<std::string> api_version;     ///< zeDriverGetApiVersion: "1.3"
  std::optional<std::string> uuid;
};
GPUDOCTOR_JSON(LevelZeroDriver, driver_version_raw, driver_version, api_version, uuid)

struct LevelZeroInfo {
  std::optional<std::string> library;  ///< the loader as mapped
  std::vector<std::string> load_errors;
  /// The drivers the loader looks for where ZE_ENABLE_ALT_DRIVERS is unset, found on the
  /// library path (libze_intel_gpu.so.1, …), and ZE_ENABLE_ALT_DRIVERS where set.
  std::vector<std::string> driver_libraries;
  std::optional<std::string> alt_drivers;  ///< ZE_ENABLE_ALT_DRIVERS
  std::optional<std::string> init_call;    ///< "zeInitDrivers" or "zeInit"
  std::optional<LevelZeroError> error;
  std::vector<LevelZeroDriver> drivers;
  /// Root devices, driver by driver in zeDeviceGet's order: the backend's device list.
  std::vector<LevelZeroDevice> devices;
  /// Their sub-devices (zeDeviceGetSubDevices: the tiles of a multi-tile GPU), `parent` set.
  std::vector<LevelZeroDevice> tiles;
  std::vector<SmokeResult> smoke;  ///< one per root device, when check ran the smoke test
};
GPUDOCTOR_JSON(LevelZeroInfo, library, load_errors, driver_libraries, alt_drivers, init_call,
               error, drivers, devices, tiles, smoke)

}  // namespace gpudoctor
