#pragma once
// The vendor libraries each platform's programs open, in one place, so that the OpenCL, Vulkan,
// CUDA and bench probes run on a Mac unchanged. Names are tried in order with dlopen.
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

struct LibraryNames {
  /// What OpenCL programs link: the ICD loader on Linux, Apple's own implementation on macOS.
  std::vector<std::string> opencl;
  /// Whether `opencl` dispatches to registered ICDs (/etc/OpenCL/vendors); Apple's framework
  /// is the implementation itself and reads no ICD files.
  bool opencl_has_icds = true;
  std::vector<std::string> vulkan;  ///< the Vulkan loader (with MoltenVK on a Mac)
  std::vector<std::string> cuda;    ///< the CUDA driver API
  std::vector<std::string> nvml;    ///< empty where NVIDIA never shipped it (macOS)
  std::vector<std::string> hip;     ///< empty where AMD never shipped it (macOS)
  std::vector<std::string> blas;    ///< CBLAS for the bench's CPU baseline
  /// macOS only: the Objective-C runtime and the frameworks the Metal backend calls through it.
  std::string objc_runtime;
  std::string metal;
  std::string mps;
  /// Loaded before Metal: without it a command-line program gets no default Metal device
  /// (https://developer.apple.com/documentation/metal/mtlcreatesystemdefaultdevice()).
  std::string core_graphics;
};

/// The names for kPlatformLinux or kPlatformMacos (platform/platform.hpp); Linux's for others.
const LibraryNames& library_names(std::string_view platform);

}  // namespace gpudoctor
