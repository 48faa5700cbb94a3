// pyvenv.cfg, conda's environments.txt, the names that carry a Python version, and an
// interpreter's first bytes.
#include "fuzz_input.hpp"
#include "parse/python_env_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  const std::string_view text = fuzz::as_text(data, size);
  parse_pyvenv_cfg(text);
  parse_conda_environments(text);
  binary_archs(text);
  const std::string_view name = fuzz::first_line_and_rest(text).first;
  python_version_from_conda_meta(name);
  python_version_from_name(name);
  python_version_from_libpython(name);
  return 0;
}
