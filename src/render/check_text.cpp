#include "render/check_text.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "checks/area_status.hpp"
#include "checks/readiness.hpp"
#include "compat/compat_data.hpp"
#include "json_model_writer.hpp"
#include "render/query_text.hpp"
#include "render/terminal_text.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// The summaries' own Unicode (counts "×8", ranges "1.8–2.1") in ASCII, for a locale that is
/// not UTF-8.
std::string ascii_text(std::string text) {
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"×", "x"}, {"–", "-"}}) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
      text.replace(at, from.size(), to);
    }
  }
  return text;
}

std::string mark(Severity s, const Style& st) {
  const bool u = st.unicode();  // a locale that is not UTF-8 shows ASCII
  switch (s) {
    case Severity::ok:
      return st.green(u ? "✓" : "+");
    case Severity::info:
      return st.cyan(u ? "•" : "-");
    case Severity::warn:
      return st.yellow("!");
    case Severity::fail:
      return st.red(u ? "✗" : "x");
  }
  return "?";
}

/// An area's mark: its findings' worst, or – (nothing there) and ? (not examined).
std::string mark(AreaState s, const Style& st) {
  switch (s) {
    case AreaState::ok: return mark(Severity::ok, st);
    case AreaState::info: return mark(Severity::info, st);
    case AreaState::warn: return mark(Severity::warn, st);
    case AreaState::fail: return mark(Severity::fail, st);
    case AreaState::absent: return st.dim(st.unicode() ? "–" : "-");
    case AreaState::not_examined: return st.dim("?");
  }
  return "?";
}

