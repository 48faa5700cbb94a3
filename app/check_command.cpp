// `gpudoctor check`: every check over this machine or a recorded one; `explain`: what a check
// looks at.
#include <unistd.h>

#include <iostream>

#include "checks/checks.hpp"
#include "commands.hpp"
#include "machine_source.hpp"
#include "render/check_text.hpp"

namespace gpudoctor {

int run_check(const Options& opt, const Environment& env) {
  auto loaded = load_machine(opt, env);
  if (auto* why = std::get_if<std::string>(&loaded)) {
    std::cerr << "gpudoctor: " << *why << "\n";
    return 2;
  }
  const Machine& m = std::get<Machine>(loaded);
  const auto findings = run_checks(CheckInput{m.snap, m.devices, builtin_compat()});
  if (opt.json) {
    std::cout << dump_json(check_json(m.snap, m.devices, findings), 2) << "\n";
  } else {
    const Style style = Style::for_stream(opt.color, ::isatty(STDOUT_FILENO) != 0, env);
    std::cout << render_check_text(m.snap, m.devices, findings, style);
  }
  return check_exit_code(findings);
}

int run_explain(const Options& opt) {
  if (const CheckSpec* spec = find_check(opt.explain_id)) {
    std::cout << render_explain(*spec);
    return 0;
  }
  std::string known;
  for (const auto& c : all_checks()) known += "\n  " + std::string(c.id);
  std::cerr << "gpudoctor: no check '" << opt.explain_id << "'; known checks:" << known << "\n";
  return 2;
}

}  // namespace gpudoctor
