// An OpenCL .icd file (/etc/OpenCL/vendors/*.icd) and a vendors-directory entry name.
#include "fuzz_input.hpp"
#include "parse/icd_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = gpudoctor::fuzz::as_text(data, size);
  gpudoctor::parse_icd_file(text);
  gpudoctor::is_icd_file_name(text);
  return 0;
}
