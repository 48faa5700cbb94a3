#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/finding.hpp"
#include "devices.hpp"
#include "environment.hpp"
#include "json.hpp"
#include "json_writer.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {

/// What `gpudoctor report` puts together; the caller supplies the clock and the environment.
struct ReportInput {
  const Snapshot& snap;
  const std::vector<MergedDevice>& devices;
  const std::vector<Finding>& findings;
  const Environment& env;
  std::string generated_at;  ///< UTC, ISO 8601: "2026-11-21T10:55:00Z"
  bool redact = true;
  std::optional<Json> bench;  ///< benchmark results, when asked for
  /// The name fleets know the node by (src/fleet/node_name.hpp) and where it came from; kept
  /// as it is when the rest is redacted, since fleets key on it.
  std::optional<std::string> node_name;
  std::string node_source;
  /// Host names the snapshot does not hold under "hostname" that redaction must also hide: under
  /// --sysroot the image's /etc/hostname (a kernel release "6.1.0-myhost42" named it, issue 29).
  std::vector<std::string> host_names;
};

/// The versioned report (schema/report.schema.json): summary, findings, the GPU-relevant
/// environment, what was redacted, and the snapshot with its merged devices, which
/// `check --from` reads back; the node's name and its brief record (src/fleet/brief.hpp), what
/// `summary` reads.
Json build_report(const ReportInput& in);

/// build_report(in) written to `out` in the bytes dump_json(build_report(in), 2) gives,
/// without a DOM of the snapshot or the whole text in memory (save where a member name holds
/// a URL's credentials: the DOM renames it, and so moves it, so that report is built whole).
void write_report(JsonWriter& out, const ReportInput& in);

}  // namespace gpudoctor
