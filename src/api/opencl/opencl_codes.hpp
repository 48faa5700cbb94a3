#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// "CL_INVALID_VALUE" for -30; nullopt for a code no header names.
std::optional<std::string_view> cl_error_name(std::int32_t code);

/// "clGetPlatformIDs returned -1001 (CL_PLATFORM_NOT_FOUND_KHR)".
std::string cl_call_failed(std::string_view call, std::int32_t code);

/// "GPU", "CPU", "ACCELERATOR", "CUSTOM", or "CPU|GPU" for a device of several kinds;
/// nullopt when no type bit is set (CL_DEVICE_TYPE_DEFAULT alone is not a type).
std::optional<std::string> cl_device_type_name(std::uint64_t bits);

/// The 16 bytes of a UUID as 32 lower-case hex digits.
std::string uuid_hex(const std::uint8_t (&bytes)[16]);

/// A space-separated extension list as the driver wrote it, in order, without repeats.
std::vector<std::string> split_extensions(std::string_view text);

}  // namespace gpudoctor
