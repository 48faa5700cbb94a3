#include "machine_source.hpp"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "collect.hpp"
#include "file_io.hpp"
#include "input_files.hpp"
#include "progress_line.hpp"
#include "tool_version.hpp"

namespace gpudoctor {

namespace {

/// Where a tree records the environment it was captured in: `env` output, NAME=value a line
/// (tests/fixtures/README.md). Under --sysroot it is the environment the probes honour.
constexpr const char* kRecordedEnvironment = "/.gpudoctor/environment.txt";

bool variable_name(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) != 0) return false;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
  }
  return true;
}

/// The environment a tree recorded, or nullopt where it holds none. A line that is not
/// NAME=value (a blank, a `#` comment aside) is named in `origin.errors` and skipped.
std::optional<Environment> recorded_environment(const std::filesystem::path& root,
                                                EnvironmentOrigin& origin) {
  std::ifstream in(root.string() + kRecordedEnvironment);
  if (!in) return std::nullopt;
  std::map<std::string, std::string> vars;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    const std::string name = eq == std::string::npos ? "" : line.substr(0, eq);
    if (!variable_name(name)) {
      origin.errors.push_back(std::string(kRecordedEnvironment) + " line " + std::to_string(n) +
                              ": not NAME=value, skipped");
      continue;
    }
    vars[name] = line.substr(eq + 1);
  }
  origin.source = "recorded";
  origin.file = kRecordedEnvironment;
  return Environment(std::move(vars));
}

/// Under --sysroot, said on standard error: the tree's environment file had bad lines, or the
/// tree records none and the probes took the analysing machine's variables.
void say_environment(const std::string& sysroot, const EnvironmentOrigin& origin) {
  for (const auto& e : origin.errors) print_error("--sysroot " + sysroot + ": " + e);
  if (origin.source == "recorded" || origin.variables.empty()) return;
  std::string names;
  for (const auto& v : origin.variables) names += (names.empty() ? "" : ", ") + v;
  print_error("--sysroot " + sysroot + " records no environment (" +
              std::string(kRecordedEnvironment + 1) + "): took " + names +
              " from this machine's environment");
}

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
  if (!opt.sysroot) return collect(req, env);
  // A tree is another machine: its own recorded environment where it has one; else this
  // machine's, with every variable the probes took from it named (a fresh copy counts them).
  EnvironmentOrigin origin;
  std::optional<Environment> probe_env = recorded_environment(req.root, origin);
  if (!probe_env) {
    origin.source = "this machine";
    probe_env = Environment(env.vars());
  }
  Snapshot snap = collect(req, *probe_env);
  origin.variables = probe_env->asked_and_set();
  // Said by `check`, whose verdict it is; query and report carry it in the snapshot.
  if (opt.command == Command::check) say_environment(*opt.sysroot, origin);
  snap.environment = std::move(origin);
  return snap;
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

Environment diagnosed_environment(const Options& opt, const Snapshot& snap,
                                  const Environment& env) {
  if (!opt.sysroot || opt.from || !snap.environment || snap.environment->source != "recorded") {
    return env;  // a tree with no record: the variables the probes took are in snap.environment
  }
  EnvironmentOrigin ignored;
  auto recorded = recorded_environment(std::filesystem::absolute(*opt.sysroot), ignored);
  return recorded ? *recorded : env;
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
