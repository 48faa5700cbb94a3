#include <algorithm>

#include "report/report.hpp"

#include "checks/area_status.hpp"
#include "facts/facts.hpp"
#include "fleet/brief.hpp"
#include "render/query_text.hpp"
#include "report/environment_section.hpp"
#include "checks/readiness.hpp"
#include "compat/compat_data.hpp"
#include "report/redact.hpp"
#include "report/secrets.hpp"
#include "json_model_writer.hpp"

namespace gpudoctor {

namespace {

Json summary_json(const std::vector<Finding>& findings, std::size_t devices) {
  int counts[4] = {0, 0, 0, 0};
  for (const auto& f : findings) ++counts[static_cast<int>(f.severity)];
  return {{"failures", counts[static_cast<int>(Severity::fail)]},
          {"warnings", counts[static_cast<int>(Severity::warn)]},
          {"notes", counts[static_cast<int>(Severity::info)]},
          {"ok", counts[static_cast<int>(Severity::ok)]},
          {"devices", devices}};
}

/// The report's members but the snapshot, "redaction" and "node": small enough to build.
struct ReportParts {
  EnvironmentSection env;
  Json summary;
  std::vector<AreaStatus> areas;
  std::vector<ReadinessPair> readiness;
  Json bench;
  Json brief;
};

ReportParts report_parts(const ReportInput& in) {
  ReportParts p{environment_section(in.env, !in.redact),
                summary_json(in.findings, in.devices.size()),
                area_statuses(in.snap, in.devices, in.findings),
                readiness(CheckInput{in.snap, in.devices, builtin_compat()}, in.findings),
                in.bench ? *in.bench : Json(nullptr),
                brief_json(make_brief(facts::describe(in.snap, in.devices), in.findings, "",
                                      in.generated_at, in.snap.tool_version))};
  return p;
}

Json redaction_json(const ReportInput& in, const ReportParts& parts) {
  return {{"redacted", in.redact},
          {"environment_variables_left_out", parts.env.left_out},
          {"secret_variables_dropped", parts.env.secrets_dropped}};
}

Json node_json(const ReportInput& in) {
  return in.node_name ? Json{{"name", *in.node_name}, {"source", in.node_source}} : Json(nullptr);
}

/// After redaction (`inner`, when redacting): the credentials of every URL and every secret of a
/// known shape removed, counted; notes a member name that holds some, which the DOM renames
/// (and so moves).
class UrlCredentialsFilter : public JsonStringFilter {
 public:
  explicit UrlCredentialsFilter(JsonStringFilter* inner) : inner_(inner) {}
  void string(std::string_view key, std::string& value) override {
    if (inner_ != nullptr) inner_->string(key, value);
    value = strip_secrets(value, removed_);
  }
  void key(std::string& name) override {
    SecretsRemoved ignored;
    if (strip_secrets(name, ignored) != name) renamed_ = true;
  }
  const SecretsRemoved& removed() const { return removed_; }
  bool renamed() const { return renamed_; }

