#include "fleet/summary.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "fleet/hostlist.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr std::size_t kMinNodesForMedian = 3;

/// The order areas are listed in: what breaks GPU work most often first.
int area_rank(const std::string& area) {
  static const char* const kOrder[] = {"driver", "host", "toolkit", "cudnn", "framework", "python"};
  for (int i = 0; i < 6; ++i) {
    if (area == kOrder[i]) return i;
  }
  return 6;
}

std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

/// Nodes are visited in index order, so a set stays sorted by appending; a node that has the
/// same thing twice (one finding id on two devices) is added once.
void add(Nodes& n, std::uint32_t node) {
  if (n.index.empty() || n.index.back() != node) n.index.push_back(node);
}

/// Most nodes first; equal sizes keep their order.
template <typename T, typename Key>
void by_nodes(std::vector<T>& v, Key key) {
  std::stable_sort(v.begin(), v.end(),
                   [&](const T& a, const T& b) { return key(a).size() > key(b).size(); });
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string flops_text(double f) {
  char buf[32];
  if (f >= 1e12) {
    std::snprintf(buf, sizeof buf, "%.1f TFLOP/s", f / 1e12);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f GFLOP/s", f / 1e9);
  }
  return buf;
}

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, share < 0.001 ? "%.2f%%" : "%.1f%%", share * 100);
  return buf;
}

/// The reports to use: one per node, the newest (by generated_at; a report without a time
/// loses to one with a time; otherwise the later in the list), in natural order of node names.
std::vector<NodeReport> newest_per_node(std::vector<NodeReport> reports, Summary& s,
                                        const SummaryOptions& opt) {
  std::unordered_map<std::string, std::size_t> best;
  std::vector<bool> keep(reports.size(), true);
  for (std::size_t i = 0; i < reports.size(); ++i) {
    auto [it, fresh] = best.emplace(reports[i].brief.node, i);
    if (fresh) continue;
    const bool newer = newer_report(reports[i].brief, reports[it->second].brief, opt);
    const std::size_t loser = newer ? it->second : i;
    if (newer) it->second = i;
    keep[loser] = false;
    s.superseded.push_back(reports[loser].source);
  }
  std::vector<NodeReport> out;
  out.reserve(best.size());
  for (std::size_t i = 0; i < reports.size(); ++i) {
    if (keep[i]) out.push_back(std::move(reports[i]));
  }
  std::sort(out.begin(), out.end(), [](const NodeReport& a, const NodeReport& b) {
    return natural_less(a.brief.node, b.brief.node);
  });
  return out;
}

struct Collect {
  std::map<std::pair<int, std::string>, FindingGroup> groups;  // (−severity, id)
  std::map<std::pair<int, std::string>, std::map<std::string, FindingVariant>> variants;
  std::map<std::string, std::map<int, Nodes>> gpus;
  std::map<std::pair<std::string, std::string>, std::map<std::string, Nodes>> versions;
  std::map<std::string, Nodes> pairs;
  /// (api, device) → (node, its slowest passing run)
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<std::uint32_t, double>>>
      smoke;
  std::vector<std::pair<std::uint32_t, std::int64_t>> times;
  Nodes no_time;
  Nodes future;
};

void collect_node(const Brief& b, std::uint32_t node, Collect& c, Summary& s,
                  const SummaryOptions& opt) {
  if (b.failures > 0) {
    add(s.failing, node);
  } else if (b.warnings > 0) {
    add(s.warning, node);
  }
  for (const auto& f : b.findings) {
    const auto key = std::make_pair(-static_cast<int>(f.severity), f.id);
    FindingGroup& g = c.groups[key];
    g.id = f.id;
    g.severity = f.severity;
    add(g.nodes, node);
    std::string vkey = f.title;
    for (const auto& e : f.evidence) vkey += '\x1f' + e;
    FindingVariant& v = c.variants[key][vkey];
    if (v.nodes.empty()) {
      v.title = f.title;
      v.evidence = f.evidence;
    }
    add(v.nodes, node);
  }
  if (b.gpus.empty()) add(s.without_gpu, node);
  for (const auto& g : b.gpus) add(c.gpus[g.model][g.count], node);
  for (const auto& [area, components] : b.versions) {
    for (const auto& [component, value] : components) {
      add(c.versions[{area, component}][value], node);
    }
  }
  auto driver = b.versions.find("driver");
  if (driver != b.versions.end()) {
    auto module = driver->second.find(kModuleComponent);
    auto lib = driver->second.find(kLibcudaComponent);
    if (module != driver->second.end() && lib != driver->second.end()) {
      add(c.pairs[module->second + " / " + lib->second], node);
    }
  }
  for (const auto& sm : b.smoke) {
    if (sm.flops.empty()) continue;
    const double slowest = *std::min_element(sm.flops.begin(), sm.flops.end());
    c.smoke[{sm.api, sm.device}].emplace_back(node, slowest);
  }
  if (auto t = report_time(b, opt)) {
    c.times.emplace_back(node, *t);
  } else if (parse_utc(b.generated_at)) {
    add(c.future, node);
  } else {
    add(c.no_time, node);
  }
}

