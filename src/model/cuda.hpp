#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "model/smoke.hpp"

namespace gpudoctor {

/// A CUDA driver API call that failed, as a fact: "cuInit returned 100 (CUDA_ERROR_NO_DEVICE)".
struct CudaError {
  std::string call;
  int code = 0;
  std::optional<std::string> name;  ///< "CUDA_ERROR_NO_DEVICE"
  std::optional<std::string> text;  ///< cuGetErrorString, when the driver gives one
};
GPUDOCTOR_JSON(CudaError, call, code, name, text)

/// What deviceQuery prints for one device, from cuDeviceGetAttribute and friends.
struct CudaDevice {
  int ordinal = 0;
  std::optional<std::string> name;
  std::optional<std::string> uuid;               ///< "GPU-xxxxxxxx-xxxx-…", as nvidia-smi shows it
  std::optional<int> cc_major;
  std::optional<int> cc_minor;
  std::optional<int> multiprocessors;
  std::optional<int> cores_per_multiprocessor;   ///< from the compute capability (deviceQuery's table)
  std::optional<std::uint64_t> total_memory_bytes;
  std::optional<int> clock_khz;
  std::optional<int> memory_clock_khz;
  std::optional<int> memory_bus_width_bits;
  std::optional<int> l2_cache_bytes;
  std::optional<int> max_texture_1d;
  std::vector<int> max_texture_2d;               ///< width, height
  std::vector<int> max_texture_3d;               ///< width, height, depth
  std::vector<int> max_layered_texture_1d;       ///< width, layers
  std::vector<int> max_layered_texture_2d;       ///< width, height, layers
  std::optional<int> total_constant_memory_bytes;
  std::optional<int> shared_memory_per_block_bytes;
  std::optional<int> shared_memory_per_block_optin_bytes;
  std::optional<int> shared_memory_per_multiprocessor_bytes;
  std::optional<int> registers_per_block;
  std::optional<int> registers_per_multiprocessor;
  std::optional<int> warp_size;
  std::optional<int> max_threads_per_multiprocessor;
  std::optional<int> max_threads_per_block;
  std::vector<int> max_block_dim;
  std::vector<int> max_grid_dim;
  std::optional<int> max_pitch_bytes;
  std::optional<int> texture_alignment_bytes;
  std::optional<int> surface_alignment_bytes;
  std::optional<bool> gpu_overlap;               ///< can copy and run a kernel at once
  std::optional<int> async_engine_count;         ///< concurrent copy engines
  std::optional<bool> concurrent_kernels;
  std::optional<bool> kernel_exec_timeout;       ///< display watchdog
  std::optional<bool> integrated;
  std::optional<bool> can_map_host_memory;
  std::optional<bool> ecc_enabled;
  std::optional<bool> unified_addressing;
  std::optional<bool> managed_memory;
  std::optional<bool> compute_preemption;
  std::optional<bool> cooperative_launch;
  std::optional<bool> cooperative_multi_device_launch;
  std::optional<bool> tcc_driver;
  std::optional<std::string> compute_mode;       ///< "default", "exclusive_process", "prohibited"
  std::optional<int> pci_domain;
  std::optional<int> pci_bus;
  std::optional<int> pci_device;
  std::optional<std::string> pci_bus_id;         ///< "0000:01:00.0"
};
GPUDOCTOR_JSON(CudaDevice, ordinal, name, uuid, cc_major, cc_minor, multiprocessors,
               cores_per_multiprocessor, total_memory_bytes, clock_khz, memory_clock_khz,
               memory_bus_width_bits, l2_cache_bytes, max_texture_1d, max_texture_2d,
               max_texture_3d, max_layered_texture_1d, max_layered_texture_2d,
               total_constant_memory_bytes, shared_memory_per_block_bytes,
               shared_memory_per_block_optin_bytes,
               shared_memory_per_multiprocessor_bytes, registers_per_block,
               registers_per_multiprocessor, warp_size, max_threads_per_multiprocessor,
               max_threads_per_block, max_block_dim, max_grid_dim, max_pitch_bytes,
               texture_alignment_bytes, surface_alignment_bytes, gpu_overlap,
               async_engine_count, concurrent_kernels, kernel_exec_timeout, integrated,
               can_map_host_memory, ecc_enabled, unified_addressing, managed_memory,
               compute_preemption, cooperative_launch, cooperative_multi_device_launch, tcc_driver,
               compute_mode, pci_domain, pci_bus, pci_device, pci_bus_id)

/// The CUDA driver API through libcuda.so.1, opened at run time in a child.
struct CudaInfo {
  std::optional<std::string> library;     ///< the libcuda file that actually loaded
  std::optional<bool> stub;               ///< it is the toolkit's stub (…/stubs/libcuda.so)
  std::vector<std::string> load_errors;   ///< dlerror() for each name tried, in order
  std::optional<CudaError> init_error;    ///< cuInit's failure, when it failed
  std::optional<int> driver_version;      ///< cuDriverGetVersion: 13000
  std::vector<CudaDevice> devices;
  std::vector<SmokeResult> smoke;
};
GPUDOCTOR_JSON(CudaInfo, library, stub, load_errors, init_error, driver_version, devices, smoke)

}  // namespace gpudoctor
