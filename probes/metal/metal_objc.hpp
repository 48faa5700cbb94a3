#pragma once
// MetalCalls through the Objective-C runtime: libobjc, Metal.framework and
// MetalPerformanceShaders opened with dlopen, every message sent through objc_msgSend cast to
// the exact function type of that call. Isolated child only.
#include <memory>
#include <string>
#include <vector>

#include "metal/metal_calls.hpp"

namespace gpudoctor::metal {

struct MetalLibraries {
  std::string objc_runtime;   ///< /usr/lib/libobjc.A.dylib
  std::string core_graphics;  ///< opened first, for the system's default device
  std::string metal;          ///< Metal.framework/Metal: MTLCopyAllDevices
  std::string mps;            ///< MetalPerformanceShaders: optional
};

/// The platform's libraries (platform/library_names.hpp); empty names off macOS.
MetalLibraries metal_libraries(std::string_view platform);

/// Opens the runtime and Metal. Null when either cannot be opened or lacks an entry point;
/// then *error says which, *missing whether it was a library that could not be opened (rather
/// than one without the entry point), and *load_errors holds each dlerror() text. A missing
/// CoreGraphics or MetalPerformanceShaders is only noted in *load_errors.
std::unique_ptr<MetalCalls> open_objc_metal(const MetalLibraries& libraries,
                                            std::vector<std::string>* load_errors,
                                            std::string* error, bool* missing);

}  // namespace gpudoctor::metal
