#include "render/check_text.hpp"

#include <algorithm>
#include <sstream>

#include "checks/area_status.hpp"
#include "render/query_text.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

std::string mark(Severity s, const Style& st) {
  switch (s) {
    case Severity::ok:
      return st.green("✓");
    case Severity::info:
      return st.cyan("•");
    case Severity::warn:
      return st.yellow("!");
    case Severity::fail:
      return st.red("✗");
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
    case AreaState::absent: return st.dim("–");
    case AreaState::not_examined: return st.dim("?");
  }
  return "?";
}

std::string plural(std::size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

void render_finding(std::ostringstream& os, const Finding& f, const Style& st) {
  os << "    " << mark(f.severity, st) << " " << f.title << "  " << st.dim(f.id) << "\n";
  for (const auto& e : f.evidence) {
    if (!e.empty()) os << "        " << st.dim(e) << "\n";
  }
  for (const auto& q : f.quotes) {
    os << "        " << st.dim("line " + std::to_string(q.line) + ": ") << q.text << "\n";
  }
  if (f.fix) os << "        " << st.bold("fix: ") << *f.fix << "\n";
  if (f.source) os << "        " << st.dim("source: " + *f.source) << "\n";
}

}  // namespace

std::string render_check_text(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                              const std::vector<Finding>& findings, const Style& st) {
  std::ostringstream os;
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const AreaStatus& a : area_statuses(snap, devices, findings)) {
    std::string label(a.area);
    label.resize(8, ' ');
    os << mark(a.state, st) << " " << st.bold(label);
    if (a.state == AreaState::absent || a.state == AreaState::not_examined) {
      os << st.dim(a.summary) << "\n";
    } else {
      os << a.summary << "\n";
    }
    for (const auto& f : findings) {
      if (f.area == a.area) render_finding(os, f, st);
    }
  }
  for (const auto& f : findings) ++counts[static_cast<int>(f.severity)];
  os << "\n"
     << plural(counts[3], "failure") << ", " << plural(counts[2], "warning") << ", "
     << plural(counts[1], "note") << ".  Every device and detail: gpudoctor query\n";
  return os.str();
}

Json check_json(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                const std::vector<Finding>& findings) {
  return Json{{"schema_version", kSchemaVersion},
              {"areas", area_statuses(snap, devices, findings)},
              {"findings", findings},
              {"snapshot", query_json(snap, devices)}};
}

std::string render_explain(const CheckSpec& spec) {
  std::ostringstream os;
  os << spec.id << "  (" << spec.area << ")\n\n"
     << "Looks at: " << spec.looks_at << "\n\n"
     << "Why: " << spec.why << "\n";
  if (!spec.source.empty()) os << "\nSource: " << spec.source << "\n";
  return os.str();
}

int check_exit_code(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.severity == Severity::fail; })
             ? 1
             : 0;
}

}  // namespace gpudoctor
