#include "report/report.hpp"

#include "checks/area_status.hpp"
#include "facts/facts.hpp"
#include "fleet/brief.hpp"
#include "render/query_text.hpp"
#include "report/environment_section.hpp"
#include "report/redact.hpp"
#include "report/secrets.hpp"

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

}  // namespace

Json build_report(const ReportInput& in) {
  const EnvironmentSection env = environment_section(in.env, !in.redact);
  Json doc = {{"schema_version", kSchemaVersion},
              {"kind", "gpudoctor-report"},
              {"tool_version", in.snap.tool_version},
              {"generated_at", in.generated_at},
              {"summary", summary_json(in.findings, in.devices.size())},
              {"areas", area_statuses(in.snap, in.devices, in.findings)},
              {"findings", in.findings},
              {"environment", env.variables},
              {"bench", in.bench ? *in.bench : Json(nullptr)},
              {"snapshot", query_json(in.snap, in.devices)}};
  doc["brief"] = brief_json(make_brief(facts::describe(in.snap, in.devices), in.findings, "",
                                       in.generated_at, in.snap.tool_version));
  Json redaction = {{"redacted", in.redact},
                    {"environment_variables_left_out", env.left_out},
                    {"secret_variables_dropped", env.secrets_dropped}};
  if (in.redact) {
    Redacted r = redact(std::move(doc), user_names_from(in.env), host_names_from(in.env));
    doc = std::move(r.doc);
    redaction["replaced"] = r.counts;
  } else {
    redaction["replaced"] = Json::object();
  }
  // Never written, redacted or not: a password or token inside a URL in any value.
  redaction["url_credentials_removed"] = strip_url_credentials(doc);
  doc["redaction"] = std::move(redaction);
  // After redaction: the node's name stays as it is.
  doc["node"] = in.node_name ? Json{{"name", *in.node_name}, {"source", in.node_source}} : Json(nullptr);
  doc["brief"]["node"] = in.node_name.value_or("");
  return doc;
}

}  // namespace gpudoctor
