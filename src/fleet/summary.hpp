#pragma once
// `gpudoctor summary`: what an operator acts on across many nodes' reports. Pure: it takes
// the brief records already read, and what could not be read.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fleet/brief.hpp"
#include "json.hpp"

namespace gpudoctor {

struct NodeReport {
  std::string source;  ///< the file it came from ("-#3": the third document on stdin)
  Brief brief;         ///< brief.node is never empty here (the file's name when it had none)
};

struct Unreadable {
  std::string source;
  std::string why;
};

struct SummaryOptions {
  double stale_after_hours = 24;  ///< a report this much older than the newest is stale
  double slow_fraction = 0.5;     ///< smoke FLOP/s below this share of the model's median
  double rare_fraction = 0.01;    ///< a version on fewer than this share of the nodes with it
  /// Seconds since 1970 now, when known: a report dated later than now and `clock_skew_s` is
  /// flagged "future" and its time not used (a report dated 9999 made every other node stale).
  std::optional<std::int64_t> now;
  std::int64_t clock_skew_s = 3600;
};

/// Nodes that share something: their places in Summary::names, in that order, and the same
/// as a Slurm hostlist.
struct Nodes {
  std::vector<std::uint32_t> index;
  std::string hostlist;
  std::size_t size() const { return index.size(); }
  bool empty() const { return index.empty(); }
};

struct FindingVariant {
  std::string title;
  std::vector<std::string> evidence;
  Nodes nodes;
};

/// One finding id at one level, and every node that reported it.
struct FindingGroup {
  std::string id;
  Severity severity = Severity::info;
  Nodes nodes;
  std::vector<FindingVariant> variants;  ///< distinct titles and evidence, most nodes first
};

struct ValueNodes {
  std::string value;
  Nodes nodes;
};

/// How many nodes have each version of one component; values with most nodes first.
struct Tally {
  std::string area;
  std::string component;
  std::vector<ValueNodes> values;
};

/// Nodes per count of one GPU model.
struct GpuTally {
  std::string model;
  int usual = 0;                              ///< the count most nodes with this model have
  std::vector<std::pair<int, Nodes>> counts;  ///< most nodes first
};

struct Outlier {
  std::string kind;    ///< "fewer_gpus", "slow_smoke", "rare_version", "stale", "no_time",
                       ///< "future"
  std::string what;    ///< the model, the smoke device, the component
  std::string detail;  ///< one line: "×7, usually ×8"
  Nodes nodes;
  std::optional<double> value;      ///< FLOP/s, the count, hours
  std::optional<double> reference;  ///< the median, the usual count, the newest time
};

struct Summary {
  std::vector<std::string> names;       ///< every node, one report each, in natural order
  std::size_t reports = 0;              ///< documents read, readable or not
  std::vector<std::string> superseded;  ///< older reports of a node that has a newer one
  std::vector<Unreadable> unreadable;
  std::size_t unreadable_not_listed = 0;  ///< more unreadable ones, counted only (a stream of {})
  Nodes failing;
  Nodes warning;
  std::optional<std::string> oldest;  ///< generated_at of the oldest and newest reports
  std::optional<std::string> newest;
  std::vector<FindingGroup> findings;  ///< fail first, then warn, info; most nodes first
  std::vector<GpuTally> gpus;
  Nodes without_gpu;
  std::vector<Tally> versions;
  std::vector<ValueNodes> module_vs_libcuda;  ///< "550.127.05 / 550.127.05"
  std::vector<Outlier> outliers;
};

/// Reports whose node name is not valid_node_name are counted as unreadable, saying why, and
/// used for nothing else.
Summary summarize(std::vector<NodeReport> reports, std::vector<Unreadable> unreadable,
                  const SummaryOptions& opt);

/// The report's time as summary uses it: parse_utc of generated_at, unless it lies past
/// `opt.now` by more than the clock skew allowed.
std::optional<std::int64_t> report_time(const Brief& b, const SummaryOptions& opt);

/// Whether `candidate` replaces `current` as a node's report: it has a usable time, and
/// `current` has none or one no later.
bool newer_report(const Brief& candidate, const Brief& current, const SummaryOptions& opt);

/// For people: counts, hostlists, the outliers, the unreadable files.
std::string render_summary_text(const Summary& s);
/// For machines: the same, with every node listed (and as a hostlist).
Json summary_json(const Summary& s);

/// Seconds since 1970 of "2026-11-21T10:55:00Z" (also with fractional seconds); nullopt for
/// anything else.
std::optional<std::int64_t> parse_utc(const std::string& iso);

}  // namespace gpudoctor
