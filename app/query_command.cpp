// `gpudoctor query`: every device through every API, as text or JSON.
#include <unistd.h>

#include <iostream>

#include "commands.hpp"
#include "terminal.hpp"
#include "machine_source.hpp"
#include "render/query_text.hpp"

namespace gpudoctor {

int run_query(const Options& opt, const Environment& env) {
  auto loaded = load_machine(opt, env);
  if (auto* why = std::get_if<std::string>(&loaded)) {
    std::cerr << "gpudoctor: " << *why << "\n";
    return 2;
  }
  const Machine& m = std::get<Machine>(loaded);
  if (opt.json) {
    std::cout << dump_json(query_json(m.snap, m.devices), 2) << "\n";
  } else {
    const Style style = stdout_style(opt.color, env);
    std::cout << render_query_text(m.snap, m.devices, style);
  }
  return 0;
}

}  // namespace gpudoctor
