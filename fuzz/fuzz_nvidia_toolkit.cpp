// A CUDA toolkit's version.json / version.txt, `nvcc --version`, the version macros of its
// headers, and the versions in wheel, conda and library file names.
#include "fuzz_input.hpp"
#include "parse/nvidia_toolkit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  const std::string_view text = fuzz::as_text(data, size);
  parse_cuda_version_json(text);
  parse_cuda_version_txt(text);
  parse_nvcc_version(text);
  parse_cudnn_header(text);
  parse_nccl_header(text);
  parse_cublas_header(text);
  parse_cuda_version_macro(text, "CUDA_VERSION");
  const auto [name, rest] = fuzz::first_line_and_rest(text);
  parse_dist_info_name(name);
  parse_conda_meta_name(name);
  wheel_base_name(name);
  library_name_version(name, "libcuda.so");
  best_library_version({std::string(name), std::string(rest)}, "libcuda.so");
  version_parts(name);
  is_stub_path(name);
  return 0;
}
