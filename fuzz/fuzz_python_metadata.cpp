// A distribution's METADATA / PKG-INFO / WHEEL, and the names and requirement strings in it.
#include "fuzz_input.hpp"
#include "parse/nvidia_toolkit.hpp"
#include "parse/python_metadata.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  const std::string_view text = fuzz::as_text(data, size);
  const CoreMetadata meta = parse_core_metadata(text);
  meta.get("Name");
  for (const auto& [key, value] : meta.headers) {
    requirement_name(value);
    local_version_label(value);
    const std::string name = normalize_package_name(value);
    cuda_series_from_name(name);
    is_gpu_relevant_package(name);
    meta.all(key);
  }
  parse_wheel_metadata_version(text);
  parse_dist_dir_name(fuzz::first_line_and_rest(text).first);
  return 0;
}
