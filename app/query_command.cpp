// `gpudoctor query`: every device through every API, as text or JSON.
#include <unistd.h>

#include "commands.hpp"
#include "file_io.hpp"
#include "terminal.hpp"
#include "machine_source.hpp"
#include "render/query_text.hpp"

namespace gpudoctor {

int run_query(const Options& opt, const Environment& env) {
  auto loaded = diagnose_machine(opt, env);
  if (auto* why = std::get_if<std::string>(&loaded)) {
    print_error(*why);
    return 2;
  }
  const Diagnosis& m = std::get<Diagnosis>(loaded);
  if (opt.json) {
    return emit_json([&](JsonWriter& out) { write_query_json(out, m.snap, m.devices); }, 0);
  }
  const Style style = stdout_style(opt.color, env);
  return emit(render_query_text(m.snap, m.devices, style), 0, true, style);
}

}  // namespace gpudoctor
