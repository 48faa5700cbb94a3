#include "machine_source.hpp"

#include <filesystem>

#include "collect.hpp"
#include "input_files.hpp"
#include "progress_line.hpp"
#include "tool_version.hpp"

namespace gpudoctor {

namespace {

/// This machine, or the tree --sysroot names, probed.
std::variant<Snapshot, std::string> probe_machine(const Options& opt, const Environment& env) {
  CollectRequest req;
  req.backends = opt.backends;
  req.timeout = opt.timeout;
  if (opt.deadline_s) {
    req.deadline = std::chrono::milliseconds(static_cast<long>(*opt.deadline_s * 1000.0));
  }
  req.tool_version = kToolVersion;
  req.smoke = (opt.command == Command::check || opt.command == Command::report) && !opt.no_smoke;
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
  // On a terminal, what a slow driver keeps the run waiting for (not where the output is for a
  // program: --json, --oneline).
  const bool for_people =
      (opt.command == Command::check || opt.command == Command::query) && !opt.json && !opt.oneline;
  std::optional<ProgressLine> progress =
      for_people ? ProgressLine::on_stderr(env) : std::optional<ProgressLine>();
  if (progress) req.progress = [&](const std::vector<RunningJob>& jobs) { progress->update(jobs); };
  return collect(req, env);
}

}  // namespace

std::variant<Diagnosis, std::string> diagnose_machine(const Options& opt, const Environment& env) {
  if (!opt.from) {
    auto probed = probe_machine(opt, env);
    if (auto* why = std::get_if<std::string>(&probed)) return std::move(*why);
    return diagnose(std::move(std::get<Snapshot>(probed)));
  }
  auto d = diagnose_file(*opt.from);
  if (auto* why = std::get_if<std::string>(&d)) return "--from " + *why;
  return d;
}

std::variant<Diagnosis, std::string> diagnose_file(const std::string& path) {
  auto read = read_from(path);
  if (auto* why = std::get_if<std::string>(&read)) return std::move(*why);
  if (auto* pasted = std::get_if<PastedText>(&read)) {
    Diagnosis d = diagnose_paste(std::move(pasted->text));
    d.snap.tool_version = kToolVersion;
    return d;
  }
  RecordedMachine& m = std::get<RecordedMachine>(read);
  if (m.brief_findings) return diagnose_recorded(std::move(m.snap), std::move(*m.brief_findings));
  return diagnose(std::move(m.snap));
}

}  // namespace gpudoctor
