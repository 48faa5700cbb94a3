// /proc/driver/nvidia/version, /proc/modules, the SecureBoot variable, modprobe.d files,
// /proc/cmdline and /etc/group; input for the two-argument ones: the module name, then the file.
#include "fuzz_input.hpp"
#include "parse/nvidia_kernel.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  const std::string_view text = fuzz::as_text(data, size);
  parse_nvrm_version(text);
  parse_proc_modules(text);
  parse_secure_boot_var(text);
  parse_group_file(text);
  const auto [module, file] = fuzz::first_line_and_rest(text);
  modprobe_disables(file, module);
  cmdline_params_for(file, module);
  return 0;
}
