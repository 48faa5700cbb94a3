// `gpudoctor check`: every check over this machine or a recorded one; `explain`: what a check
// looks at.
#include <unistd.h>

#include <iostream>

#include "checks/check_ids.hpp"
#include "checks/checks.hpp"
#include "commands.hpp"
#include "terminal.hpp"
#include "machine_source.hpp"
#include "render/check_text.hpp"
#include "text.hpp"

namespace gpudoctor {

int run_check(const Options& opt, const Environment& env) {
  auto loaded = load_machine(opt, env);
  if (auto* why = std::get_if<std::string>(&loaded)) {
    std::cerr << "gpudoctor: " << *why << "\n";
    return 2;
  }
  const Machine& m = std::get<Machine>(loaded);
  const auto findings = select_findings(run_checks(CheckInput{m.snap, m.devices, builtin_compat()}),
                                        opt.only, opt.skip);
  if (opt.json) {
    std::cout << dump_json(check_json(m.snap, m.devices, findings), 2) << "\n";
  } else {
    const Style style = stdout_style(opt.color, env);
    std::cout << render_check_text(m.snap, m.devices, findings, style);
  }
  return check_exit_code(findings);
}

int run_explain(const Options& opt) {
  if (opt.explain_id.empty()) {
    const Style style = stdout_style(opt.color, Environment::from_process());
    std::cout << render_explain_list(all_check_ids(), style);
    return kExitOk;
  }
  const IdLookup found = lookup_check_id(opt.explain_id);
  if (found.spec) {
    if (found.id != found.spec->id) {
      std::cout << found.id << " is reported by the check below.\n\n";
    }
    std::cout << render_explain(*found.spec);
    return kExitOk;
  }
  if (!found.candidates.empty()) {
    std::cerr << "gpudoctor: explain: '" << opt.explain_id << "' could be any of: "
              << join(found.candidates, ", ") << "\n";
  } else {
    std::cerr << "gpudoctor: explain: no check '" << opt.explain_id << "'"
              << (found.suggestion ? " (did you mean '" + *found.suggestion + "'?)" : "")
              << "; gpudoctor explain lists every id\n";
  }
  return kExitUsage;
}

}  // namespace gpudoctor