void finish_findings(Collect& c, Summary& s) {
  for (auto& [key, g] : c.groups) {
    for (auto& [vkey, v] : c.variants[key]) g.variants.push_back(std::move(v));
    by_nodes(g.variants, [](const FindingVariant& v) -> const Nodes& { return v.nodes; });
    s.findings.push_back(std::move(g));
  }
  // Worst level first, then most nodes, then by id (the map's order, kept by stable sort).
  std::stable_sort(s.findings.begin(), s.findings.end(),
                   [](const FindingGroup& a, const FindingGroup& b) {
                     if (a.severity != b.severity) return a.severity > b.severity;
                     return a.nodes.size() > b.nodes.size();
                   });
}

void finish_gpus(Collect& c, Summary& s) {
  for (auto& [model, counts] : c.gpus) {
    GpuTally t;
    t.model = model;
    std::size_t most = 0;
    for (auto& [count, nodes] : counts) {
      // The usual count: most nodes have it; on a tie, the larger (a missing board is the
      // failure, not an extra one).
      if (nodes.size() >= most) {
        most = nodes.size();
        t.usual = count;
      }
      t.counts.emplace_back(count, nodes);
    }
    std::stable_sort(t.counts.begin(), t.counts.end(), [](const auto& a, const auto& b) {
      return a.second.size() > b.second.size();
    });
    for (const auto& [count, nodes] : t.counts) {
      if (count >= t.usual) continue;
      s.outliers.push_back(
          {"fewer_gpus", model,
           "\u00d7" + std::to_string(count) + ", usually \u00d7" + std::to_string(t.usual), nodes,
           double(count), double(t.usual)});
    }
    s.gpus.push_back(std::move(t));
  }
}

void finish_versions(Collect& c, Summary& s, const SummaryOptions& opt) {
  for (auto& [key, values] : c.versions) {
    Tally t{key.first, key.second, {}};
    std::size_t with = 0;
    for (auto& [value, nodes] : values) {
      with += nodes.size();
      t.values.push_back({value, std::move(nodes)});
    }
    by_nodes(t.values, [](const ValueNodes& v) -> const Nodes& { return v.nodes; });
    if (t.values.size() >= 2) {
      for (const auto& v : t.values) {
        const double share = double(v.nodes.size()) / double(with);
        if (share >= opt.rare_fraction) continue;
        s.outliers.push_back({"rare_version", key.first + " " + key.second,
                              v.value + " on " + std::to_string(v.nodes.size()) + " of " +
                                  std::to_string(with) + " nodes (" + percent(share) + ")",
                              v.nodes, share, opt.rare_fraction});
      }
    }
    s.versions.push_back(std::move(t));
  }
  std::stable_sort(s.versions.begin(), s.versions.end(), [](const Tally& a, const Tally& b) {
    return area_rank(a.area) < area_rank(b.area);
  });
  for (auto& [pair, nodes] : c.pairs) s.module_vs_libcuda.push_back({pair, std::move(nodes)});
  by_nodes(s.module_vs_libcuda, [](const ValueNodes& v) -> const Nodes& { return v.nodes; });
}

void finish_smoke(Collect& c, Summary& s, const SummaryOptions& opt) {
  for (auto& [key, runs] : c.smoke) {
    if (runs.size() < kMinNodesForMedian) continue;
    std::vector<double> values;
    for (const auto& r : runs) values.push_back(r.second);
    const double mid = median(values);
    std::stable_sort(runs.begin(), runs.end(),
                     [](const auto& a, const auto& b) { return a.second < b.second; });
    for (const auto& [node, slowest] : runs) {
      if (!(slowest < opt.slow_fraction * mid)) break;
      Nodes one;
      add(one, node);
      s.outliers.push_back({"slow_smoke", key.first + " " + key.second,
                            flops_text(slowest) + ", " + percent(slowest / mid) +
                                " of the median " + flops_text(mid),
                            one, slowest, mid});
    }
  }
}

