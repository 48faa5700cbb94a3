#include "machine_source.hpp"

#include <filesystem>

#include "collect.hpp"
#include "report_command.hpp"
#include "tool_version.hpp"

namespace gpudoctor {

std::variant<Machine, std::string> load_machine(const Options& opt, const Environment& env) {
  Machine m;
  if (opt.from) {
    auto loaded = read_snapshot_file(*opt.from);
    if (auto* why = std::get_if<std::string>(&loaded)) return "--from " + *why;
    m.snap = std::move(std::get<Snapshot>(loaded));
  } else {
    CollectRequest req;
    req.backends = opt.backends;
    req.timeout = opt.timeout;
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
    }
    m.snap = collect(req, env);
  }
  m.devices = merge_devices(m.snap);
  return m;
}

}  // namespace gpudoctor
