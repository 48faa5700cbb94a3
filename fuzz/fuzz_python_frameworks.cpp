// Files frameworks write about their own build: torch/version.py, tensorflow's build_info.py,
// ~/.keras/keras.json; read without running them.
#include "fuzz_input.hpp"
#include "parse/python_frameworks.hpp"
#include "parse/python_literals.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  const std::string_view text = fuzz::as_text(data, size);
  python_assignments(text);
  python_dict_entries(text);
  parse_torch_version_py(text);
  parse_tensorflow_build_info(text);
  parse_keras_json(text);
  return 0;
}