std::string count_text(std::size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// A finding: its title (and id) after its mark, evidence, fix and source under the title;
/// long lines wrap under their own start.
/// The areas `only` names, all when it is null.
std::vector<AreaStatus> shown(std::vector<AreaStatus> all, const std::vector<std::string>* only) {
  if (!only) return all;
  all.erase(std::remove_if(all.begin(), all.end(),
                           [&](const AreaStatus& a) {
                             return std::find(only->begin(), only->end(), a.area) == only->end();
                           }),
            all.end());
  return all;
}

/// The readiness pairs as `check` shows them under the python line: one line a pair, pairs that
/// differ only in the GPU's address counted ("×8").
/// The pairs are folded as readiness hands them over: only each line's first pair is kept, so
/// 16,000 GPUs of one model cost one pair, not 16,000 (issue 29 §3).
void render_readiness(std::ostringstream& os, const CheckInput& in,
                      const std::vector<Finding>& findings, const Style& st, CheckDetail detail) {
  struct Shown {
    ReadinessPair pair;
    std::string device;
    std::size_t count;
  };
  std::vector<Shown> lines;
  std::map<std::string, std::size_t> line_of;  // same framework, environment, GPU name, verdict
  std::string key;
  for_each_readiness_pair(in, findings, [&](ReadinessPair&& p) {
    std::string_view device = p.device;
    if (auto at = device.rfind(" ("); at != std::string_view::npos) device = device.substr(0, at);
    key.clear();
    key.append(p.framework).append(1, '\n').append(p.environment).append(1, '\n');
    key.append(device).append(1, '\n').append(p.verdict);
    auto at = line_of.find(key);
    if (at == line_of.end()) {
      line_of.emplace(key, lines.size());
      std::string shown_device(device);
      lines.push_back({std::move(p), std::move(shown_device), 1});
    } else {
      ++lines[at->second].count;
    }
  });
  for (const auto& l : lines) {
    const ReadinessPair& p = l.pair;
    Severity sev = Severity::ok;
    if (p.first_failure) {
      sev = Severity::fail;
    } else if (p.verdict != "ready") {
      sev = Severity::warn;
    }
    std::string mark_text = sev == Severity::warn ? st.dim("?") : mark(sev, st);
    std::string device = l.device + (l.count > 1 ? (st.unicode() ? " ×" : " x") + std::to_string(l.count) : "");
    std::string text = p.framework + " on " + device + ": " + p.verdict;
    if (p.first_failure) {
      // Decided by a finding: that finding follows with its evidence and fix; else the fact.
      for (const auto& v : p.stages) {
        if (v.stage != *p.first_failure) continue;
        if (!v.findings.empty()) {
          // The finding itself is shown below with its cause and fix; its id is for -v.
          if (detail == CheckDetail::full) text += " (" + join(v.findings, ", ") + ")";
        } else if (!v.fact.empty()) {
          text += ": " + v.fact;
        }
      }
    }
    os << "    " << mark_text << " " << st.fill(single_line(text), 6, 8) << "\n";
  }
}


bool is_problem(Severity s) { return s == Severity::warn || s == Severity::fail; }

/// A finding. full: its title (and id) after its mark, evidence, fix and source under the
/// title. summary and problems: the title, and under a problem its fix. Long lines wrap under
/// their own start.
void render_finding(std::ostringstream& os, const Finding& f, const Style& st, CheckDetail detail) {
  std::string head = st.fill(single_line(f.title), 6, 6);
  if (detail != CheckDetail::full) {
    os << "    " << mark(f.severity, st) << " " << head << "\n";
    if (f.fix && is_problem(f.severity)) {
      os << "      " << st.bold("fix: ") << st.fill(single_line(*f.fix), 11, 11) << "\n";
    }
    return;
  }
  // The id after the title, or under it when the title's last line has no room.
  const std::size_t last = display_width(head.substr(head.rfind('\n') + 1)) +
                           (head.find('\n') == std::string::npos ? 6 : 0);
  const bool fits = !st.width() || last + 2 + f.id.size() <= *st.width();
  head += (fits ? "  " : "\n      ") + st.dim(f.id);
  os << "    " << mark(f.severity, st) << " " << head << "\n";
  for (const auto& e : f.evidence) {
    if (!e.empty()) os << "        " << st.dim(st.fill(single_line(e), 8, 10)) << "\n";
  }
  for (const auto& q : f.quotes) {
    os << "        " << st.dim("line " + std::to_string(q.line) + ": ") << st.fill(single_line(q.text), 8, 8) << "\n";
  }
  if (f.fix) os << "        " << st.bold("fix: ") << st.fill(single_line(*f.fix), 13, 13) << "\n";
  // A URL is one word: left whole here, cut at the terminal's edge only if it must be.
  if (f.source) os << "        " << st.dim("source: " + single_line(*f.source)) << "\n";
}

/// The counts, then where more is: on the same line when both fit in 80 columns, else the
/// command on a line of its own (a recorded machine's path), whole, so that it can be copied.
std::string with_pointer(const std::string& counts, const std::string& label,
                         const std::string& command) {
  if (counts.size() + 2 + label.size() + 1 + command.size() <= 80) {
    return counts + "  " + label + " " + command;
  }
  return counts + " " + label + "\n  " + command;
}

/// The last line: one sentence when nothing is wrong, else the counts and where more is.
std::string verdict_line(const std::vector<AreaStatus>& areas, const std::vector<Finding>& findings,
                         const CheckTextOptions& opt) {
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const auto& f : findings) ++counts[static_cast<int>(f.severity)];
  const std::size_t fails = counts[static_cast<int>(Severity::fail)];
  const std::size_t warns = counts[static_cast<int>(Severity::warn)];
  const std::size_t notes = counts[static_cast<int>(Severity::info)];
  if (fails == 0 && warns == 0) {
    std::size_t unexamined = 0;
    for (const auto& a : areas) unexamined += a.state == AreaState::not_examined ? 1 : 0;
    if (unexamined == 0) return "No problems found.\n";
    // What could not be examined is not said to be fine.
    return "No problems found in what could be examined; " +
           (unexamined == 1 ? std::string("1 area was") : std::to_string(unexamined) + " areas were") +
           " not examined (?).\n";
  }
  if (opt.detail == CheckDetail::full) {
    std::string line = count_text(fails, "failure") + ", " + count_text(warns, "warning") + ", " +
                       count_text(notes, "note") + ".";
    if (!opt.more.empty()) line = with_pointer(line, "Every device and detail:", opt.more);
    return line + "\n";
  }
  std::string line = fails && warns ? count_text(fails, "failure") + " and " + count_text(warns, "warning")
                     : fails        ? count_text(fails, "failure")
                                    : count_text(warns, "warning");
  line += ".";
  if (!opt.verbose.empty()) line = with_pointer(line, "Evidence and sources:", opt.verbose);
  return line + "\n";
}

}  // namespace

