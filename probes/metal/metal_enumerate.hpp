#pragma once
// What the Metal child does through MetalCalls, with no Objective-C of its own: list the
// devices, read each, and run the smoke matmul on each when asked. Unit-tested with a fake
// MetalCalls; the real one is metal_objc.cpp.
#include <optional>
#include <string>

#include "core/isolate.hpp"
#include "metal/metal_calls.hpp"
#include "model/metal.hpp"
#include "smoke/matmul_request.hpp"

namespace gpudoctor::metal {

/// What the child sends back: the section's JSON and, in progress reports while a smoke
/// matmul runs, this key naming the device, so that a child that dies there is reported as
/// that device's failure (MetalInfo's reader ignores the key).
inline constexpr const char* kSmokeRunningKey = "smoke_running";

/// More devices than this is a runtime that lies; the rest are not read.
inline constexpr std::size_t kMaxDevices = 64;

struct EnumerateOptions {
  bool smoke = false;
  int smoke_n = smoke::kCheckMatmulN;
};

/// Reads every device into `info` (and its smoke results when asked), sending progress before
/// each smoke run; returns the child's status, one line about it, and `info` as its data.
JobReport enumerate(MetalCalls& calls, const EnumerateOptions& options, MetalInfo& info);

/// The label a device's smoke result and bench series carry: its name, else "Metal device N".
std::string device_label(const MetalDevice& d);

}  // namespace gpudoctor::metal
