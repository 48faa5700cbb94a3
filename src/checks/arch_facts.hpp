#pragma once
// The GPU code a Python package's libraries were read to carry (model/gpu_code.hpp), as the
// arch checks use it.
#include <optional>
#include <string>
#include <vector>

#include "model/python.hpp"

namespace gpudoctor {

/// The CUDA targets of one library (or of a whole build, when they come from a table). Each
/// library is judged on its own: torch 2.8's libtorch_cuda_linalg.so carries sm_50 and sm_60,
/// its libtorch_cuda.so does not, and a Pascal GPU fails on the second.
struct CudaCodePart {
  std::string how;                ///< "read from torch/lib/libtorch_cuda.so"
  std::vector<std::string> sass;  ///< "sm_80"
  std::vector<std::string> ptx;   ///< "compute_90"
  std::uint64_t containers = 0;   ///< fatbinaries read; 0 for a table's list
};

/// CUDA targets a framework carries and how that is known. The part with the most containers
/// (libtorch_cuda.so beside libtorch_cuda_linalg.so) holds nearly all of its kernels.
struct CudaCode {
  std::vector<CudaCodePart> parts;
  std::optional<std::string> source;  ///< the table row's URL, when from a table
  std::vector<std::string> evidence;
};

/// The CUDA targets of each of the package's libraries that was read to the end; nullopt when
/// none was (the evidence then names those that could not be read).
std::optional<CudaCode> files_code(const PythonPackage& pkg);

/// The AMD targets in its libraries' offload bundles, and which libraries they came from;
/// nullopt when no uncompressed bundle was read.
struct AmdgpuCode {
  std::vector<std::string> targets;  ///< "gfx90a:xnack-"
  std::vector<std::string> evidence;
};
std::optional<AmdgpuCode> files_amdgpu(const PythonPackage& pkg);

/// Whether any of its libraries holds CUDA fatbinaries.
bool carries_cuda(const PythonPackage& pkg);

/// Libraries that could not be read, as evidence lines.
std::vector<std::string> unread_libraries(const PythonPackage& pkg);

/// The wheel's platform in PyTorch's table's words: "linux-x86_64", "linux-aarch64",
/// "windows-x86_64" (from the WHEEL tags; linux-x86_64 when they say nothing).
std::string wheel_platform(const PythonPackage& pkg);

}  // namespace gpudoctor
