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
  std::vector<SmokeResult> smoke;
  /// The device whose smoke matmul is running (set in progress reports): if the child dies
  /// now, the driver died in that device's kernel.
  std::optional<std::string> smoke_running;
};
GPUDOCTOR_JSON(IcdReport, loads, error, loader_name, loader_version, platforms, smoke,
               smoke_running)

/// Makes the loader in this child see one ICD and nothing else (environment variables that
/// ocl-icd and the Khronos loader read when they first load). Only in an isolated child.
void restrict_loader_to(const std::string& library);

/// The body of one isolated job: restricts the loader to this one ICD, checks the ICD loads
/// and answers clIcdGetPlatformIDsKHR, then enumerates every platform and device through
/// libOpenCL.so.1; with `smoke`, runs the smoke matmul on every device it found. Runs only in
/// a child: it loads vendor code and may crash or hang there.
JobReport probe_icd(const std::string& library, bool smoke);

/// The same for a Mac, whose OpenCL.framework is the implementation: opened directly, no ICD
/// step and no loader. Runs only in a child.
JobReport probe_framework(const std::string& library, bool smoke);

/// How smoke results name an OpenCL device: "<device name> on <platform name>".
std::string smoke_device_label(const OpenClPlatform& platform, std::size_t device);

}  // namespace gpudoctor::opencl
