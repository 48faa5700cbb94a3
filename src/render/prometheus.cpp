#include "render/prometheus.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "fleet/oneline.hpp"
#include "fleet/utf8.hpp"

namespace gpudoctor {

namespace {

using Labels = std::vector<std::pair<std::string, std::optional<std::string>>>;

/// "1", "0.25", "12345000000000": integers without a fraction, others to 15 digits.
std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.15g", v);
  }
  return buf;
}

/// Backslash and newline escaped, as HELP text and label values need; a label value's double
/// quotes too.
std::string escaped(const std::string& s, bool quote) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || (quote && c == '"')) {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

/// One metric family: its HELP and TYPE lines, then its samples. A sample whose labels repeat
/// one already written is dropped, as Prometheus would refuse the whole file for it.
class Family {
 public:
  Family(std::string name, std::string help) : name_(std::move(name)), help_(std::move(help)) {}

  void add(const Labels& labels, double value) {
    std::string text;
    for (const auto& [key, v] : labels) {
      if (!v || v->empty()) continue;  // Prometheus drops empty labels; so do we, visibly
      text += (text.empty() ? "" : ",") + key + "=\"" + prometheus_label_value(*v) + "\"";
    }
    if (!seen_.insert(text).second) return;
    samples_ += name_ + (text.empty() ? "" : "{" + text + "}") + " " + number(value) + "\n";
  }

  std::string text() const {
    if (samples_.empty()) return "";
    return "# HELP " + name_ + " " + escaped(help_, false) + "\n# TYPE " + name_ + " gauge\n" +
           samples_;
  }

 private:
  std::string name_;
  std::string help_;
  std::string samples_;
  std::set<std::string> seen_;
};

Labels device_labels(const std::string& node, const facts::Identity& id) {
  return {{"Hostname", node},
          {"gpu", id.gpu},
          {"UUID", id.uuid},
          {"pci_bus_id", id.pci_bus_id},
          {"model_name", id.model_name}};
}

void add_findings(const MetricsInput& in, std::string& out) {
  Family levels("gpudoctor_findings",
                "Findings of the last check at each level (fail, warn, info, ok).");
  Family by_id("gpudoctor_finding",
               "Findings of the last check by id and level (how many times the id was reported).");
  std::map<std::pair<std::string, Severity>, std::pair<std::string, int>> counts;
  std::map<Severity, int> per_level;
  for (const auto& f : *in.findings) {
    auto& c = counts[{f.id, f.severity}];
    c.first = f.area;
    ++c.second;
    ++per_level[f.severity];
  }
  for (Severity s : {Severity::fail, Severity::warn, Severity::info, Severity::ok}) {
    levels.add({{"Hostname", in.node}, {"level", to_string(s)}}, per_level[s]);
  }
  for (const auto& [key, c] : counts) {
    by_id.add({{"Hostname", in.node},
               {"id", key.first},
               {"level", to_string(key.second)},
               {"area", c.first}},
              c.second);
  }
  out += levels.text() + by_id.text();
}

void add_devices(const MetricsInput& in, std::string& out) {
  Family count("gpudoctor_gpus", "GPUs and accelerators found (software devices not counted).");
  Family info(
      "gpudoctor_gpu_info",
      "Each GPU, with the labels dcgm-exporter joins on (gpu, UUID, pci_bus_id, Hostname).");
  Family memory("gpudoctor_gpu_memory_bytes",
                "Memory of each GPU as its API reports it, in bytes.");
  int gpus = 0;
  for (const auto& d : in.machine->devices) {
    if (!facts::is_gpu(d)) continue;
    ++gpus;
    Labels labels = device_labels(in.node, d.identity);
    labels.push_back({"kind", d.kind});
    if (d.identity.gpu) {
      info.add(labels, 1);
    } else {
      // Without an NVML or CUDA index, the merged device's position keeps series apart.
      labels.push_back({"index", std::to_string(d.index)});
      info.add(labels, 1);
    }
    if (d.memory_bytes) memory.add(labels, *d.memory_bytes);
  }
  count.add({{"Hostname", in.node}}, gpus);
  out += count.text() + info.text() + memory.text();
}

void add_versions(const MetricsInput& in, std::string& out) {
  Family versions("gpudoctor_version_info",
                  "Versions of the driver, kernel, toolkits and frameworks found (value 1).");
  for (const auto& c : in.machine->compared) {
    if (!facts::is_version(c)) continue;
    versions.add(
        {{"Hostname", in.node}, {"area", c.area}, {"component", c.what}, {"version", c.value}}, 1);
  }
  out += versions.text();
}

void add_smoke(const MetricsInput& in, std::string& out) {
  Family passed("gpudoctor_smoke_passed",
                "Whether the smoke matmul on the device gave the right result (1) or not (0).");
  Family flops("gpudoctor_smoke_flops", "Speed of the smoke matmul kernel, in FLOP/s.");
  for (const auto& s : in.machine->smoke) {
    if (s.status != "pass" && s.status != "fail") continue;
    Labels labels = {{"Hostname", in.node},
                     {"api", s.api},
                     {"index", std::to_string(s.index)},
                     {"device_name", s.device}};
    if (s.device_index && *s.device_index < in.machine->devices.size()) {
      const auto& id = in.machine->devices[*s.device_index].identity;
      labels.push_back({"gpu", id.gpu});
      labels.push_back({"UUID", id.uuid});
      labels.push_back({"pci_bus_id", id.pci_bus_id});
      labels.push_back({"model_name", id.model_name});
    }
    passed.add(labels, s.status == "pass" ? 1 : 0);
    if (s.flops) flops.add(labels, *s.flops);
  }
  out += passed.text() + flops.text();
}

}  // namespace

std::string prometheus_label_value(const std::string& value) {
  return escaped(valid_utf8(value), true);
}

std::string render_prometheus(const MetricsInput& in) {
  std::string out;
  Family info("gpudoctor_info", "gpudoctor's version and the node it ran on (value 1).");
  info.add({{"Hostname", in.node}, {"version", in.tool_version}}, 1);
  Family success("gpudoctor_check_success",
                 "Whether the last check could look at the machine (1) or not (0).");
  const bool ran = in.machine != nullptr && in.findings != nullptr;
  success.add({{"Hostname", in.node}}, ran ? 1 : 0);
  out += info.text() + success.text();
  if (ran) {
    Family failed("gpudoctor_check_failed",
                  "Whether the last check exited 1: a finding at the --fail-on level or worse.");
    failed.add({{"Hostname", in.node}, {"fail_on", to_string(in.fail_on)}},
               fleet_exit_code(*in.findings, in.fail_on));
    out += failed.text();
    add_findings(in, out);
    add_devices(in, out);
    add_versions(in, out);
    add_smoke(in, out);
  }
  Family when("gpudoctor_last_run_timestamp_seconds", "When the last check started, in Unix time.");
  when.add({{"Hostname", in.node}}, in.started_at);
  Family took("gpudoctor_last_run_duration_seconds", "How long the last check took, in seconds.");
  took.add({{"Hostname", in.node}}, in.duration);
  out += when.text() + took.text();
  return out;
}

}  // namespace gpudoctor
