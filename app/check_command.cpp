// `gpudoctor check`: every check over this machine or a recorded one; `explain`: what a check
// looks at.
#include <unistd.h>

#include "checks/check_ids.hpp"
#include "checks/checks.hpp"
#include "commands.hpp"
#include "file_io.hpp"
#include "fleet/oneline.hpp"
#include "fleet_check.hpp"
#include "terminal.hpp"
#include "machine_source.hpp"
#include "paste_command.hpp"
#include "render/check_text.hpp"
#include "render/terminal_text.hpp"
#include "text.hpp"

namespace gpudoctor {

int run_check(const Options& opt, const Environment& env) {
  const CheckClock clock = CheckClock::now();
  auto loaded = load_machine(opt, env);
  if (auto* why = std::get_if<std::string>(&loaded)) {
    return check_could_not_run(opt, env, *why, clock);
  }
  const Machine& m = std::get<Machine>(loaded);
  if (m.pasted) return run_check_on_paste(opt, *opt.from, *m.pasted, env);
  const auto findings = select_findings(
      run_checks(CheckInput{m.snap, m.devices, builtin_compat()}), opt.only, opt.skip);
  const int metrics = write_check_metrics(opt, env, m, findings, clock);
  const int verdict = fleet_exit_code(findings, opt.fail_on);
  // A textfile that cannot be written is an input error, unless the check itself failed.
  const int code = verdict != 0 ? verdict : metrics;
  if (opt.oneline) return emit(oneline_for(m, findings) + "\n", code, false, Style::plain());
  if (opt.json) {
    return emit_json([&](JsonWriter& out) { write_check_json(out, m.snap, m.devices, findings); },
                     code);
  }
  const Style style = stdout_style(opt.color, env);
  return emit(render_check_text(m.snap, m.devices, findings, style), code, true, style);
}

int run_explain(const Options& opt) {
  if (opt.explain_id.empty()) {
    const Style style = stdout_style(opt.color, Environment::from_process());
    return emit(render_explain_list(all_check_ids(), style), kExitOk, true, style);
  }
  const IdLookup found = lookup_check_id(opt.explain_id);
  if (found.spec) {
    std::string text;
    if (found.id != found.spec->id) text = found.id + " is reported by the check below.\n\n";
    return emit(text + render_explain(*found.spec), kExitOk, true, Style::plain());
  }
  const std::string id = terminal_text(opt.explain_id, Style::plain(), true);
  if (!found.candidates.empty()) {
    print_error("explain: '" + id + "' could be any of: " + join(found.candidates, ", "));
  } else {
    print_error("explain: no check '" + id + "'" +
                (found.suggestion ? " (did you mean '" + *found.suggestion + "'?)" : "") +
                "; gpudoctor explain lists every id");
  }
  return kExitUsage;
}

}  // namespace gpudoctor
