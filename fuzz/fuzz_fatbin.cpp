// NVIDIA fatbinary containers as they lie in a .nv_fatbin section (src/binary/fatbin.hpp).
#include "binary/fatbin.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto src = gpudoctor::binary::bytes_source(gpudoctor::fuzz::as_text(data, size));
  gpudoctor::binary::scan_fatbins(src, 0, size);
  return 0;
}
