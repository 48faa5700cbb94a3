// modules.alias matched against a device's modalias; input: the modalias line, then the file.
#include "fuzz_input.hpp"
#include "parse/modules_alias.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto [modalias, file] =
      gpudoctor::fuzz::first_line_and_rest(gpudoctor::fuzz::as_text(data, size));
  gpudoctor::modules_for_modalias(file, modalias);
  return 0;
}
