#pragma once
// LLM runtimes installed outside Python: ollama (its binary, the libraries it bundles, the
// environment its systemd unit gives it) and llama.cpp builds (their binaries and the ggml
// backend libraries next to them), read from files only. vLLM is a Python package
// (model/python.hpp).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"

namespace gpudoctor {

/// One ollama install.
struct OllamaInstall {
  std::string binary;                    ///< "/usr/local/bin/ollama"
  /// The directory of the libraries it ships ("/usr/local/lib/ollama"); null when none was
  /// found (releases before 0.5 embedded their runners in the binary).
  std::optional<std::string> lib_dir;
  /// The GPU backends found under lib_dir: "cuda_v12", "cuda_v13", "rocm", "vulkan" (a
  /// directory or a libggml-<backend>*.so of that name).
  std::vector<std::string> backends;
  /// libcudart versions it bundles, from the file names: "12.8.90".
  std::vector<std::string> cudart_versions;
  /// The gfx targets its bundled rocBLAS carries code for (rocblas/library/*gfx*), sorted.
  std::vector<std::string> rocblas_gfx;
  bool rocblas_read = false;             ///< a rocblas/library directory was found and listed
  /// The rocblas/library directory listed: under lib_dir, or the ROCm bundle the install script
  /// of releases before 0.5 put in /usr/share/ollama/lib/rocm.
  std::optional<std::string> rocblas_dir;
  std::optional<std::string> unit;       ///< "/etc/systemd/system/ollama.service"
  /// Environment= of the unit and its drop-ins (ollama.service.d/*.conf), later ones winning.
  std::map<std::string, std::string> unit_env;
};
GPUDOCTOR_JSON(OllamaInstall, binary, lib_dir, backends, cudart_versions, rocblas_gfx,
               rocblas_read, rocblas_dir, unit, unit_env)

/// One llama.cpp build: its binaries in one directory and the ggml backends beside them.
struct LlamaCppInstall {
  std::string dir;                       ///< "/usr/local/bin"
  std::vector<std::string> binaries;     ///< "llama-server", "llama-cli", "llama-bench"
  /// Backend libraries found next to the binaries or in ../lib: "cuda", "hip", "vulkan",
  /// "metal", "sycl", "cpu" (libggml-<name>.so); empty when none was found (a static build).
  std::vector<std::string> backends;
};
GPUDOCTOR_JSON(LlamaCppInstall, dir, binaries, backends)

struct RuntimeInstalls {
  std::vector<OllamaInstall> ollama;
  std::vector<LlamaCppInstall> llama_cpp;
};
GPUDOCTOR_JSON(RuntimeInstalls, ollama, llama_cpp)

}  // namespace gpudoctor
