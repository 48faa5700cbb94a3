#pragma once
// `check --prometheus FILE`: the node_exporter textfile collector's format
// (https://prometheus.io/docs/instrumenting/exposition_formats/), read from the facts layer.
#include <optional>
#include <string>
#include <vector>

#include "model/finding.hpp"
#include "facts/facts.hpp"

namespace gpudoctor {

struct MetricsInput {
  const facts::Machine* machine = nullptr;  ///< null when the check could not run
  const std::vector<Finding>* findings = nullptr;
  std::string node;  ///< the Hostname label, as dcgm-exporter names it; empty: left out
  std::string tool_version;
  double started_at = 0;  ///< Unix time, seconds
  double duration = 0;    ///< seconds
  Severity fail_on = Severity::fail;
};

/// Every metric with the `gpudoctor_` prefix, base units, HELP and TYPE, gauges only:
/// gpudoctor_info, gpudoctor_check_success, gpudoctor_check_failed, gpudoctor_findings{level},
/// gpudoctor_finding{id,level,area}, gpudoctor_gpus, gpudoctor_gpu_info and
/// gpudoctor_gpu_memory_bytes (labels gpu, UUID, pci_bus_id and Hostname, spelled as
/// dcgm-exporter spells them so that series join; the model is model_name, since
/// `promtool check metrics` refuses dcgm's camelCase modelName, and a scrape's
/// metric_relabel_configs copies it to modelName: packaging/prometheus/prometheus.yml),
/// gpudoctor_version_info{area,component,version}, gpudoctor_smoke_passed and
/// gpudoctor_smoke_flops, gpudoctor_last_run_timestamp_seconds and
/// gpudoctor_last_run_duration_seconds. A finding's level is `level`, not `severity`, which
/// alert rules set. Every series carries Hostname. UUIDs are written as they are, unredacted,
/// so that they join.
std::string render_prometheus(const MetricsInput& in);

/// A label value escaped for the text format (\\, \", \n) and made valid UTF-8.
std::string prometheus_label_value(const std::string& value);

}  // namespace gpudoctor
