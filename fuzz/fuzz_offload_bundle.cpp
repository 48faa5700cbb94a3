// Clang offload bundles, plain and compressed, as they lie in a .hip_fatbin section
// (src/binary/offload_bundle.hpp).
#include "binary/offload_bundle.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = gpudoctor::fuzz::as_text(data, size);
  gpudoctor::binary::scan_offload_bundles(gpudoctor::binary::bytes_source(text), 0, size);
  gpudoctor::binary::amdgpu_target_id(text);
  return 0;
}
