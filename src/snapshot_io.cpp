#include "snapshot_io.hpp"

#include <charconv>
#include <cmath>
#include <optional>

#include "json_model_reader.hpp"

namespace gpudoctor {

namespace {

/// A schema_version as written. Any whole number is compared exactly, however long, so that
/// 2^63 or 10^30 reads as "newer" rather than wrapping or failing as an integer.
struct SchemaVersion {
  std::string text;
  bool newer = false;
  std::optional<int> value;  ///< when it is a whole number this gpudoctor can read
};

/// The schema_version member's value; nullopt (skipped) when it is not a number.
std::optional<SchemaVersion> read_schema_version(JsonPull& in) {
  if (in.peek() != JsonKind::number) {
    in.skip_value();
    return std::nullopt;
  }
  const JsonNumber n = in.read_number();
  SchemaVersion v{std::string(n.text)};
  if (n.integer) {
    long long parsed = 0;
    const auto [end, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), parsed);
    if (ec == std::errc::result_out_of_range) {
      v.newer = v.text[0] != '-';
    } else if (ec == std::errc() && end == v.text.data() + v.text.size()) {
      v.newer = parsed > kSchemaVersion;
      if (!v.newer && parsed >= 1) v.value = static_cast<int>(parsed);
    }
    return v;
  }
  double parsed = 0;
  const auto [end, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), parsed);
  // 1e30 is a whole number past any version; 1.5 is no version at all.
  if (ec == std::errc::result_out_of_range) {
    v.newer = v.text[0] != '-' && v.text.find("e-") == std::string::npos &&
              v.text.find("E-") == std::string::npos;
  } else {
    v.newer = std::floor(parsed) == parsed && parsed > kSchemaVersion;
  }
  return v;
}

/// One object read as a snapshot: the version apart, every other member into `snap`.
struct SnapshotSide {
  Snapshot snap;
  std::optional<SchemaVersion> version;
  std::optional<JsonReadProblem> problem;
  bool brief = false;                    ///< "kind": "gpudoctor-brief" at the top level
  std::vector<Finding> findings;         ///< the top level's (a brief's: it has no snapshot)
  std::optional<JsonReadProblem> findings_problem;
};

constexpr std::string_view kBriefKindName = "gpudoctor-brief";  // fleet/brief.hpp kBriefKind

void read_snapshot_members(JsonPull& in, SnapshotSide& side, bool top_level,
                           std::optional<SnapshotSide>& nested) {
  JsonModelReader reader(in);
  in.begin_object();
  for (bool first = true; in.next_key(first);) {
    if (in.key() == "schema_version") {
      side.version = read_schema_version(in);
    } else if (top_level && in.key() == "kind" && in.peek() == JsonKind::string) {
      side.brief = in.read_string() == kBriefKindName;
    } else if (top_level && in.key() == "findings" && in.peek() == JsonKind::array) {
      // Read apart: only a brief's findings are used, and only then can they be malformed.
      JsonModelReader findings(in);
      findings.read(side.findings);
      side.findings_problem = findings.problem();
    } else if (top_level && in.key() == "snapshot" && in.peek() == JsonKind::object) {
      // A `check --json` or `report` document: the snapshot it carries is the one to read.
      std::optional<SnapshotSide> unused;
      nested.emplace();
      read_snapshot_members(in, *nested, false, unused);
    } else if (!reader.read_field(side.snap, in.key())) {
      in.skip_value();
    }
  }
  side.problem = reader.problem();
}

std::string newer_text(const SchemaVersion& v) {
  return "written by a newer gpudoctor (schema " + v.text + "; this one reads up to " +
         std::to_string(kSchemaVersion) + ")";
}

std::variant<RecordedMachine, std::string> read_recorded(JsonPull& in) {
  try {
    if (in.peek() != JsonKind::object) {
      return std::string("not a gpudoctor report (the top level is not an object)");
    }
    SnapshotSide top;
    std::optional<SnapshotSide> nested;
    read_snapshot_members(in, top, true, nested);
    in.finish();
    // The outer version first: a newer document may nest its snapshot differently.
    if (top.version && top.version->newer) return newer_text(*top.version);
    SnapshotSide& side = nested ? *nested : top;
    if (!side.version) return std::string("not a gpudoctor report (no schema_version)");
    if (side.version->newer) return newer_text(*side.version);
    if (!side.version->value) return "schema_version " + side.version->text + " is not valid";
    if (side.problem) return "malformed report: " + side.problem->pointer + " " + side.problem->why;
    side.snap.schema_version = *side.version->value;
    RecordedMachine m;
    m.snap = std::move(side.snap);
    // A report made from a paste keeps what that means (what it does not show is unknown).
    if (m.snap.origin != Origin::paste) m.snap.origin = Origin::report;
    if (top.brief) {
      if (top.findings_problem) {
        return "malformed brief record: findings" + top.findings_problem->pointer + " " +
               top.findings_problem->why;
      }
      m.brief_findings = std::move(top.findings);
    }
    return m;
  } catch (const JsonSyntaxError& e) {
    return std::string(e.what());
  }
}

std::variant<Snapshot, std::string> read_snapshot(JsonPull& in) {
  auto read = read_recorded(in);
  if (auto* why = std::get_if<std::string>(&read)) return std::move(*why);
  return std::move(std::get<RecordedMachine>(read).snap);
}

}  // namespace

std::variant<Snapshot, std::string> snapshot_from_json_text(std::string_view text) {
  try {
    JsonPull in(text);
    return read_snapshot(in);
  } catch (const JsonSyntaxError& e) {
    return std::string(e.what());
  }
}

std::variant<Snapshot, std::string> snapshot_from_json_input(JsonPull::Refill refill,
                                                             JsonLimits limits) {
  JsonPull in(std::move(refill), limits);
  return read_snapshot(in);
}

std::variant<RecordedMachine, std::string> recorded_from_json_input(JsonPull::Refill refill,
                                                                    JsonLimits limits) {
  JsonPull in(std::move(refill), limits);
  return read_recorded(in);
}

}  // namespace gpudoctor
