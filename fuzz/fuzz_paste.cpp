// What people paste into tickets: every reader of src/paste/ alone on the cleaned lines (so a
// reader is fuzzed even where an earlier one would claim the lines first), then all of them
// together as `check --from` runs them.
#include "fuzz_input.hpp"
#include "paste/read_pasted.hpp"
#include "paste/readers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  const std::string_view text = fuzz::as_text(data, size);
  const auto lines = clean_paste(text);
  for (auto* reader : {read_messages, read_nvidia_smi_query, read_nvidia_smi, read_collect_env,
                       read_jax_info, read_rocminfo, read_rocm_smi, read_system_profiler,
                       read_clinfo, read_vulkaninfo, read_ollama_log, read_tensorflow,
                       read_package_lists}) {
    PasteSink sink(lines);
    reader(sink);
    // Every fact stands on a line of the text.
    for (const auto& f : sink.facts) {
      if (f.line < 1 || static_cast<std::size_t>(f.line) > lines.size()) __builtin_trap();
    }
  }
  const PastedReading r = read_pasted(text);
  for (const auto& p : r.parts) {
    if (p.first_line < 1 || p.last_line < p.first_line ||
        static_cast<std::size_t>(p.last_line) > r.lines.size()) {
      __builtin_trap();
    }
  }
  return 0;
}
