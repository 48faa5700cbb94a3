// `gpudoctor check`: every check over this machine or a recorded one; `explain`: what a check
// looks at.
#include <unistd.h>

#include "checks/checks.hpp"
#include "commands.hpp"
#include "fleet/oneline.hpp"
#include "fleet_check.hpp"
#include "file_io.hpp"
#include "machine_source.hpp"
#include "paste_command.hpp"
#include "render/check_text.hpp"
#include "render/terminal_text.hpp"

namespace gpudoctor {

int run_check(const Options& opt, const Environment& env) {
  const CheckClock clock = CheckClock::now();
  auto loaded = load_machine(opt, env);
  if (auto* why = std::get_if<std::string>(&loaded)) {
    return check_could_not_run(opt, env, *why, clock);
  }
  const Machine& m = std::get<Machine>(loaded);
  if (m.pasted) return run_check_on_paste(opt, *opt.from, *m.pasted, env);
  const auto findings = run_checks(CheckInput{m.snap, m.devices, builtin_compat()});
  const int metrics = write_check_metrics(opt, env, m, findings, clock);
  const int verdict = fleet_exit_code(findings, opt.fail_on);
  // A textfile that cannot be written is an input error, unless the check itself failed.
  const int code = verdict != 0 ? verdict : metrics;
  if (opt.oneline) return emit(oneline_for(m, findings) + "\n", code, false, Style::plain());
  if (opt.json) {
    return emit(dump_json(check_json(m.snap, m.devices, findings), 2) + "\n", code, false,
                Style::plain());
  }
  const Style style = Style::for_stream(opt.color, ::isatty(STDOUT_FILENO) != 0, env);
  return emit(render_check_text(m.snap, m.devices, findings, style), code, true, style);
}

int run_explain(const Options& opt) {
  if (const CheckSpec* spec = find_check(opt.explain_id)) {
    return emit(render_explain(*spec), 0, true, Style::plain());
  }
  std::string known;
  for (const auto& c : all_checks()) known += "\n  " + std::string(c.id);
  // A list, one id a line: the one error that is not one line.
  write_stderr("gpudoctor: no check '" + terminal_text(opt.explain_id, Style::plain(), true) +
               "'; known checks:" + known + "\n");
  return 2;
}

}  // namespace gpudoctor
