// `system_profiler SPDisplaysDataType`, as -json and as the text people paste, and the other
// macOS tool outputs: sysctl, sw_vers, ~/.plaidml.
#include "fuzz_input.hpp"
#include "parse/macos_tools.hpp"
#include "parse/system_profiler.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  const std::string_view text = fuzz::as_text(data, size);
  const DisplaysReport json = parse_system_profiler_displays(text);
  const DisplaysReport pasted = parse_system_profiler_displays_text(text);
  // A report that is not one says why, and then lists no GPU.
  for (const auto* r : {&json, &pasted}) {
    if (r->error && !r->gpus.empty()) __builtin_trap();
  }
  parse_profiler_size(text);
  MacosInfo info;
  apply_sysctl(info, parse_sysctl(text));
  apply_sw_vers(info, parse_sw_vers(text));
  parse_plaidml_config(text);
  return 0;
}
