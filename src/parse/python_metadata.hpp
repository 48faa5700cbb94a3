#pragma once
// Parsers for installed-distribution metadata: the RFC 822 style header files (*.dist-info
// METADATA and WHEEL, *.egg-info PKG-INFO), their directory names, requirement strings and
// package names. Each takes text; none touches the system.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpudoctor {

/// A header block ("Name: torch", continuation lines start with blanks) and the body after
/// the first blank line. Repeated headers (Requires-Dist, Tag) are kept in order.
struct CoreMetadata {
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  /// The first value of a header, matched case-insensitively.
  std::optional<std::string> get(std::string_view key) const;
  std::vector<std::string> all(std::string_view key) const;
};
CoreMetadata parse_core_metadata(std::string_view text);

/// PEP 503: lower case, every run of '-', '_' and '.' becomes one '-'.
std::string normalize_package_name(std::string_view name);

/// "torch-2.5.1.dist-info", "numpy-1.24.2.egg-info", "numpy-1.24.2-py3.11.egg-info",
/// "cryptography.egg-info" (no version); nullopt for anything else.
struct DistDirName {
  std::string name;                    ///< as written: "nvidia_cudnn_cu12"
  std::optional<std::string> version;  ///< "9.1.0.70"
  bool egg_info = false;
};
std::optional<DistDirName> parse_dist_dir_name(std::string_view entry);

/// The project a requirement names: "nvidia-cudnn-cu12 (==9.1.0.70) ; extra == 'x'" gives
/// "nvidia-cudnn-cu12" (as written, not normalised).
std::string requirement_name(std::string_view requirement);

/// The PEP 440 local version label: "2.5.1+cu124" gives "cu124"; nullopt without one.
std::optional<std::string> local_version_label(std::string_view version);

/// The CUDA release a package is built for, read from its normalised name:
/// "nvidia-cudnn-cu12" and "jax-cuda12-plugin" give "12", "cupy-cuda12x" gives "12",
/// "cupy-cuda102" gives "10.2"; nullopt when the name says nothing.
std::optional<std::string> cuda_series_from_name(std::string_view normalized_name);

/// Whether gpudoctor records a distribution (by normalised name): torch, the tensorflow
/// family (-cpu, -gpu, -macos, -metal, -intel, -rocm, tf-nightly, tf-keras), keras, jax,
/// jaxlib, jax-cuda*/jax-rocm* plugins, cupy and cupy-cuda*/cupy-rocm*, nvidia-* wheels,
/// plaidml, and numpy.
bool is_gpu_relevant_package(std::string_view normalized_name);

}  // namespace gpudoctor
