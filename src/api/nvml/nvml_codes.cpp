#include "api/nvml/nvml_codes.hpp"

#include <cstdio>

namespace gpudoctor {

namespace {

struct Named {
  std::uint64_t value;
  std::string_view name;
};

// nvmlReturn_t in nvml.h: 0-27 and 999 as NVIDIA ships it in NVIDIA/nvidia-settings src/nvml.h
// (NVML API 12) and NVIDIA/go-nvml gen/nvml/nvml.h (NVML 12.2.140); 28-30 were added by NVML 12.8
// and 13 headers.
constexpr Named kNvmlErrors[] = {
    {0, "NVML_SUCCESS"},
    {1, "NVML_ERROR_UNINITIALIZED"},
    {2, "NVML_ERROR_INVALID_ARGUMENT"},
    {3, "NVML_ERROR_NOT_SUPPORTED"},
    {4, "NVML_ERROR_NO_PERMISSION"},
    {5, "NVML_ERROR_ALREADY_INITIALIZED"},
    {6, "NVML_ERROR_NOT_FOUND"},
    {7, "NVML_ERROR_INSUFFICIENT_SIZE"},
    {8, "NVML_ERROR_INSUFFICIENT_POWER"},
    {9, "NVML_ERROR_DRIVER_NOT_LOADED"},
    {10, "NVML_ERROR_TIMEOUT"},
    {11, "NVML_ERROR_IRQ_ISSUE"},
    {12, "NVML_ERROR_LIBRARY_NOT_FOUND"},
    {13, "NVML_ERROR_FUNCTION_NOT_FOUND"},
    {14, "NVML_ERROR_CORRUPTED_INFOROM"},
    {15, "NVML_ERROR_GPU_IS_LOST"},
    {16, "NVML_ERROR_RESET_REQUIRED"},
    {17, "NVML_ERROR_OPERATING_SYSTEM"},
    {18, "NVML_ERROR_LIB_RM_VERSION_MISMATCH"},
    {19, "NVML_ERROR_IN_USE"},
    {20, "NVML_ERROR_MEMORY"},
    {21, "NVML_ERROR_NO_DATA"},
    {22, "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED"},
    {23, "NVML_ERROR_INSUFFICIENT_RESOURCES"},
    {24, "NVML_ERROR_FREQ_NOT_SUPPORTED"},
    {25, "NVML_ERROR_ARGUMENT_VERSION_MISMATCH"},
    {26, "NVML_ERROR_DEPRECATED"},
    {27, "NVML_ERROR_NOT_READY"},
    {28, "NVML_ERROR_GPU_NOT_FOUND"},
    {29, "NVML_ERROR_INVALID_STATE"},
    {30, "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED"},
    {999, "NVML_ERROR_UNKNOWN"},
};

// NVML_DEVICE_ARCH_* in nvml.h (Blackwell = 10 and T23x = 11 from NVML 12.8+ headers).
constexpr Named kArchitectures[] = {
    {2, "kepler"}, {3, "maxwell"}, {4, "pascal"}, {5, "volta"},      {6, "turing"},
    {7, "ampere"}, {8, "ada"},     {9, "hopper"}, {10, "blackwell"}, {11, "t23x"},
};

// nvmlClocksEventReason* (formerly nvmlClocksThrottleReason*) bits in nvml.h.
constexpr Named kClockEventReasons[] = {
    {0x1, "gpu_idle"},
    {0x2, "applications_clocks_setting"},
    {0x4, "sw_power_cap"},
    {0x8, "hw_slowdown"},
    {0x10, "sync_boost"},
    {0x20, "sw_thermal_slowdown"},
    {0x40, "hw_thermal_slowdown"},
    {0x80, "hw_power_brake_slowdown"},
    {0x100, "display_clock_setting"},
};

template <std::size_t N>
std::optional<std::string_view> find(const Named (&table)[N], std::uint64_t value) {
  for (const auto& row : table) {
    if (row.value == value) return row.name;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string_view> nvml_error_name(int code) {
  if (code < 0) return std::nullopt;
  return find(kNvmlErrors, static_cast<std::uint64_t>(code));
}

std::string nvml_call_failed(std::string_view call, int code) {
  std::string s = std::string(call) + " returned " + std::to_string(code);
  if (auto name = nvml_error_name(code)) s += " (" + std::string(*name) + ")";
  return s;
}

std::optional<std::string> nvml_architecture_name(std::uint32_t arch) {
  if (auto name = find(kArchitectures, arch)) return std::string(*name);
  return std::nullopt;
}

std::vector<std::string> nvml_clock_event_reason_names(std::uint64_t bits) {
  std::vector<std::string> names;
  for (int i = 0; i < 64; ++i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    if ((bits & bit) == 0) continue;
    if (auto name = find(kClockEventReasons, bit)) {
      names.emplace_back(*name);
    } else {
      char buf[24];
      std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(bit));
      names.emplace_back(buf);
    }
  }
  return names;
}

}  // namespace gpudoctor
