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
#include "render/check_text.hpp"
#include "render/terminal_text.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// Pasted text in which no reader recognised anything: not an error (the person gave what they
/// had), said in one line with what would decide, and no verdict on the machine.
int nothing_recognised(const Options& opt, const Environment& env, const Diagnosis& d) {
  std::string text;
  for (const auto& l : d.paste->reading.lines) text.append(l.text).append("\n");
  const PasteAsk ask = first_ask(text);
  const std::string line = "Nothing in " + *opt.from +
                           " was recognised as GPU facts or a known message; please add the "
                           "output of " + ask.ask + " (" + ask.why + ")";
  if (opt.oneline) return emit(render_oneline_unknown("nothing recognised in the text") + "\n",
                               kExitOk, false, Style::plain());
  if (opt.json) {
    Json j = paste_json(d.paste->reading, {ask});
    j["recognised"] = false;
    return emit(dump_json(Json{{"schema_version", kSchemaVersion},
                               {"findings", Json::array()},
                               {"paste", j}},
                          2) +
                    "\n",
                kExitOk, false, Style::plain());
  }
  const Style style = stdout_style(opt.color, env);
  return emit(line + ".\ngpudoctor reads: " + paste_formats_text() + ".\n", kExitOk, true,
              style);
}

/// A path as a shell reads it back: as it is when it is plain, else in single quotes.
std::string check_shell_word(const std::string& path) {
  const bool plain = !path.empty() && path.find_first_not_of(
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-=:,@") == std::string::npos;
  if (plain) return path;
  std::string quoted = "'";
  for (const char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// How much to print, and where more is: a recorded machine's (--from, --sysroot), not this
/// one's `gpudoctor query`.
CheckTextOptions check_text_options(const Options& opt) {
  CheckTextOptions o;
  o.detail = opt.quiet     ? CheckDetail::problems
             : opt.verbose ? CheckDetail::full
                           : CheckDetail::summary;
  if (opt.from) {
    // This machine's query would describe another machine: the recorded one's whole JSON.
    o.more = "gpudoctor check --json --from " + check_shell_word(*opt.from);
    o.verbose = "gpudoctor check -v --from " + check_shell_word(*opt.from);
  } else if (opt.sysroot) {
    o.more = "gpudoctor query --sysroot " + check_shell_word(*opt.sysroot);
    o.verbose = "gpudoctor check -v --sysroot " + check_shell_word(*opt.sysroot);
  }
  return o;
}

}  // namespace

int run_check(const Options& opt, const Environment& env) {
  const CheckClock clock = CheckClock::now();
  auto loaded = diagnose_machine(opt, env);
  if (auto* why = std::get_if<std::string>(&loaded)) {
    return check_could_not_run(opt, env, *why, clock);
  }
  const Diagnosis& d = std::get<Diagnosis>(loaded);
  if (d.paste && d.paste->reading.parts.empty()) {
    return nothing_recognised(opt, env, d);
  }
  const auto findings = select_findings(d.findings, opt.only, opt.skip);
  const auto selected = selected_areas(d.findings, opt.only);
  const std::vector<std::string>* areas = opt.only.empty() ? nullptr : &selected;
  const int metrics = write_check_metrics(opt, env, d, findings, clock);
  const int verdict = fleet_exit_code(findings, opt.fail_on);
  // A textfile that cannot be written is an input error, unless the check itself failed.
  const int code = verdict != 0 ? verdict : metrics;
  if (opt.oneline) return emit(oneline_for(d, findings) + "\n", code, false, Style::plain());
  if (opt.json) {
    const Json paste = d.paste ? paste_json(d.paste->reading, d.paste->asks) : Json();
    return emit_json(
        [&](JsonWriter& out) {
          write_check_json(out, d.snap, d.devices, findings, d.paste ? &paste : nullptr, areas);
        },
        code);
  }
  const Style style = stdout_style(opt.color, env);
  std::string text = render_check_text(d.snap, d.devices, findings, style, areas,
                                       check_text_options(opt));
  if (d.paste) text += render_paste_text(d.paste->reading, d.paste->asks);
  return emit(text, code, true, style);
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
