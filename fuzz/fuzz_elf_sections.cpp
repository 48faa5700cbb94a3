// An ELF file's section table (src/binary/elf_sections.hpp), then the GPU code the sections
// point to, as the probe reads a shared library.
#include "binary/gpu_code.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto src = gpudoctor::binary::bytes_source(gpudoctor::fuzz::as_text(data, size));
  gpudoctor::binary::read_gpu_code(src, "fuzz.so");
  return 0;
}
