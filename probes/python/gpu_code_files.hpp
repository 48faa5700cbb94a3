#pragma once
#include <string>

#include "core/root.hpp"
#include "model/python.hpp"

namespace gpudoctor::python {

/// Reads the GPU code of the shared libraries that carry a framework's CUDA or HIP kernels
/// (torch/lib/libtorch_cuda.so, libtorch_hip.so, jaxlib and the JAX plugins, TensorFlow's
/// libtensorflow_*.so.2, CuPy's extension modules) into `pkg.gpu_code`, headers only.
void read_package_gpu_code(const Root& root, const std::string& site_dir, PythonPackage& pkg);

}  // namespace gpudoctor::python
