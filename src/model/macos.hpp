#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"

namespace gpudoctor {

/// A display attached to a GPU (system_profiler's spdisplays_ndrvs).
struct MacDisplay {
  std::optional<std::string> name;        ///< "Color LCD", "DELL U2720Q"
  std::optional<std::string> resolution;  ///< as system_profiler writes it: "2560 x 1600 Retina"
  std::optional<bool> main;               ///< the main display
  std::optional<bool> internal;           ///< built into the Mac
};
GPUDOCTOR_JSON(MacDisplay, name, resolution, main, internal)

/// One GPU as `system_profiler SPDisplaysDataType` reports it.
struct MacGpu {
  std::optional<std::string> name;         ///< "Apple M1 Pro", "Radeon RX 5700 XT"
  std::optional<std::string> vendor;       ///< "Apple", "AMD", "Intel", "NVIDIA"
  std::optional<std::uint32_t> vendor_id;  ///< 0x1002 (not given for Apple's GPUs)
  std::optional<std::uint32_t> device_id;  ///< 0x731f
  std::optional<std::uint32_t> revision_id;
  std::optional<std::string> bus;                  ///< "built-in", "PCIe", "external"
  std::optional<bool> external;                    ///< an eGPU (Thunderbolt enclosure)
  std::optional<bool> removable;                   ///< "GPU is Removable"
  std::optional<int> pcie_lane_width;              ///< 4 for "x4"
  std::optional<std::uint64_t> vram_bytes;         ///< dedicated: "VRAM (Total)"
  std::optional<std::uint64_t> vram_shared_bytes;  ///< "VRAM (Dynamic, Max)" (Intel iGPU)
  std::optional<bool> unified_memory;  ///< Apple silicon: the GPU shares the system memory
  std::optional<bool> metal_supported;
  std::optional<std::string> metal;  ///< as reported: "Metal 3", "macOS GPUFamily2 v1"
  std::optional<int> cores;          ///< "Total Number of Cores" (Apple silicon)
  std::optional<std::string> rom_revision;
  std::vector<MacDisplay> displays;
};
GPUDOCTOR_JSON(MacGpu, name, vendor, vendor_id, device_id, revision_id, bus, external, removable,
               pcie_lane_width, vram_bytes, vram_shared_bytes, unified_memory, metal_supported,
               metal, cores, rom_revision, displays)

/// ~/.plaidml, written by plaidml-setup: the device PlaidML will use.
struct PlaidmlConfig {
  std::string file;
  std::vector<std::string> device_ids;  ///< PLAIDML_DEVICE_IDS: "metal_amd_radeon_rx_5700_xt.0"
  std::optional<bool> experimental;     ///< PLAIDML_EXPERIMENTAL
};
GPUDOCTOR_JSON(PlaidmlConfig, file, device_ids, experimental)

/// The macOS facts: sw_vers, sysctl, system_profiler and the variables that change how macOS
/// loads libraries and reports its version.
struct MacosInfo {
  std::optional<std::string> product_name;     ///< sw_vers ProductName: "macOS", "Mac OS X"
  std::optional<std::string> product_version;  ///< "12.6.1" (asked with SYSTEM_VERSION_COMPAT=0)
  std::optional<std::string> build_version;    ///< "21G217"
  std::optional<std::string> cpu_brand;        ///< machdep.cpu.brand_string
  std::optional<bool> arm64;                   ///< hw.optional.arm64: Apple silicon
  std::optional<bool> translated;  ///< sysctl.proc_translated: this process tree runs in Rosetta
  std::optional<std::uint64_t> memory_bytes;         ///< hw.memsize
  std::optional<std::string> system_version_compat;  ///< SYSTEM_VERSION_COMPAT as set
  std::optional<std::string> dyld_library_path;      ///< DYLD_LIBRARY_PATH as this process sees it
  std::vector<MacGpu> gpus;
  std::optional<PlaidmlConfig> plaidml;
  std::vector<std::string> sources;  ///< what was read: "system_profiler -json", "<file>", …
  std::vector<std::string> errors;   ///< "system_profiler: …", each naming its source
};
GPUDOCTOR_JSON(MacosInfo, product_name, product_version, build_version, cpu_brand, arm64,
               translated, memory_bytes, system_version_compat, dyld_library_path, gpus, plaidml,
               sources, errors)

}  // namespace gpudoctor
