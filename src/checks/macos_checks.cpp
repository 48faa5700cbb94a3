// macOS itself: Rosetta, the version a process is told, DYLD_LIBRARY_PATH under SIP, and CUDA's
// end on the Mac.
#include "checks/macos_checks.hpp"

#include <algorithm>

#include "checks/check_util.hpp"
#include "compat/compat_query.hpp"

namespace gpudoctor {

namespace macos_detail {

std::optional<Version> macos_version(const Snapshot& s) {
  if (!s.macos || !s.macos->product_version) return std::nullopt;
  return parse_version(*s.macos->product_version);
}

bool x86_only(const PythonEnv& env) {
  if (!env.executable_archs || env.executable_archs->empty()) return false;
  const auto& a = *env.executable_archs;
  return std::find(a.begin(), a.end(), "arm64") == a.end() &&
         std::find(a.begin(), a.end(), "x86_64") != a.end();
}

}  // namespace macos_detail

namespace {

using namespace macos_detail;

std::vector<const PythonEnv*> python_envs(const Snapshot& s) {
  std::vector<const PythonEnv*> out;
  if (s.python) {
    for (const auto& e : s.python->envs) out.push_back(&e);
  }
  return out;
}

/// Where SIP protects the executables: DYLD_* variables never reach them.
bool sip_protected(const std::string& path) {
  for (const char* dir : {"/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/", "/System/"}) {
    if (starts_with(path, dir)) return true;
  }
  return false;
}

}  // namespace

void check_macos_rosetta_python(const CheckSpec& self, const CheckInput& in,
                                std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  if (!s.macos || s.macos->arm64 != std::optional<bool>(true)) return;
  if (s.macos->translated == std::optional<bool>(true)) {
    Finding f = make_finding(self, Severity::warn,
                             "This shell runs under Rosetta: every universal binary it starts "
                             "(python3, pip) runs as x86_64, without MPS or tensorflow-metal");
    f.id = "macos.rosetta_shell";
    f.evidence.push_back("sysctl.proc_translated: 1 on Apple silicon (hw.optional.arm64: 1)");
    f.fix =
        "open the terminal without \"Open using Rosetta\" (Finder → Get Info on the terminal "
        "app), or run the command as: arch -arm64 <command>";
    out.push_back(std::move(f));
  }
  for (const PythonEnv* env : python_envs(s)) {
    if (!x86_only(*env)) continue;
    // Not "no MPS": an x86_64 torch under Rosetta reaches MPS (pytorch/pytorch#146236), and
    // tensorflow-metal published x86_64 wheels up to 1.0.0 (PyPI).
    Finding f = make_finding(self, Severity::fail,
                             "The Python of " + env_label(*env) +
                                 " is an x86_64 binary: on Apple silicon it runs translated by "
                                 "Rosetta, and pip gives it x86_64 wheels (none of the releases "
                                 "published for arm64 only, such as tensorflow-metal after 1.0)");
    f.evidence.push_back(env->python_executable.value_or(env->prefix) + ": Mach-O " +
                         join(*env->executable_archs, ", "));
    f.evidence.push_back(s.macos->cpu_brand ? "CPU: " + *s.macos->cpu_brand
                                            : std::string("hw.optional.arm64: 1"));
    f.fix = env->kind == "conda"
                ? "recreate the environment with arm64 packages: CONDA_SUBDIR=osx-arm64 conda "
                  "create -n <name> python=" +
                      env->python_version.value_or("<version>") +
                      " (or install Miniforge3-MacOSX-arm64 from "
                      "https://github.com/conda-forge/miniforge)"
                : "install an arm64 (or universal2) Python, e.g. Miniforge3-MacOSX-arm64 from "
                  "https://github.com/conda-forge/miniforge or the python.org universal2 "
                  "installer, and recreate the environment with it";
    out.push_back(std::move(f));
  }
}

void check_macos_version_compat(const CheckSpec& self, const CheckInput& in,
                                std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  auto version = macos_version(s);
  if (!version || version->parts.at(0) < 11) return;  // 10.x has no compatibility version
  const auto compat = s.macos->system_version_compat;
  if (compat == std::optional<std::string>("0")) return;
  const bool forced = compat == std::optional<std::string>("1");
  const std::size_t before = out.size();
  for (const PythonEnv* env : python_envs(s)) {
    auto sdk = env->executable_macos_sdk ? parse_version(*env->executable_macos_sdk) : std::nullopt;
    const bool old_sdk = sdk && sdk->parts.at(0) < 11;
    if (!forced && !old_sdk) continue;
    const std::string python = env->python_executable.value_or(env->prefix + "/bin/python");
    Finding f = make_finding(self, Severity::warn,
                             "The Python of " + env_label(*env) +
                                 " is told macOS 10.16 instead "
                                 "of " +
                                 version->text +
                                 ": pip rejects wheels tagged macosx_11_0 "
                                 "and later as \"not a supported wheel on this platform\"");
    f.evidence.push_back("sw_vers ProductVersion: " + version->text);
    if (forced) f.evidence.push_back("SYSTEM_VERSION_COMPAT=1 is set");
    if (old_sdk) {
      f.evidence.push_back(python + " was built with the macOS " + sdk->text +
                           " SDK (macOS answers 10.16 to such programs)");
    }
    f.fix = forced ? "unset SYSTEM_VERSION_COMPAT (remove it from ~/.zshrc), then pip install again"
                   : "SYSTEM_VERSION_COMPAT=0 " + python +
                         " -m pip install <package> (or export "
                         "SYSTEM_VERSION_COMPAT=0 in ~/.zshrc)";
    out.push_back(std::move(f));
  }
  if (out.size() > before) return;
  // A paste shows what the Python was told (collect_env's "Python platform: macOS-10.16-…").
  for (const Symptom& told : s.symptoms) {
    if (told.id != "python.macos_10_16") continue;
    Finding f = make_finding(self, Severity::warn,
                             "The Python in the paste is told macOS 10.16 instead of " +
                                 version->text +
                                 ": pip rejects wheels tagged macosx_11_0 and later as \"not a "
                                 "supported wheel on this platform\"");
    f.evidence.push_back("sw_vers ProductVersion: " + version->text);
    f.evidence.push_back("Python platform: " + told.values.at("platform"));
    f.fix = "SYSTEM_VERSION_COMPAT=0 python -m pip install <package> (or export "
            "SYSTEM_VERSION_COMPAT=0 in ~/.zshrc); for good, a Python built with the macOS 11 "
            "SDK or later";
    out.push_back(std::move(f));
    return;
  }
}

void check_macos_dyld_library_path(const CheckSpec& self, const CheckInput& in,
                                   std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  if (!s.macos || !s.macos->dyld_library_path || s.macos->dyld_library_path->empty()) return;
  const std::string dyld = *s.macos->dyld_library_path;
  std::vector<std::string> protected_pythons;
  for (const PythonEnv* env : python_envs(s)) {
    if (env->python_executable && sip_protected(*env->python_executable)) {
      protected_pythons.push_back(*env->python_executable);
    }
  }
  auto dirs = split_path_list(dyld);
  // A CUDA toolkit whose libraries only this variable leads to: seed 002's Jupyter lost it.
  const CudaToolkit* cuda = nullptr;
  std::string cuda_dir;
  if (s.nvidia) {
    for (const auto& t : s.nvidia->toolkits) {
      for (const auto& d : dirs) {
        for (const std::string& base : {t.path, t.real_path.value_or(t.path)}) {
          if (!cuda && (d == base + "/lib" || d == base + "/lib/")) {
            cuda = &t;
            cuda_dir = d;
          }
        }
      }
    }
  }
  const bool hits_python = !protected_pythons.empty();
  const std::string first = dirs.empty() ? "<dir>" : dirs.front();
  if (cuda) {
    const std::string version = cuda->version.value_or("");
    auto v = parse_version(version);
    const std::string cudart =
        v && v->parts.size() >= 2
            ? "libcudart." + std::to_string(v->parts[0]) + "." + std::to_string(v->parts[1]) +
                  ".dylib"
            : "libcudart.<version>.dylib";
    Finding f = make_finding(
        self, Severity::warn,
        "The CUDA libraries in " + cuda_dir + " are found only through DYLD_LIBRARY_PATH, and "
            "SIP strips it from every program started through a protected one (/bin/sh, "
            "/bin/bash, /usr/bin/env" +
            (hits_python ? ", " + join(protected_pythons, ", ") : std::string()) +
            "): a Jupyter kernel or a `#!/usr/bin/env python` script started that way fails "
            "with \"Library not loaded: @rpath/" + cudart + "\"");
    f.evidence.push_back("DYLD_LIBRARY_PATH=" + dyld);
    f.evidence.push_back("CUDA toolkit " + (version.empty() ? std::string("?") : version) +
                         " at " + cuda->path);
    f.fix = "record the directory in the binary that loads the library, which SIP does not "
            "strip: install_name_tool -add_rpath " + cuda_dir +
            " <the framework's .so or .dylib that needs " + cudart +
            ">; for Jupyter, also set the variable in the kernel's kernel.json \"env\" "
            "(jupyter kernelspec list shows where it is; "
            "https://jupyter-client.readthedocs.io/en/stable/kernels.html#kernel-specs)" +
            (hits_python ? "; and use a Python outside /usr/bin (python.org, Homebrew, conda)"
                         : "");
    out.push_back(std::move(f));
    return;
  }
  Finding f = make_finding(
      self, hits_python ? Severity::warn : Severity::info,
      hits_python ? "DYLD_LIBRARY_PATH is set, but " + join(protected_pythons, ", ") +
                        " is protected by SIP and never sees it: libraries it names (e.g. "
                        "libcudart) are \"Library not loaded\" there"
                  : "DYLD_LIBRARY_PATH is set: it reaches programs started directly from this "
                    "shell, but SIP strips it from protected programs (/bin/sh, /usr/bin/env, "
                    "/usr/bin/python3) and everything they start (scripts, Jupyter kernels)");
  f.evidence.push_back("DYLD_LIBRARY_PATH=" + dyld);
  f.fix = "record the directory in the binary instead: install_name_tool -add_rpath " + first +
          " <the program or .so that loads the library>" +
          (hits_python ? "; or use a Python outside /usr/bin (python.org, Homebrew, conda)" : "");
  out.push_back(std::move(f));
}

void check_macos_cuda(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  if (!s.macos) return;
  std::vector<std::string> seen;
  for (const auto& g : s.macos->gpus) {
    if (g.vendor == std::optional<std::string>("NVIDIA"))
      seen.push_back(g.name.value_or("NVIDIA GPU"));
  }
  if (s.nvidia) {
    for (const auto& t : s.nvidia->toolkits)
      seen.push_back("CUDA toolkit " + t.version.value_or(t.path));
  }
  const CudaPlatformEnd* end = last_cuda_for(in.compat, CompatOs::kMacos);
  if (seen.empty() || !end) return;
  const std::string last = end->last_cuda.text;
  Finding f = make_finding(self, Severity::info,
                           "CUDA on macOS ends with CUDA " + last +
                               ": no newer toolkit or driver exists for the Mac, and frameworks "
                               "ship no macOS CUDA builds");
  f.evidence = seen;
  if (auto v = macos_version(s)) f.evidence.push_back("macOS " + v->text);
  f.fix = "keep CUDA ≤ " + last +
          " with its matching CUDA driver on this Mac and build frameworks from source, or use "
          "the GPU under Linux (or Apple silicon with Metal: MPS, tensorflow-metal)";
  out.push_back(std::move(f));
}

}  // namespace gpudoctor
