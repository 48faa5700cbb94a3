#include "machine_source.hpp"

#include <filesystem>

#include "collect.hpp"
#include "file_io.hpp"
#include "json_pull.hpp"
#include "paste/read_pasted.hpp"
#include "progress_line.hpp"
#include "snapshot_io.hpp"
#include "report_command.hpp"
#include "tool_version.hpp"

namespace gpudoctor {

std::variant<Machine, std::string> load_machine(const Options& opt, const Environment& env) {
  Machine m;
  if (opt.from) {
    if (*opt.from == "-") {
      // Standard input is read once: parsed as a report while it streams, and what was read
      // kept, so that text pasted from a ticket can be taken for one when it is no report.
      auto opened = open_input("-", kMaxReportBytes);
      if (auto* why = std::get_if<std::string>(&opened)) return "--from " + *why;
      JsonPull::Refill inner = std::get<InputFile>(opened).refill();
      std::string seen;
      JsonLimits limits;
      limits.max_bytes = kMaxReportBytes;
      auto loaded = snapshot_from_json_input(
          [&](char* buf, std::size_t size) {
            const std::size_t n = inner(buf, size);
            seen.append(buf, n);
            return n;
          },
          limits);
      if (auto* problem = std::get_if<std::string>(&loaded)) {
        // Refused at once when what came so far is neither (a NUL, /dev/zero).
        if (looks_like_json(seen) || !looks_like_text(seen)) return "--from -: " + *problem;
        try {
          char buf[1 << 16];
          while (const std::size_t n = inner(buf, sizeof buf)) {
            seen.append(buf, n);
            if (seen.size() > kMaxReportBytes) return "--from -: cannot be read (larger than 256 MiB)";
          }
        } catch (const std::exception& e) {
          return std::string("--from -: ") + e.what();
        }
        m.pasted = std::move(seen);
        return m;
      }
      m.snap = std::move(std::get<Snapshot>(loaded));
    } else {
      auto loaded = read_snapshot_file(*opt.from);
      if (auto* why = std::get_if<std::string>(&loaded)) {
        // Not a report: text pasted from a ticket, unless it was meant as JSON.
        std::string ignored;
        auto text = read_text_file(*opt.from, ignored);
        if (!text || looks_like_json(*text) || !looks_like_text(*text)) return "--from " + *why;
        m.pasted = std::move(*text);
        return m;
      }
      m.snap = std::move(std::get<Snapshot>(loaded));
    }
  } else {
    CollectRequest req;
    req.backends = opt.backends;
    req.timeout = opt.timeout;
    if (opt.deadline_s) {
      req.deadline = std::chrono::milliseconds(static_cast<long>(*opt.deadline_s * 1000.0));
    }
    req.tool_version = kToolVersion;
    req.smoke =
        (opt.command == Command::check || opt.command == Command::report) && !opt.no_smoke;
    for (const auto& dir : opt.python_envs) {
      // Under --sysroot the directory is a path on the target; otherwise make it absolute here.
      req.python_env_dirs.push_back(opt.sysroot ? dir : std::filesystem::absolute(dir).string());
    }
    if (opt.sysroot) {
      std::error_code ec;
      if (!std::filesystem::is_directory(*opt.sysroot, ec)) {
        return "--sysroot " + *opt.sysroot + ": not a directory";
      }
      req.root = std::filesystem::absolute(*opt.sysroot);
      req.live = false;  // even `--sysroot /`: the README promises files only
    }
    // On a terminal, what a slow driver keeps the run waiting for (not where the output is
    // for a program: --json, --oneline).
    const bool for_people =
        (opt.command == Command::check || opt.command == Command::query) && !opt.json &&
        !opt.oneline;
    std::optional<ProgressLine> progress =
        for_people ? ProgressLine::on_stderr(env) : std::optional<ProgressLine>();
    if (progress) req.progress = [&](const std::vector<RunningJob>& jobs) { progress->update(jobs); };
    m.snap = collect(req, env);
  }
  m.devices = merge_devices(m.snap);
  return m;
}

}  // namespace gpudoctor