std::string render_check_text(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                              const std::vector<Finding>& findings, const Style& st,
                              const std::vector<std::string>* areas,
                              const CheckTextOptions& opt) {
  std::ostringstream os;
  const bool only_problems = opt.detail == CheckDetail::problems;
  const auto shown_areas = shown(area_statuses(snap, devices, findings), areas);
  // The area column: 8, or wider for a longer area name ("level_zero"), two spaces after it.
  std::size_t column = 8;
  for (const AreaStatus& a : shown_areas) column = std::max(column, a.area.size() + 2);
  for (const AreaStatus& a : shown_areas) {
    if (only_problems && a.state != AreaState::warn && a.state != AreaState::fail) continue;
    std::string label(a.area);
    label.resize(column, ' ');
    const std::string summary = st.fill(
        single_line(st.unicode() ? a.summary : ascii_text(a.summary)), column + 2, column + 2);
    os << mark(a.state, st) << " " << st.bold(label);
    if (a.state == AreaState::absent || a.state == AreaState::not_examined) {
      os << st.dim(summary) << "\n";
    } else {
      os << summary << "\n";
    }
    if (a.area == "python" && !only_problems) {
      render_readiness(os, CheckInput{snap, devices, builtin_compat()}, findings, st,
                       opt.detail);
    }
    for (const auto& f : findings) {
      if (f.area != a.area || api_not_set_up(f)) continue;
      if (only_problems && !is_problem(f.severity)) continue;
      render_finding(os, f, st, opt.detail);
    }
  }
  if (only_problems) return os.str();
  // An API with no driver at all is not advice about a GPU's failure: its install line is
  // shown once, after the areas, as something the machine could also have.
  std::vector<const Finding*> also;
  for (const AreaStatus& a : shown_areas) {
    for (const auto& f : findings) {
      if (f.area == a.area && api_not_set_up(f)) also.push_back(&f);
    }
  }
  if (!also.empty()) {
    os << "\n" << st.dim("Also possible here, not set up:") << "\n";
    for (const Finding* f : also) {
      std::string label(f->area);
      label.resize(column, ' ');
      os << "  " << mark(f->severity, st) << " " << label
         << st.fill(single_line(f->fix.value_or(f->title)), column + 4, column + 4);
      if (opt.detail == CheckDetail::full) os << "  " << st.dim(f->id);
      os << "\n";
    }
  }
  os << "\n" << verdict_line(shown_areas, findings, opt);
  return os.str();
}

Json check_json(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                const std::vector<Finding>& findings) {
  return Json{{"schema_version", kSchemaVersion},
              {"areas", area_statuses(snap, devices, findings)},
              {"findings", findings},
              {"readiness", readiness(CheckInput{snap, devices, builtin_compat()}, findings)},
              {"snapshot", query_json(snap, devices)}};
}

void write_check_json(JsonWriter& out, const Snapshot& snap,
                      const std::vector<MergedDevice>& devices, const std::vector<Finding>& findings,
                      const Json* paste, const std::vector<std::string>* only_areas) {
  const auto areas = shown(area_statuses(snap, devices, findings), only_areas);
  const auto pairs = readiness(CheckInput{snap, devices, builtin_compat()}, findings);
  const auto snapshot = [&](JsonWriter& w) { write_query_json(w, snap, devices); };
  JsonMembers members;
  members.add("schema_version", kSchemaVersion);
  members.add("areas", areas);
  members.add("findings", findings);
  members.add("readiness", pairs);
  members.add_written("snapshot", snapshot);
  const auto pasted = [&](JsonWriter& w) { w.json(*paste); };
  if (paste) members.add_written("paste", pasted);
  members.write(out);
}

std::string render_explain(const CheckSpec& spec) {
  std::ostringstream os;
  os << spec.id << "  (" << spec.area << ")\n\n"
     << "Looks at: " << spec.looks_at << "\n\n"
     << "Why: " << spec.why << "\n";
  if (!spec.source.empty()) os << "\nSource: " << spec.source << "\n";
  return os.str();
}

std::string render_explain_list(const std::vector<CheckId>& ids, const Style& style) {
  std::size_t width = 0;
  for (const auto& c : ids) width = std::max(width, c.id.size());
  std::ostringstream os;
  for (const auto& c : ids) {
    os << c.id << std::string(width + 2 - c.id.size(), ' ')
       << style.fill(check_title(*c.spec), width + 2, width + 2) << "\n";
  }
  os << "\ngpudoctor explain ID says what a check looks at, why, and its source.\n";
  return os.str();
}

int check_exit_code(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.severity == Severity::fail; })
             ? 1
             : 0;
}

}  // namespace gpudoctor
