// `gpudoctor summary` as text and as JSON.
#include <sstream>

#include "fleet/hostlist.hpp"
#include "fleet/summary.hpp"
#include "render/terminal_text.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// Hostlists longer than this are cut in text (JSON has them whole).
constexpr std::size_t kHostlistWidth = 160;
/// Variants of one finding shown in text.
constexpr std::size_t kVariantsShown = 3;
/// Values of one component shown in text.
constexpr std::size_t kValuesShown = 6;
/// Nodes named per outlier kind in text.
constexpr std::size_t kOutliersShown = 20;

/// Text from a report on one line, safe for a terminal: every control character (newlines
/// included), C1 and bidirectional control, and byte that is not UTF-8 shown as an escape, by
/// the one sanitiser of single-line fields.
std::string safe(const std::string& s) { return single_line(s); }

/// The hostlist, cut after a whole entry when it is long.
std::string short_hostlist(const Nodes& nodes) {
  std::string h = safe(nodes.hostlist);
  if (h.size() <= kHostlistWidth) return h;
  std::size_t cut = kHostlistWidth;
  int depth = 0;
  std::size_t last_top_comma = std::string::npos;
  for (std::size_t i = 0; i < kHostlistWidth; ++i) {
    if (h[i] == '[') ++depth;
    if (h[i] == ']') --depth;
    if (h[i] == ',' && depth == 0) last_top_comma = i;
  }
  if (last_top_comma != std::string::npos) cut = last_top_comma;
  return h.substr(0, cut) + ",\u2026";
}

std::string count(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

const char* level_word(Severity s) {
  switch (s) {
    case Severity::fail:
      return "FAIL";
    case Severity::warn:
      return "WARN";
    case Severity::info:
      return "note";
    case Severity::ok:
      return "ok";
  }
  return "";
}

void findings_text(const Summary& s, std::ostringstream& out) {
  if (s.findings.empty()) return;
  out << "\nFindings (most nodes first)\n";
  // An API with no driver at all is what nodes could also have, not a finding beside a GPU's
  // failure: one line after the findings, as check's "Also possible here, not set up".
  std::vector<std::string> not_set_up;
  for (const auto& g : s.findings) {
    if (api_not_set_up(g.id, to_string(g.severity))) {
      const auto dot = g.id.find('.');
      not_set_up.push_back(safe(g.id.substr(0, dot)) + " on " +
                           count(g.nodes.size(), "node", "nodes"));
      continue;
    }
    out << "  " << level_word(g.severity) << " " << safe(g.id) << " on "
        << count(g.nodes.size(), "node", "nodes") << ": " << short_hostlist(g.nodes) << "\n";
    for (std::size_t i = 0; i < g.variants.size() && i < kVariantsShown; ++i) {
      const auto& v = g.variants[i];
      out << "      "
          << (g.variants.size() > 1 ? count(v.nodes.size(), "node", "nodes") + ": " : "")
          << safe(v.title) << "\n";
      if (!v.evidence.empty()) {
        std::vector<std::string> ev;
        for (const auto& e : v.evidence) ev.push_back(safe(e));
        out << "        " << join(ev, "; ") << "\n";
      }
      if (g.variants.size() > 1) out << "        on " << short_hostlist(v.nodes) << "\n";
    }
    if (g.variants.size() > kVariantsShown) {
      out << "      and "
          << count(g.variants.size() - kVariantsShown, "other variant", "other variants")
          << " (--json lists them)\n";
    }
  }
  if (!not_set_up.empty()) {
    out << "  also possible, not set up: " << join(not_set_up, ", ") << "\n";
  }
}

/// "550.127.05 on 9998 nodes; 550.54.15 on 2 (n[3,7])"
std::string values_text(const std::vector<ValueNodes>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size() && i < kValuesShown; ++i) {
    const auto& v = values[i];
    out += (i ? "; " : "") + safe(v.value) + " on " + std::to_string(v.nodes.size());
    if (i == 0) {
      out += v.nodes.size() == 1 ? " node" : " nodes";
      if (values.size() == 1) continue;
    }
    if (i > 0) out += " (" + short_hostlist(v.nodes) + ")";
  }
  if (values.size() > kValuesShown)
    out += "; " + count(values.size() - kValuesShown, "other", "others");
  return out;
}

void inventory_text(const Summary& s, std::ostringstream& out) {
  if (!s.gpus.empty() || !s.without_gpu.empty()) {
    out << "\nGPUs\n";
    for (const auto& g : s.gpus) {
      out << "  " << safe(g.model) << ":";
      for (std::size_t i = 0; i < g.counts.size(); ++i) {
        const auto& [n, nodes] = g.counts[i];
        out << (i ? ";" : "") << " \u00d7" << n << " on " << count(nodes.size(), "node", "nodes");
        if (i > 0) out << " (" << short_hostlist(nodes) << ")";
      }
      out << "\n";
    }
    if (!s.without_gpu.empty()) {
      out << "  no GPU: " << count(s.without_gpu.size(), "node", "nodes") << " ("
          << short_hostlist(s.without_gpu) << ")\n";
    }
  }
  if (s.versions.empty()) return;
  out << "\nVersions\n";
  std::size_t width = 0;
  for (const auto& t : s.versions) width = std::max(width, t.area.size() + 1 + t.component.size());
  for (const auto& t : s.versions) {
    std::string name = t.area + " " + t.component;
    name.resize(width, ' ');
    out << "  " << safe(name) << "  " << values_text(t.values) << "\n";
  }
  if (!s.module_vs_libcuda.empty()) {
    out << "  NVIDIA kernel module / libcuda: " << values_text(s.module_vs_libcuda) << "\n";
  }
}