void finish_times(Collect& c, Summary& s, const SummaryOptions& opt) {
  if (!c.times.empty()) {
    const auto by_time = [](const auto& a, const auto& b) { return a.second < b.second; };
    const auto oldest = *std::min_element(c.times.begin(), c.times.end(), by_time);
    const auto newest = *std::max_element(c.times.begin(), c.times.end(), by_time);
    const std::int64_t limit =
        newest.second - static_cast<std::int64_t>(opt.stale_after_hours * 3600);
    Nodes stale;
    for (const auto& [node, t] : c.times) {
      if (t < limit) add(stale, node);
    }
    if (!stale.empty()) {
      const double hours = double(newest.second - oldest.second) / 3600;
      char buf[96];
      std::snprintf(buf, sizeof buf, "more than %g h older than the newest report (up to %.1f h)",
                    opt.stale_after_hours, hours);
      s.outliers.push_back({"stale", "reports", buf, stale, hours, opt.stale_after_hours});
    }
  }
  if (!c.no_time.empty()) {
    s.outliers.push_back(
        {"no_time", "reports", "no readable generated_at", c.no_time, std::nullopt, std::nullopt});
  }
  if (!c.future.empty()) {
    // A clock far ahead, or a forged date: its time is not used for "stale" or "newest".
    s.outliers.push_back({"future", "reports", "dated after now (a clock ahead, or a forged date)",
                          c.future, std::nullopt,
                          opt.now ? std::optional<double>(double(*opt.now)) : std::nullopt});
  }
}

/// Every set's hostlist, made once for text and JSON alike.
class Hostlists {
 public:
  explicit Hostlists(const std::vector<std::string>& names) : names_(names) {}
  void operator()(Nodes& n) const {
    std::vector<std::string_view> v;
    v.reserve(n.size());
    for (auto i : n.index) v.push_back(names_[i]);
    n.hostlist = compress_hostlist(v);
  }

 private:
  const std::vector<std::string>& names_;
};

void make_hostlists(Summary& s) {
  const Hostlists h(s.names);
  h(s.failing);
  h(s.warning);
  h(s.without_gpu);
  for (auto& g : s.findings) {
    h(g.nodes);
    for (auto& v : g.variants) h(v.nodes);
  }
  for (auto& g : s.gpus) {
    for (auto& c : g.counts) h(c.second);
  }
  for (auto& t : s.versions) {
    for (auto& v : t.values) h(v.nodes);
  }
  for (auto& v : s.module_vs_libcuda) h(v.nodes);
  for (auto& o : s.outliers) h(o.nodes);
}

}  // namespace

std::optional<std::int64_t> parse_utc(const std::string& iso) {
  int y = 0;
  unsigned mo = 0, d = 0, h = 0, mi = 0, sec = 0;
  int used = 0;
  if (std::sscanf(iso.c_str(), "%4d-%2u-%2uT%2u:%2u:%2u%n", &y, &mo, &d, &h, &mi, &sec, &used) !=
          6 ||
      used != 19) {
    return std::nullopt;
  }
  std::size_t at = 19;
  if (at < iso.size() && iso[at] == '.') {
    ++at;
    while (at < iso.size() && iso[at] >= '0' && iso[at] <= '9') ++at;
  }
  if (at + 1 != iso.size() || iso[at] != 'Z') return std::nullopt;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return std::nullopt;
  return days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
}

std::optional<std::int64_t> report_time(const Brief& b, const SummaryOptions& opt) {
  const auto t = parse_utc(b.generated_at);
  if (t && opt.now && *t > *opt.now + opt.clock_skew_s) return std::nullopt;
  return t;
}

bool newer_report(const Brief& candidate, const Brief& current, const SummaryOptions& opt) {
  const auto a = report_time(current, opt);
  const auto b = report_time(candidate, opt);
  return b && (!a || *b >= *a);
}

Summary summarize(std::vector<NodeReport> reports, std::vector<Unreadable> unreadable,
                  const SummaryOptions& opt) {
  Summary s;
  s.reports = reports.size() + unreadable.size();
  s.unreadable = std::move(unreadable);
  // A name Slurm would read as syntax ("gpu[1-512]") names no node: shown, never listed.
  std::vector<NodeReport> named;
  named.reserve(reports.size());
  for (auto& r : reports) {
    if (valid_node_name(r.brief.node)) {
      named.push_back(std::move(r));
    } else {
      s.unreadable.push_back({r.source, "node name \"" + r.brief.node +
                                            "\" is not a node name (letters, digits, '-', '_', "
                                            "'.'; a letter or digit first): left out"});
    }
  }
  const auto nodes = newest_per_node(std::move(named), s, opt);
  Collect c;
  std::optional<std::int64_t> lo, hi;
  s.names.reserve(nodes.size());
  for (std::uint32_t i = 0; i < nodes.size(); ++i) {
    const Brief& b = nodes[i].brief;
    s.names.push_back(b.node);
    collect_node(b, i, c, s, opt);
    if (auto t = report_time(b, opt)) {
      if (!lo || *t < *lo) {
        lo = t;
        s.oldest = b.generated_at;
      }
      if (!hi || *t > *hi) {
        hi = t;
        s.newest = b.generated_at;
      }
    }
  }
  finish_findings(c, s);
  finish_gpus(c, s);
  finish_versions(c, s, opt);
  finish_smoke(c, s, opt);
  finish_times(c, s, opt);
  make_hostlists(s);
  return s;
}

}  // namespace gpudoctor
