#include "host/service_log_probe.hpp"

#include <algorithm>
#include <string_view>

#include "host/slurm_conf.hpp"
#include "parse/slurm_gres.hpp"
#include "paste/kernel_log.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// At most this much of a log is read: its end, where the daemon's last start is.
constexpr std::size_t kMaxServiceLogBytes = 2u << 20;
/// At most this many of its GPU lines are read.
constexpr std::size_t kMaxServiceLogLines = 4000;

/// The places Slurm's packages and its default configuration write the daemons' logs
/// (SlurmdLogFile, SlurmctldLogFile: https://slurm.schedmd.com/slurm.conf.html); a cluster that
/// names others in slurm.conf is read at those too (probe_service_logs).
constexpr const char* kSlurmLogs[] = {"/var/log/slurm/slurmd.log",    "/var/log/slurmd.log",
                                     "/var/log/slurm-llnl/slurmd.log", "/var/log/slurm/slurmctld.log",
                                     "/var/log/slurmctld.log", "/var/log/slurm-llnl/slurmctld.log"};

/// The lines since the daemon's last start ("slurmd version 23.11.4 started"): what an earlier
/// run logged was fixed or is gone.
std::string_view since_last_start(std::string_view log) {
  std::size_t at = std::string_view::npos;
  for (std::size_t from = 0;;) {
    const std::size_t hit = log.find(" started", from);
    if (hit == std::string_view::npos) break;
    const std::size_t line = log.rfind('\n', hit);
    const std::size_t begin = line == std::string_view::npos ? 0 : line + 1;
    const std::string_view head = log.substr(begin, hit - begin);
    if (head.find("slurmd version") != std::string_view::npos ||
        head.find("slurmctld version") != std::string_view::npos) {
      at = begin;
    }
    from = hit + 1;
  }
  return at == std::string_view::npos ? log : log.substr(at);
}

/// A line about GPUs or generic resources: the only ones the knowledge reads.
bool gpu_line(std::string_view line) {
  const std::string l = to_lower(std::string(line));
  return l.find("gres") != std::string::npos || l.find("gpu") != std::string::npos ||
         l.find("mig") != std::string::npos || l.find("nvml") != std::string::npos ||
         l.find("rsmi") != std::string::npos;
}

/// The log file names slurm.conf gives (SlurmdLogFile=, SlurmctldLogFile=); a name with
/// %-placeholders ("%h.log") is not followed.
std::vector<std::string> configured_logs(const ProbeContext& ctx) {
  std::vector<std::string> out;
  const auto conf = read_slurm_conf(ctx.root, "slurm.conf");
  if (!conf) return out;
  for (const char* key : {"SlurmdLogFile", "SlurmctldLogFile"}) {
    auto value = slurm_conf_value(conf->text, key);
    if (value && starts_with(*value, "/") && value->find('%') == std::string::npos) {
      out.push_back(std::move(*value));
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> probe_service_logs(const ProbeContext& ctx,
                                            std::vector<Symptom>& symptoms) {
  std::vector<std::string> files = configured_logs(ctx);
  for (const char* path : kSlurmLogs) {
    if (std::find(files.begin(), files.end(), path) == files.end()) files.push_back(path);
  }
  std::vector<std::string> read;
  for (const auto& path : files) {
    FileText file = ctx.root.read_tail(path, kMaxServiceLogBytes);
    if (!file.text) continue;
    read.push_back(path);
    for (auto& s : log_symptoms(since_last_start(*file.text), gpu_line, kMaxServiceLogLines,
                                "service_log", path)) {
      // A line no entry knows is not said as a failure here: the daemon's own log holds many.
      if (s.id != "stated.failure") symptoms.push_back(std::move(s));
    }
  }
  return read;
}

}  // namespace gpudoctor
