#pragma once
// Facts about Python environments and the NVIDIA driver that the framework checks share.
#include <optional>
#include <string>
#include <string_view>

#include "checks/checks.hpp"
#include "compat/version.hpp"

namespace gpudoctor {

/// "/home/ana/venv (Python 3.11.9)": how a finding names an environment.
std::string env_label(const PythonEnv& env);

/// The package `name` (PEP 503 normalised) in `env`, if installed.
const PythonPackage* find_package(const PythonEnv& env, std::string_view name);

/// A Windows wheel read through WSL's /mnt/c: its GPU story is Windows', not this machine's.
bool windows_wheel(const PythonPackage& p);

/// A usable NVIDIA GPU: on PCI with the nvidia driver bound, or seen by CUDA/NVML.
bool usable_nvidia_gpu(const Snapshot& s);

/// The lowest driver that runs code built with CUDA `cuda` shipped inside a framework: the
/// minor-version-compatibility minimum of its major family, else the toolkit's own minimum.
struct DriverNeed {
  Version driver;
  std::string source;  ///< URL of the row it came from
};
std::optional<DriverNeed> driver_for_bundled_cuda(const CompatData& data, const Version& cuda);

/// The rule TensorFlow, JAX and torch apply to the cuDNN they load: the major they were built
/// with, at an equal or higher minor. True when either version is unknown.
bool cudnn_runtime_compatible(const Version& loaded, const Version& compiled);

/// Another distribution in `env` than `self` requires `package` (an nvidia-* wheel) in its
/// METADATA: a wrong version of it is python.nvidia_wheel_conflict's finding.
bool nvidia_wheel_shared(const PythonEnv& env, std::string_view package, const PythonPackage& self);

}  // namespace gpudoctor