 private:
  JsonStringFilter* inner_;
  SecretsRemoved removed_;
  bool renamed_ = false;
};

/// Writes `j` with no filter: what the DOM adds after redaction.
void write_unfiltered(JsonWriter& out, const Json& j) {
  JsonStringFilter* filter = out.filter();
  out.set_filter(nullptr);
  out.json(j);
  out.set_filter(filter);
}

/// The whole report in nlohmann's member order; "redaction", "node" and the brief's node
/// unfiltered, as build_report adds them after redacting.
void write_members(JsonWriter& out, const ReportInput& in, const ReportParts& parts,
                   const Json& redaction, const Json& node) {
  const Json node_name = in.node_name.value_or("");
  const auto brief = [&](JsonWriter& w) {
    bool wrote_node = false;
    const auto write_node = [&] {
      w.key("node");
      write_unfiltered(w, node_name);
      wrote_node = true;
    };
    w.begin_object();
    for (auto it = parts.brief.begin(); it != parts.brief.end(); ++it) {
      if (!wrote_node && it.key() >= "node") write_node();
      if (it.key() == "node") continue;
      w.key(it.key());
      w.json(it.value());
    }
    if (!wrote_node) write_node();
    w.end_object();
  };
  const auto snapshot = [&](JsonWriter& w) { write_query_json(w, in.snap, in.devices); };
  const auto redaction_member = [&](JsonWriter& w) { write_unfiltered(w, redaction); };
  const auto node_member = [&](JsonWriter& w) { write_unfiltered(w, node); };
  const std::string kind = "gpudoctor-report";
  JsonMembers members;
  members.add("schema_version", kSchemaVersion);
  members.add("kind", kind);
  members.add("tool_version", in.snap.tool_version);
  members.add("generated_at", in.generated_at);
  members.add("summary", parts.summary);
  members.add("areas", parts.areas);
  members.add("findings", in.findings);
  members.add("readiness", parts.readiness);
  members.add("environment", parts.env.variables);
  members.add("bench", parts.bench);
  members.add_written("snapshot", snapshot);
  members.add_written("brief", brief);
  members.add_written("redaction", redaction_member);
  members.add_written("node", node_member);
  members.write(out);
}

}  // namespace

namespace {

/// The host names redaction hides beyond the snapshot's own: HOSTNAME, and what the command
/// knows (the --sysroot image's /etc/hostname).
std::vector<std::string> report_host_names(const ReportInput& in) {
  std::vector<std::string> names = host_names_from(in.env);
  for (const auto& n : in.host_names) {
    if (!n.empty() && std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  }
  return names;
}

}  // namespace

Json build_report(const ReportInput& in) {
  ReportParts parts = report_parts(in);
  Json doc = {{"schema_version", kSchemaVersion},
              {"kind", "gpudoctor-report"},
              {"tool_version", in.snap.tool_version},
              {"generated_at", in.generated_at},
              {"summary", std::move(parts.summary)},
              {"areas", parts.areas},
              {"findings", in.findings},
              {"readiness", parts.readiness},
              {"environment", std::move(parts.env.variables)},
              {"bench", std::move(parts.bench)},
              {"snapshot", query_json(in.snap, in.devices)}};
  doc["brief"] = std::move(parts.brief);
  Json redaction = redaction_json(in, parts);
  if (in.redact) {
    Redacted r = redact(std::move(doc), user_names_from(in.env), report_host_names(in));
    doc = std::move(r.doc);
    redaction["replaced"] = r.counts;
  } else {
    redaction["replaced"] = Json::object();
  }
  // Never written, redacted or not: a password or token inside a URL, or of a known shape, in
  // any value.
  const SecretsRemoved removed = strip_secrets(doc);
  redaction["url_credentials_removed"] = removed.url_credentials;
  redaction["secrets_removed"] = removed.secrets;
  doc["redaction"] = std::move(redaction);
  // After redaction: the node's name stays as it is.
  doc["node"] = node_json(in);
  doc["brief"]["node"] = in.node_name.value_or("");
  return doc;
}

void write_report(JsonWriter& out, const ReportInput& in) {
  const ReportParts parts = report_parts(in);
  const Json none;
  // Two walks that write nothing: who to hide, then what redacting replaces ("redaction"
  // precedes "snapshot", so its counts are needed first); the third writes.
  JsonWriter nowhere(nullptr, -1);
  StreamRedaction redaction(user_names_from(in.env), report_host_names(in));
  if (in.redact) {
    nowhere.set_filter(&redaction.collector());
    write_members(nowhere, in, parts, none, none);
  }
  UrlCredentialsFilter counting(in.redact ? &redaction.start_redacting() : nullptr);
  nowhere.set_filter(&counting);
  write_members(nowhere, in, parts, none, none);
  if (counting.renamed()) {
    out.json(build_report(in));
    return;
  }
  Json redaction_member = redaction_json(in, parts);
  redaction_member["replaced"] = in.redact ? Json(redaction.counts()) : Json::object();
  redaction_member["url_credentials_removed"] = counting.removed().url_credentials;
  redaction_member["secrets_removed"] = counting.removed().secrets;
  UrlCredentialsFilter writing(in.redact ? &redaction.start_redacting() : nullptr);
  out.set_filter(&writing);
  write_members(out, in, parts, redaction_member, node_json(in));
  out.set_filter(nullptr);
}

}  // namespace gpudoctor
