#include "fleet/summary.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "fleet/hostlist.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr int kMinNodesForMedian = 3;

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

void sort_nodes(Nodes& n) {
  std::sort(n.begin(), n.end(), natural_less);
  n.erase(std::unique(n.begin(), n.end()), n.end());
}

/// Most nodes first, then by value, for stable output.
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
/// loses to one with a time; otherwise the later in the list).
std::vector<NodeReport> newest_per_node(std::vector<NodeReport> reports, Summary& s) {
  std::map<std::string, std::size_t> best;
  std::vector<bool> keep(reports.size(), true);
  for (std::size_t i = 0; i < reports.size(); ++i) {
    auto [it, fresh] = best.emplace(reports[i].brief.node, i);
    if (fresh) continue;
    const auto a = parse_utc(reports[it->second].brief.generated_at);
    const auto b = parse_utc(reports[i].brief.generated_at);
    const bool newer = b && (!a || *b >= *a);
    const std::size_t loser = newer ? it->second : i;
    if (newer) it->second = i;
    keep[loser] = false;
    s.superseded_sources.push_back(reports[loser].source);
  }
  s.superseded = s.superseded_sources.size();
  std::vector<NodeReport> out;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    if (keep[i]) out.push_back(std::move(reports[i]));
  }
  return out;
}

struct Collect {
  std::map<std::pair<int, std::string>, FindingGroup> groups;  // (−severity, id)
  std::map<std::pair<int, std::string>, std::map<std::string, FindingVariant>> variants;
  std::map<std::string, std::map<int, Nodes>> gpus;
  std::map<std::pair<std::string, std::string>, std::map<std::string, Nodes>> versions;
  std::map<std::string, Nodes> pairs;
  /// (api, device) → (node, its slowest passing run)
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<std::string, double>>> smoke;
  std::vector<std::pair<std::string, std::int64_t>> times;
  Nodes no_time;
};

void collect_node(const NodeReport& r, Collect& c, Summary& s) {
  const Brief& b = r.brief;
  const std::string& node = b.node;
  s.nodes.push_back(node);
  if (b.failures > 0) {
    s.failing.push_back(node);
  } else if (b.warnings > 0) {
    s.warning.push_back(node);
  }
  for (const auto& f : b.findings) {
    const auto key = std::make_pair(-static_cast<int>(f.severity), f.id);
    FindingGroup& g = c.groups[key];
    g.id = f.id;
    g.severity = f.severity;
    g.nodes.push_back(node);
    std::string vkey = f.title;
    for (const auto& e : f.evidence) vkey += '\x1f' + e;
    FindingVariant& v = c.variants[key][vkey];
    if (v.nodes.empty()) {
      v.title = f.title;
      v.evidence = f.evidence;
    }
    v.nodes.push_back(node);
  }
  if (b.gpus.empty()) s.without_gpu.push_back(node);
  for (const auto& g : b.gpus) c.gpus[g.model][g.count].push_back(node);
  for (const auto& [area, components] : b.versions) {
    for (const auto& [component, value] : components) {
      c.versions[{area, component}][value].push_back(node);
    }
  }
  auto driver = b.versions.find("driver");
  if (driver != b.versions.end()) {
    auto module = driver->second.find(kModuleComponent);
    auto lib = driver->second.find(kLibcudaComponent);
    if (module != driver->second.end() && lib != driver->second.end()) {
      c.pairs[module->second + " / " + lib->second].push_back(node);
    }
  }
  for (const auto& sm : b.smoke) {
    if (sm.flops.empty()) continue;
    const double slowest = *std::min_element(sm.flops.begin(), sm.flops.end());
    c.smoke[{sm.api, sm.device}].emplace_back(node, slowest);
  }
  if (auto t = parse_utc(b.generated_at)) {
    c.times.emplace_back(node, *t);
  } else {
    c.no_time.push_back(node);
  }
}

