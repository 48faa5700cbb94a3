#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/isolate.hpp"
#include "json.hpp"
#include "model/opencl.hpp"

namespace gpudoctor::opencl {

// A driver's answers are believed only this far.
inline constexpr unsigned kMaxPlatforms = 64;
inline constexpr unsigned kMaxDevices = 256;
inline constexpr std::size_t kMaxString = 64 * 1024;

/// What one isolated child sends back about its ICD (the JobReport's data).
struct IcdReport {
  std::optional<bool> loads;
  std::optional<std::string> error;
  std::optional<std::string> loader_name;
  std::optional<std::string> loader_version;
  std::vector<OpenClPlatform> platforms;
};
GPUDOCTOR_JSON(IcdReport, loads, error, loader_name, loader_version, platforms)

/// The body of one isolated job: restricts the loader to this one ICD, checks the ICD loads
/// and answers clIcdGetPlatformIDsKHR, then enumerates every platform and device through
/// libOpenCL.so.1. Runs only in a child: it loads vendor code and may crash or hang there.
JobReport probe_icd(const std::string& library);

}  // namespace gpudoctor::opencl
