// /etc/ld.so.conf and the files it includes.
#include "fuzz_input.hpp"
#include "api/ld_so/ld_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gpudoctor::parse_ld_so_conf(gpudoctor::fuzz::as_text(data, size));
  return 0;
}
