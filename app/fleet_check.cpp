#include "fleet_check.hpp"

#include "file_io.hpp"

#include <unistd.h>

#include <climits>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "facts/facts.hpp"
#include "fleet/node_name.hpp"
#include "fleet/oneline.hpp"
#include "core/root.hpp"
#include "render/prometheus.hpp"
#include "report_command.hpp"
#include "text.hpp"
#include "tool_version.hpp"

namespace gpudoctor {

namespace {

/// The host name of the machine the report is about: under --sysroot the image's own
/// /etc/hostname (hostname(5): one line), never the name of the machine reading it.
std::optional<std::string> host_name(const Options& opt) { return analysed_host_name(opt); }

}  // namespace

std::optional<std::string> analysed_host_name(const Options& opt) {
  if (opt.sysroot) {
    // Through the root's reader: a regular file only, at most 4 KiB, links resolved inside the
    // tree (a FIFO there blocked the run forever; a link to /dev/zero read without end).
    const auto text = Root(*opt.sysroot).read("/etc/hostname", 4096);
    if (!text) return std::nullopt;
    for (const auto& line : split_lines(*text)) {
      const std::string_view name = trim(line);
      if (!name.empty() && name[0] != '#') return std::string(name.substr(0, 253));
    }
    return std::nullopt;
  }
  char buf[256] = {};  // HOST_NAME_MAX is 64 on Linux; macOS has no such macro
  if (::gethostname(buf, sizeof buf - 1) != 0) return std::nullopt;
  return std::string(buf);
}

namespace {

int write_metrics(const Options& opt, const MetricsInput& in) {
  const std::string why = write_output_file(*opt.prometheus, render_prometheus(in));
  if (why.empty()) return 0;
  print_error("--prometheus " + why);
  return kExitIoError;
}

}  // namespace

CheckClock CheckClock::now() {
  const auto wall = std::chrono::system_clock::now().time_since_epoch();
  return {std::chrono::duration<double>(wall).count(), std::chrono::steady_clock::now()};
}

double CheckClock::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::pair<std::string, std::string> node_name_and_source(const Options& opt,
                                                         const Environment& env) {
  // A report for a public ticket names no node: the name stays only where the fleet asks for
  // it (--node-name, --brief; check's --prometheus, whose metrics carry it).
  if (opt.command == Command::report && !opt.node_name && !opt.brief) return {"", ""};
  // SLURMD_NODENAME and NODE_NAME stay: the engine sets them for the node it runs on, also
  // when it looks at the host through --sysroot (the Kubernetes DaemonSet's /host).
  const auto n = resolve_node_name(opt.node_name, env, host_name(opt));
  if (!n) return {"", ""};
  return {n->name, n->source};
}

std::string node_name_for(const Options& opt, const Environment& env) {
  return node_name_and_source(opt, env).first;
}

std::string write_output_file(const std::string& path, const std::string& text) {
  return write_output(path, text);
}

int write_check_metrics(const Options& opt, const Environment& env, const Diagnosis& m,
                        const std::vector<Finding>& findings, const CheckClock& clock) {
  if (!opt.prometheus) return 0;
  const facts::Machine machine = facts::describe(m.snap, m.devices);
  MetricsInput in;
  in.machine = &machine;
  in.findings = &findings;
  in.node = node_name_for(opt, env);
  in.tool_version = kToolVersion;
  in.started_at = clock.started_at;
  in.duration = clock.elapsed();
  in.fail_on = opt.fail_on;
  return write_metrics(opt, in);
}

int check_could_not_run(const Options& opt, const Environment& env, const std::string& why,
                        const CheckClock& clock) {
  print_error(why);
  if (opt.oneline) write_stdout(render_oneline_unknown(why) + "\n");
  if (opt.prometheus) {
    MetricsInput in;
    in.node = node_name_for(opt, env);
    in.tool_version = kToolVersion;
    in.started_at = clock.started_at;
    in.duration = clock.elapsed();
    in.fail_on = opt.fail_on;
    write_metrics(opt, in);
  }
  return 2;
}

std::string oneline_for(const Diagnosis& m, const std::vector<Finding>& findings) {
  std::size_t gpus = 0;
  for (const auto& d : m.devices) {
    if (!d.software && (d.kind == DeviceKind::gpu || d.kind == DeviceKind::accelerator)) ++gpus;
  }
  return render_oneline(findings, gpus);
}

}  // namespace gpudoctor
