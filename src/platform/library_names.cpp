#include "platform/library_names.hpp"

#include "platform/platform.hpp"

namespace gpudoctor {

namespace {

const LibraryNames kLinux{
    {"libOpenCL.so.1"},
    true,
    {"libvulkan.so.1"},
    // The driver's versioned SONAME first; the unversioned name is what the toolkit's stub
    // (…/lib64/stubs/libcuda.so) and development symlinks provide.
    {"libcuda.so.1", "libcuda.so"},
    {"libnvidia-ml.so.1", "libnvidia-ml.so"},
    {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5",
     "/opt/rocm/lib/libamdhip64.so"},
    {"libopenblas.so.0", "libblas.so.3"},
    "",
    "",
    "",
};

// dyld looks for a bare name in DYLD_LIBRARY_PATH and its fallback directories, which hold
// neither the LunarG SDK's /usr/local/lib on every macOS nor Homebrew's /opt/homebrew/lib
// (https://github.com/KhronosGroup/Vulkan-Samples/issues/1001), so the install paths follow.
const LibraryNames kMacos{
    {"/System/Library/Frameworks/OpenCL.framework/OpenCL"},
    false,
    {"libvulkan.1.dylib", "/usr/local/lib/libvulkan.1.dylib",
     "/opt/homebrew/lib/libvulkan.1.dylib"},
    // NVIDIA's CUDA driver for macOS (up to macOS 10.13, CUDA 10.2) installs it there; the
    // bare name first honours DYLD_LIBRARY_PATH (seed 002's $CUDA_HOME/lib).
    {"libcuda.dylib", "/usr/local/cuda/lib/libcuda.dylib"},
    {},
    {},
    // Accelerate's BLAS is the one every Mac has; Homebrew's OpenBLAS as the Linux baseline.
    {"/System/Library/Frameworks/Accelerate.framework/Accelerate",
     "/opt/homebrew/opt/openblas/lib/libopenblas.dylib",
     "/usr/local/opt/openblas/lib/libopenblas.dylib"},
    "/usr/lib/libobjc.A.dylib",
    "/System/Library/Frameworks/Metal.framework/Metal",
    "/System/Library/Frameworks/MetalPerformanceShaders.framework/MetalPerformanceShaders",
    "/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics",
};

}  // namespace

const LibraryNames& library_names(std::string_view platform) {
  return platform == kPlatformMacos ? kMacos : kLinux;
}

}  // namespace gpudoctor