void finish_findings(Collect& c, Summary& s) {
  for (auto& [key, g] : c.groups) {
    sort_nodes(g.nodes);
    for (auto& [vkey, v] : c.variants[key]) {
      sort_nodes(v.nodes);
      g.variants.push_back(std::move(v));
    }
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
      sort_nodes(nodes);
      // The usual count: most nodes have it; on a tie, the larger (a missing board is the
      // failure, not an extra one).
      if (nodes.size() >= most) {
        most = nodes.size();
        t.usual = count;
      }
      t.counts.emplace_back(count, nodes);
    }
    std::stable_sort(t.counts.begin(), t.counts.end(),
                     [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
    for (const auto& [count, nodes] : t.counts) {
      if (count >= t.usual) continue;
      Outlier o{"fewer_gpus", model,
                "\u00d7" + std::to_string(count) + ", usually \u00d7" + std::to_string(t.usual),
                nodes, double(count), double(t.usual)};
      s.outliers.push_back(std::move(o));
    }
    s.gpus.push_back(std::move(t));
  }
  sort_nodes(s.without_gpu);
}

void finish_versions(Collect& c, Summary& s, const SummaryOptions& opt) {
  for (auto& [key, values] : c.versions) {
    Tally t{key.first, key.second, {}};
    std::size_t with = 0;
    for (auto& [value, nodes] : values) {
      sort_nodes(nodes);
      with += nodes.size();
      t.values.push_back({value, nodes});
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
  for (auto& [pair, nodes] : c.pairs) {
    sort_nodes(nodes);
    s.module_vs_libcuda.push_back({pair, nodes});
  }
  by_nodes(s.module_vs_libcuda, [](const ValueNodes& v) -> const Nodes& { return v.nodes; });
}

void finish_smoke(Collect& c, Summary& s, const SummaryOptions& opt) {
  for (auto& [key, runs] : c.smoke) {
    if (runs.size() < static_cast<std::size_t>(kMinNodesForMedian)) continue;
    std::vector<double> values;
    for (const auto& r : runs) values.push_back(r.second);
    const double mid = median(values);
    std::sort(runs.begin(), runs.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });
    for (const auto& [node, slowest] : runs) {
      if (!(slowest < opt.slow_fraction * mid)) break;
      s.outliers.push_back({"slow_smoke", key.first + " " + key.second,
                            flops_text(slowest) + ", " + percent(slowest / mid) + " of the median " +
                                flops_text(mid),
                            {node}, slowest, mid});
    }
  }
}

void finish_times(Collect& c, Summary& s, const SummaryOptions& opt) {
  if (!c.times.empty()) {
    const std::int64_t newest =
        std::max_element(c.times.begin(), c.times.end(), [](const auto& a, const auto& b) {
          return a.second < b.second;
        })->second;
    const std::int64_t limit = newest - static_cast<std::int64_t>(opt.stale_after_hours * 3600);
    Nodes stale;
    std::int64_t oldest_stale = newest;
    for (const auto& [node, t] : c.times) {
      if (t < limit) {
        stale.push_back(node);
        oldest_stale = std::min(oldest_stale, t);
      }
    }
    if (!stale.empty()) {
      sort_nodes(stale);
      char buf[96];
      std::snprintf(buf, sizeof buf, "more than %g h older than the newest report (up to %.1f h)",
                    opt.stale_after_hours, double(newest - oldest_stale) / 3600);
      s.outliers.push_back({"stale", "reports", buf, stale,
                            double(newest - oldest_stale) / 3600, opt.stale_after_hours});
    }
  }
  if (!c.no_time.empty()) {
    sort_nodes(c.no_time);
    s.outliers.push_back({"no_time", "reports", "no readable generated_at", c.no_time,
                          std::nullopt, std::nullopt});
  }
}

}  // namespace

std::optional<std::int64_t> parse_utc(const std::string& iso) {
  int y = 0;
  unsigned mo = 0, d = 0, h = 0, mi = 0, sec = 0;
  int used = 0;
  if (std::sscanf(iso.c_str(), "%4d-%2u-%2uT%2u:%2u:%2u%n", &y, &mo, &d, &h, &mi, &sec, &used) != 6 ||
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

Summary summarize(std::vector<NodeReport> reports, std::vector<Unreadable> unreadable,
                  const SummaryOptions& opt) {
  Summary s;
  s.reports = reports.size() + unreadable.size();
  s.unreadable = std::move(unreadable);
  const auto nodes = newest_per_node(std::move(reports), s);
  Collect c;
  std::optional<std::int64_t> lo, hi;
  for (const auto& r : nodes) {
    collect_node(r, c, s);
    if (auto t = parse_utc(r.brief.generated_at)) {
      if (!lo || *t < *lo) {
        lo = t;
        s.oldest = r.brief.generated_at;
      }
      if (!hi || *t > *hi) {
        hi = t;
        s.newest = r.brief.generated_at;
      }
    }
  }
  sort_nodes(s.nodes);
  sort_nodes(s.failing);
  sort_nodes(s.warning);
  finish_findings(c, s);
  finish_gpus(c, s);
  finish_versions(c, s, opt);
  finish_smoke(c, s, opt);
  finish_times(c, s, opt);
  return s;
}

}  // namespace gpudoctor