void outliers_text(const Summary& s, std::ostringstream& out) {
  if (s.outliers.empty()) return;
  out << "\nOutliers\n";
  std::map<std::string, std::size_t> shown;
  for (const auto& o : s.outliers) {
    if (shown[o.kind]++ >= kOutliersShown) continue;
    const char* label = o.kind == "fewer_gpus"     ? "fewer GPUs "
                        : o.kind == "slow_smoke"   ? "slow smoke "
                        : o.kind == "rare_version" ? "rare       "
                        : o.kind == "stale"        ? "stale      "
                        : o.kind == "future"       ? "future     "
                                                   : "no time    ";
    out << "  " << label << " " << safe(o.what) << " " << safe(o.detail) << ": "
        << short_hostlist(o.nodes) << "\n";
  }
  for (const auto& [kind, n] : shown) {
    if (n > kOutliersShown)
      out << "  (" << n - kOutliersShown << " more " << kind << ", --json lists them)\n";
  }
}

/// A set of nodes for machines: how many, the hostlist, and every name.
class NodesJson {
 public:
  explicit NodesJson(const std::vector<std::string>& names) : names_(names) {}
  Json operator()(const Nodes& n) const {
    Json list = Json::array();
    for (auto i : n.index) list.push_back(names_[i]);
    return {{"count", n.size()}, {"hostlist", n.hostlist}, {"names", std::move(list)}};
  }
  Json values(const std::vector<ValueNodes>& values) const {
    Json a = Json::array();
    for (const auto& v : values) a.push_back({{"value", v.value}, {"nodes", (*this)(v.nodes)}});
    return a;
  }

 private:
  const std::vector<std::string>& names_;
};

}  // namespace

std::string render_summary_text(const Summary& s) {
  std::ostringstream out;
  out << "gpudoctor summary: " << count(s.names.size(), "node", "nodes") << " from "
      << count(s.reports, "report", "reports");
  std::vector<std::string> notes;
  if (!s.unreadable.empty()) {
    notes.push_back(std::to_string(s.unreadable.size() + s.unreadable_not_listed) + " unreadable");
  }
  if (!s.superseded.empty()) {
    notes.push_back(std::to_string(s.superseded.size()) +
                    " superseded by a newer report of the same node");
  }
  if (!notes.empty()) out << " (" << join(notes, ", ") << ")";
  out << "\n";
  if (s.oldest && s.newest)
    out << "  reports written " << safe(*s.oldest) << " to " << safe(*s.newest) << "\n";
  out << "  failing: " << s.failing.size();
  if (!s.failing.empty()) out << " (" << short_hostlist(s.failing) << ")";
  out << "; warning: " << s.warning.size();
  if (!s.warning.empty()) out << " (" << short_hostlist(s.warning) << ")";
  out << "; fine: " << s.names.size() - s.failing.size() - s.warning.size() << "\n";
  findings_text(s, out);
  inventory_text(s, out);
  outliers_text(s, out);
  if (!s.unreadable.empty()) {
    out << "\nUnreadable (" << s.unreadable.size() << ")\n";
    for (const auto& u : s.unreadable) out << "  " << safe(u.source) << ": " << safe(u.why) << "\n";
    if (s.unreadable_not_listed > 0) {
      out << "  (" << s.unreadable_not_listed << " more, not listed)\n";
    }
  }
  return out.str();
}

Json summary_json(const Summary& s) {
  const NodesJson nodes_json(s.names);
  Json findings = Json::array();
  for (const auto& g : s.findings) {
    Json variants = Json::array();
    for (const auto& v : g.variants) {
      variants.push_back(
          {{"title", v.title}, {"evidence", v.evidence}, {"nodes", nodes_json(v.nodes)}});
    }
    findings.push_back({{"id", g.id},
                        {"severity", g.severity},
                        {"nodes", nodes_json(g.nodes)},
                        {"variants", variants}});
  }
  Json gpus = Json::array();
  for (const auto& g : s.gpus) {
    Json counts = Json::array();
    for (const auto& [n, nodes] : g.counts)
      counts.push_back({{"count", n}, {"nodes", nodes_json(nodes)}});
    gpus.push_back({{"model", g.model}, {"usual", g.usual}, {"counts", counts}});
  }
  Json versions = Json::array();
  for (const auto& t : s.versions) {
    versions.push_back(
        {{"area", t.area}, {"component", t.component}, {"values", nodes_json.values(t.values)}});
  }
  Json outliers = Json::array();
  for (const auto& o : s.outliers) {
    outliers.push_back({{"kind", o.kind},
                        {"what", o.what},
                        {"detail", o.detail},
                        {"nodes", nodes_json(o.nodes)},
                        {"value", o.value},
                        {"reference", o.reference}});
  }
  Json unreadable = Json::array();
  for (const auto& u : s.unreadable) unreadable.push_back({{"source", u.source}, {"why", u.why}});
  Json j = {{"kind", "gpudoctor-summary"},
            {"reports", s.reports},
            {"nodes", s.names},
            {"failing", nodes_json(s.failing)},
            {"warning", nodes_json(s.warning)},
            {"superseded", s.superseded},
            {"oldest", s.oldest},
            {"newest", s.newest},
            {"findings", findings},
            {"gpus", gpus},
            {"without_gpu", nodes_json(s.without_gpu)},
            {"versions", versions},
            {"module_vs_libcuda", nodes_json.values(s.module_vs_libcuda)},
            {"outliers", outliers},
            {"unreadable", unreadable}};
  if (s.unreadable_not_listed > 0) j["unreadable_not_listed"] = s.unreadable_not_listed;
  return j;
}

}  // namespace gpudoctor
