#include "report/diff.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <iterator>
#include <sstream>

#include "facts/facts.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

using facts::Weight;

/// One fact per finding id, in the checks' order; a check that found several things (one per
/// Python environment) gives all of their titles, ranked by the worst.
void add_findings(std::vector<facts::Compared>& out, const std::vector<Finding>& findings) {
  struct Found {
    Weight weight;
    std::set<std::string> titles;
  };
  std::vector<std::string> ids;
  std::map<std::string, Found> by_id;
  for (const auto& x : findings) {
    if (x.severity == Severity::ok) continue;
    const Weight weight = x.severity == Severity::fail   ? Weight::failure
                          : x.severity == Severity::warn ? Weight::warning
                                                         : Weight::note;
    auto [it, added] = by_id.try_emplace(x.id, Found{weight, {}});
    if (added) ids.push_back(x.id);
    it->second.weight = std::min(it->second.weight, weight);
    it->second.titles.insert(std::string(to_string(x.severity)) + ": " + x.title);
  }
  for (const auto& id : ids) {
    const Found& found = by_id.at(id);
    out.push_back({found.weight, "finding", id, join({found.titles.begin(), found.titles.end()}, "; ")});
  }
}

/// The findings, then every fact the backends' walks mark for comparison (moved out of the
/// described machine, whose device rows are dropped here, not copied).
std::vector<facts::Compared> compared_of(const DiffSide& side) {
  std::vector<facts::Compared> out;
  add_findings(out, side.findings);
  facts::Machine m = facts::describe(side.snap, side.devices);
  out.insert(out.end(), std::make_move_iterator(m.compared.begin()),
             std::make_move_iterator(m.compared.end()));
  return out;
}

/// Where a kind of fact stands in diff's list: failures, then the devices (which GPU each
/// machine has decides what the rest means), then the smoke tests, the driver and the rest in
/// the facts' own order, package lines (cuDNN, frameworks) after those.
int diff_rank(Weight w) {
  static const Weight kOrder[] = {Weight::failure, Weight::device,    Weight::smoke,
                                  Weight::driver,  Weight::toolkit,   Weight::cudnn,
                                  Weight::framework, Weight::python,  Weight::variable,
                                  Weight::warning, Weight::host,      Weight::api,
                                  Weight::note};
  for (std::size_t i = 0; i < std::size(kOrder); ++i) {
    if (kOrder[i] == w) return static_cast<int>(i);
  }
  return static_cast<int>(std::size(kOrder));
}

}  // namespace

std::vector<facts::Compared> diff_facts(const DiffSide& side) { return compared_of(side); }

std::vector<Difference> diff_machines(const DiffSide& a, const DiffSide& b) {
  return diff_compared(compared_of(a), compared_of(b));
}

std::vector<Difference> diff_compared(std::vector<facts::Compared> fa,
                                      std::vector<facts::Compared> fb) {
  std::vector<Difference> out;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  auto merge = [&](const std::vector<facts::Compared>& facts, bool is_a) {
    for (const auto& x : facts) {
      auto [it, added] = index.emplace(std::make_pair(x.area, x.what), out.size());
      if (added) out.push_back({diff_rank(x.weight), x.area, x.what, std::nullopt, std::nullopt});
      (is_a ? out[it->second].a : out[it->second].b) = x.value;
    }
  };
  merge(fa, true);
  fa = {};
  merge(fb, false);
  fb = {};
  out.erase(std::remove_if(out.begin(), out.end(), [](const Difference& d) { return d.a == d.b; }),
            out.end());
  std::stable_sort(out.begin(), out.end(),
                   [](const Difference& x, const Difference& y) { return x.rank < y.rank; });
  return out;
}

std::string render_diff_text(const std::vector<Difference>& diffs, const std::string& a_name,
                             const std::string& b_name) {
  std::ostringstream os;
  os << "A: " << a_name << "\nB: " << b_name << "\n\n";
  if (diffs.empty()) {
    os << "No differences that matter.\n";
    return os.str();
  }
  for (const auto& d : diffs) {
    os << d.area << ": " << d.what << "\n"
       << "  A: " << d.a.value_or("(none)") << "\n"
       << "  B: " << d.b.value_or("(none)") << "\n";
  }
  os << "\n"
     << diffs.size() << (diffs.size() == 1 ? " difference" : " differences")
     << ", most important first.\n";
  return os.str();
}

Json diff_json(const std::vector<Difference>& diffs, const std::string& a_name,
               const std::string& b_name) {
  return {{"schema_version", kSchemaVersion}, {"a", a_name}, {"b", b_name}, {"differences", diffs}};
}

}  // namespace gpudoctor
