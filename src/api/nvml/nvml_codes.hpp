#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// "NVML_ERROR_LIB_RM_VERSION_MISMATCH" for 18; nullopt for a code nvml.h does not name.
std::optional<std::string_view> nvml_error_name(int code);

/// "nvmlInit_v2 returned 18 (NVML_ERROR_LIB_RM_VERSION_MISMATCH)".
std::string nvml_call_failed(std::string_view call, int code);

/// nvmlDeviceArchitecture_t as a lower-case name ("hopper"); nullopt for unknown values.
std::optional<std::string> nvml_architecture_name(std::uint32_t arch);

/// The set bits of nvmlDeviceGetCurrentClocksEventReasons (formerly ...ThrottleReasons) as
/// names: "gpu_idle", "sw_power_cap", "hw_slowdown", …; an unnamed bit becomes "0x…".
std::vector<std::string> nvml_clock_event_reason_names(std::uint64_t bits);

}  // namespace gpudoctor
