#pragma once
// Parsers for the files that tell a CUDA toolkit's and its libraries' versions: version.json,
// version.txt, `nvcc --version` output, the version macros in cuda.h, cuda_runtime_api.h,
// cublas_api.h, cudnn_version.h and nccl.h, Python wheel metadata, conda-meta file names and
// versioned library file names. Each takes text or a name; none touches the system.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// version.json (CUDA 11.1 and later): component → version, e.g. "cuda" → "12.6.20241114",
/// "cuda_cudart" → "12.6.77", "libcublas" → "11.7.4.6". Empty when it is not that file.
std::map<std::string, std::string> parse_cuda_version_json(std::string_view text);

/// version.txt (CUDA 11.0 and earlier): "CUDA Version 10.2.89" → "10.2.89".
std::optional<std::string> parse_cuda_version_txt(std::string_view text);

/// `nvcc --version`: "Cuda compilation tools, release 12.6, V12.6.85" → "12.6.85" (or "12.6"
/// when the V field is missing).
std::optional<std::string> parse_nvcc_version(std::string_view text);

/// The value of `#define NAME value` in a header; nullopt when absent or not a number.
std::optional<long> header_define(std::string_view header, std::string_view name);

/// "MAJOR.MINOR.PATCH" from cudnn_version.h (cuDNN 8+) or cudnn.h (cuDNN 7 and earlier).
std::optional<std::string> parse_cudnn_header(std::string_view header);
/// "MAJOR.MINOR.PATCH" from nccl.h.
std::optional<std::string> parse_nccl_header(std::string_view header);
/// "MAJOR.MINOR.PATCH.BUILD" from cublas_api.h (CUBLAS_VER_*).
std::optional<std::string> parse_cublas_header(std::string_view header);
/// CUDA_VERSION from cuda.h or CUDART_VERSION from cuda_runtime_api.h: 12040 → "12.4".
std::optional<std::string> parse_cuda_version_macro(std::string_view header,
                                                    std::string_view macro);

/// The "Version:" field of a wheel's METADATA.
std::optional<std::string> parse_wheel_metadata_version(std::string_view text);

/// A distribution named in a file name: a wheel's .dist-info directory
/// ("nvidia_cudnn_cu12-9.1.0.70.dist-info") or a conda-meta record
/// ("cudatoolkit-10.1.243-h6bb024c_0.json").
struct PackageName {
  std::string name;     ///< "nvidia_cudnn_cu12", "cudatoolkit"
  std::string version;  ///< "9.1.0.70", "10.1.243"
};
std::optional<PackageName> parse_dist_info_name(std::string_view dirname);
std::optional<PackageName> parse_conda_meta_name(std::string_view filename);

/// A wheel name without the CUDA flavour suffix, dashes as underscores, lower case:
/// "nvidia-cudnn-cu12" and "nvidia_cudnn_cu13" → "nvidia_cudnn".
std::string wheel_base_name(std::string_view name);

/// The version a library's file name carries after its stem: ("libcuda.so.580.65.06",
/// "libcuda.so") → "580.65.06"; ("libcuda.so", "libcuda.so") → nullopt.
std::optional<std::string> library_name_version(std::string_view filename, std::string_view stem);

/// The most specific version among files named stem.N[.M…] (most dotted parts, then highest).
std::optional<std::string> best_library_version(const std::vector<std::string>& filenames,
                                                std::string_view stem);

/// Number of dot-separated parts: "13.0.96" → 3.
int version_parts(std::string_view version);

/// A CUDA toolkit's stub library: a path with a "stubs" directory in it.
bool is_stub_path(std::string_view path);

}  // namespace gpudoctor
