#include "python/gpu_code_files.hpp"

#include <algorithm>
#include <regex>

#include "binary/gpu_code.hpp"
#include "core/file_source.hpp"
#include "core/paths.hpp"
#include "text.hpp"

namespace gpudoctor::python {

namespace {

// CuPy ships about a hundred extension modules; the walk stops well above that.
constexpr std::size_t kMaxFilesPerPackage = 512;
constexpr int kMaxDepth = 4;

bool is_shared_library(const std::string& name) {
  return ends_with(name, ".so") || name.find(".so.") != std::string::npos;
}

/// Where a library is listed: every candidate (`always`), or only when it holds GPU code or
/// could not be read (the many extension modules of CuPy or jaxlib that have none).
struct Candidate {
  std::string path;
  bool always = true;
};

void add_dir(const Root& root, const std::string& dir, const std::regex* only, bool always,
             std::vector<Candidate>& out) {
  for (const std::string& name : root.list(dir)) {
    if (!is_shared_library(name) || (only != nullptr && !std::regex_match(name, *only))) continue;
    out.push_back({join_path(dir, name), always});
  }
}

void add_tree(const Root& root, const std::string& dir, int depth, std::vector<Candidate>& out) {
  if (depth > kMaxDepth || out.size() >= kMaxFilesPerPackage) return;
  for (const std::string& name : root.list(dir)) {
    const std::string path = join_path(dir, name);
    if (root.is_directory(path)) {
      add_tree(root, path, depth + 1, out);
    } else if (is_shared_library(name) && out.size() < kMaxFilesPerPackage) {
      out.push_back({path, false});
    }
  }
}

/// "jax-cuda12-plugin" → "jax_cuda12_plugin": the import package a distribution installs.
std::string module_dir(const std::string& name) {
  std::string out = name;
  std::replace(out.begin(), out.end(), '-', '_');
  return out;
}

std::vector<Candidate> candidates(const Root& root, const std::string& site,
                                  const PythonPackage& pkg) {
  std::vector<Candidate> out;
  const std::string& n = pkg.name;
  if (n == "torch") {
    // libtorch_cuda.so (1.x split it into _cu and _cpp), libtorch_cuda_linalg.so, libc10_cuda.so
    // and the ROCm builds' libtorch_hip.so / libc10_hip.so.
    static const std::regex kTorch(R"(lib(torch|c10)_(cuda|hip)[A-Za-z0-9_]*\.so.*)");
    add_dir(root, join_path(site, "torch/lib"), &kTorch, true, out);
    // conda-forge's pytorch keeps its libraries in the environment's lib/, beside
    // lib/pythonX.Y/site-packages.
    if (out.empty()) {
      const std::string prefix_lib = parent_path(parent_path(site));
      if (file_name(prefix_lib) == "lib") add_dir(root, prefix_lib, &kTorch, true, out);
    }
  } else if (pkg.tensorflow) {
    for (const char* rel : {"tensorflow/libtensorflow_framework.so.2",
                            "tensorflow/libtensorflow_cc.so.2",
                            "tensorflow/python/_pywrap_tensorflow_internal.so"}) {
      const std::string path = join_path(site, rel);
      if (root.exists(path)) out.push_back({path, true});
    }
  } else if (n == "jaxlib") {
    add_dir(root, join_path(site, "jaxlib/cuda"), nullptr, true, out);
    add_dir(root, join_path(site, "jaxlib/rocm"), nullptr, true, out);
  } else if (starts_with(n, "jax-cuda") || starts_with(n, "jax-rocm")) {
    if (ends_with(n, "-pjrt")) {
      // jax-cuda12-pjrt installs jax_plugins/xla_cuda12/xla_cuda_plugin.so.
      const std::string series = n.substr(4, n.size() - 4 - 5);
      add_dir(root, join_path(site, "jax_plugins/xla_" + series), nullptr, true, out);
    } else {
      add_dir(root, join_path(site, module_dir(n)), nullptr, true, out);
    }
  } else if (starts_with(n, "cupy")) {
    add_tree(root, join_path(site, "cupy"), 0, out);
    add_tree(root, join_path(site, "cupy_backends"), 0, out);
  }
  return out;
}

bool holds_code(const GpuCodeLibrary& lib) {
  return lib.error || (lib.cuda_fatbins && *lib.cuda_fatbins > 0) ||
         (lib.offload_bundles && *lib.offload_bundles > 0);
}

}  // namespace

void read_package_gpu_code(const Root& root, const std::string& site_dir, PythonPackage& pkg) {
  for (const Candidate& c : candidates(root, site_dir, pkg)) {
    GpuCodeLibrary lib;
    auto failed = with_file_source(root, c.path, [&](const binary::ByteSource& src) {
      lib = binary::read_gpu_code(src, c.path);
    });
    if (failed) {
      lib.path = c.path;
      lib.error = *failed;
    }
    if (c.always || holds_code(lib)) pkg.gpu_code.push_back(std::move(lib));
  }
}

}  // namespace gpudoctor::python
