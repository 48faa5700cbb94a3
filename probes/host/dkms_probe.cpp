#include "host/dkms_probe.hpp"

#include "parse/dkms_log.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// The DKMS packages of GPU drivers: those whose kernel module is a GPU driver's.
bool gpu_module(const std::string& package) {
  const std::string m = dkms_kernel_module(package);
  return m == "nvidia" || m == "amdgpu" || m == "i915" || m == "xe";
}

/// At most this much of a make.log is read (a failed build's log is a few hundred KB).
constexpr std::size_t kMaxMakeLogBytes = 4u << 20;

}  // namespace

std::vector<DkmsBuild> probe_dkms_builds(const ProbeContext& ctx) {
  std::vector<DkmsBuild> out;
  const Root& root = ctx.root;
  const std::string tree = "/var/lib/dkms";
  // Loaded or not is known where /sys/module or /proc/modules could be read.
  const auto modules = root.read("/proc/modules");
  const bool modules_known = root.is_directory("/sys/module") || modules.has_value();
  for (const auto& module : root.list(tree)) {
    if (!gpu_module(module)) continue;
    for (const auto& version : root.list(tree + "/" + module)) {
      const std::string vdir = tree + "/" + module + "/" + version;
      const std::string path = vdir + "/build/make.log";
      FileText file = root.read_file(path, kMaxMakeLogBytes);
      if (!file.text) continue;
      const DkmsMakeLog log = parse_dkms_make_log(*file.text);
      DkmsBuild b;
      b.module = module;
      b.version = version;
      b.log = path;
      b.kernel = log.kernel;
      b.errors = log.errors;
      b.kernel_compiler = log.kernel_compiler;
      b.compiler_here = log.compiler_here;
      if (log.kernel) {
        // DKMS keeps what it built under <version>/<kernel>/<arch>/module.
        bool built = false;
        for (const auto& arch : root.list(vdir + "/" + *log.kernel)) {
          built = built || root.is_directory(vdir + "/" + *log.kernel + "/" + arch + "/module");
        }
        b.built = built;
        b.kernel_installed = root.is_directory("/lib/modules/" + *log.kernel) ||
                             root.is_directory("/usr/lib/modules/" + *log.kernel);
      }
      b.failed = log.failed || b.built == std::optional<bool>(false);
      const std::string name = dkms_kernel_module(module);
      if (modules_known) {
        b.module_loaded = root.exists("/sys/module/" + name + "/initstate") ||
                          (modules && (starts_with(*modules, name + " ") ||
                                       modules->find("\n" + name + " ") != std::string::npos));
      }
      out.push_back(std::move(b));
    }
  }
  return out;
}

}  // namespace gpudoctor
