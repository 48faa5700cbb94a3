#include "python/python_envs.hpp"

#include <algorithm>

#include "parse/python_env_files.hpp"
#include "python/python_packages.hpp"
#include "core/paths.hpp"
#include "text.hpp"

namespace gpudoctor::python {

namespace {

/// (major, minor) of "3.11.2", for ordering; {0, 0} when it does not parse.
std::pair<std::uint64_t, std::uint64_t> version_key(const std::string& v) {
  auto parts = split_words(v, ".");
  auto num = [&](std::size_t i) { return i < parts.size() ? parse_uint(parts[i]).value_or(0) : 0; };
  return {num(0), num(1)};
}

std::string major_minor(const std::string& v) {
  auto parts = split_words(v, ".");
  return parts.size() >= 2 ? parts[0] + "." + parts[1] : v;
}

bool is_system_prefix(const std::string& p) {
  return p == "/usr" || p == "/usr/local" || p == "/opt/homebrew" ||
         starts_with(p, "/Library/Frameworks/Python.framework/") ||
         starts_with(p, "/System/Library/Frameworks/Python.framework/");
}

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

}  // namespace

struct EnvCollector::Versions {
  std::vector<std::string> lib_versions;  ///< "3.10", "3.11" from lib/pythonX.Y, ascending
  std::optional<std::string> primary;     ///< "3.11"
  std::optional<std::string> full;        ///< "3.11.2" where a file says so
  std::optional<std::string> from;
};

EnvCollector::Versions EnvCollector::find_versions(const std::string& prefix,
                                                   const std::optional<std::string>& exe_real,
                                                   PythonEnv& env) {
  const Root& root = ctx_.root;
  Versions v;
  std::optional<std::string> libpython;
  for (std::string lib : {"lib", "lib64"}) {
    const std::string libdir = join_path(prefix, lib);
    for (const std::string& name : root.list(libdir)) {
      const std::string path = join_path(libdir, name);
      if (auto ver = python_version_from_name(name)) {
        // conda ships lib/python3.1 as a link to lib/python3.11: only real directories count.
        if (!root.link_target(path) && root.is_directory(path)) add_unique(v.lib_versions, *ver);
      } else if (!libpython && lib == "lib") {
        libpython = python_version_from_libpython(name);
      }
    }
  }
  std::sort(
      v.lib_versions.begin(), v.lib_versions.end(),
      [](const std::string& a, const std::string& b) { return version_key(a) < version_key(b); });
  auto take = [&](std::optional<std::string> version, const char* from) {
    if (v.primary || !version) return;
    v.full = version;
    v.primary = major_minor(*version);
    v.from = from;
  };
  take(env.python_version, "pyvenv.cfg");
  const std::string conda_meta = join_path(prefix, "conda-meta");
  if (env.kind == "conda") {
    for (const std::string& name : root.list(conda_meta))
      take(python_version_from_conda_meta(name), "conda-meta");
  }
  if (exe_real) take(python_version_from_name(file_name(*exe_real)), "executable name");
  take(libpython, "libpython");
  if (!v.lib_versions.empty()) take(v.lib_versions.back(), "lib directory");
  return v;
}

PythonEnv* EnvCollector::env_at(const std::string& prefix) {
  for (auto& e : info_.envs) {
    if (e.prefix == prefix) return &e;
  }
  return nullptr;
}

bool EnvCollector::claim(const std::string& site_dir) { return claimed_.insert(site_dir).second; }

void EnvCollector::add_prefix(const std::string& prefix, const std::string& found_by,
                              std::optional<std::string> executable,
                              std::optional<std::string> kind, bool explicit_source) {
  const Root& root = ctx_.root;
  const std::string real = root.resolve(prefix);
  if (PythonEnv* known = env_at(real)) {
    add_unique(known->found_by, found_by);
    if (!known->python_executable) known->python_executable = executable;
    return;
  }
  if (!root.is_directory(real)) {
    if (explicit_source) info_.errors.push_back(found_by + " " + prefix + ": not a directory");
    return;
  }
  PythonEnv env;
  env.prefix = real;
  env.found_by = {found_by};
  auto cfg_text = root.read(join_path(real, "pyvenv.cfg"), 64 * 1024);
  if (cfg_text) {
    PyvenvCfg cfg = parse_pyvenv_cfg(*cfg_text);
    env.python_version = cfg.version;  // taken first by find_versions
    env.base_home = cfg.home;
    env.include_system_site_packages = cfg.include_system_site_packages;
  }
  env.kind = kind                                               ? *kind
             : cfg_text                                         ? "venv"
             : root.is_directory(join_path(real, "conda-meta")) ? "conda"
             : is_system_prefix(real)                           ? "system"
                                                                : "path";
  if (!executable) {
    for (const char* rel : {"bin/python3", "bin/python", "python.exe", "Scripts/python.exe"}) {
      const std::string candidate = join_path(real, rel);
      if (root.exists(root.resolve(candidate))) {
        executable = candidate;
        break;
      }
    }
  }
  std::optional<std::string> exe_real;
  if (executable) {
    env.python_executable = executable;
    exe_real = root.resolve(*executable);
    // 32 KiB reach the load commands of each slice of a universal interpreter.
    if (auto head = root.read(*exe_real, 32 * 1024)) {
      env.executable_archs = binary_archs(*head);
      env.executable_macos_sdk = macho_macos_sdk(*head);
    }
  }
  Versions v = find_versions(real, exe_real, env);
  env.python_version = v.full;
  env.python_version_from = v.from;

  auto site_dirs = [&](const std::vector<std::string>& rels) {
    std::vector<std::string> out;
    for (const std::string& rel : rels) {
      const std::string dir = root.resolve(rel.front() == '/' ? rel : join_path(real, rel));
      if (root.is_directory(dir) && claim(dir)) out.push_back(dir);
    }
    return out;
  };
  auto versioned = [&](const std::string& ver) {
    std::vector<std::string> rels = {"lib/python" + ver + "/site-packages",
                                     "lib/python" + ver + "/dist-packages",
                                     "lib64/python" + ver + "/site-packages"};
    // Debian: pip's system-wide installs for /usr/bin/python3 go to /usr/local/…/dist-packages.
    if (real == "/usr") rels.push_back("/usr/local/lib/python" + ver + "/dist-packages");
    return site_dirs(rels);
  };

  PythonEnv primary = env;
  primary.site_packages = site_dirs({"lib/python3/dist-packages", "Lib/site-packages"});
  if (v.primary) {
    for (auto& d : versioned(*v.primary)) primary.site_packages.push_back(d);
  }
  if (!primary.site_packages.empty() || primary.python_executable || explicit_source) {
    info_.envs.push_back(std::move(primary));
  }
  for (const std::string& ver : v.lib_versions) {
    if (ver == v.primary) continue;
    auto dirs = versioned(ver);
    if (dirs.empty()) continue;
    PythonEnv other = env;
    other.python_executable.reset();
    other.executable_archs.reset();
    other.executable_macos_sdk.reset();
    other.python_version = ver;
    other.python_version_from = "lib directory";
    other.site_packages = std::move(dirs);
    info_.envs.push_back(std::move(other));
  }
}

void EnvCollector::add_site_dir(const std::string& dir, const std::string& prefix,
                                const std::string& kind, const std::string& found_by,
                                std::optional<std::string> version) {
  const Root& root = ctx_.root;
  const std::string real = root.resolve(dir);
  if (!root.is_directory(real)) {
    if (found_by == "--python-env")
      info_.errors.push_back(found_by + " " + dir + ": not a directory");
    return;
  }
  if (!claim(real)) {
    for (auto& e : info_.envs) {
      if (std::find(e.site_packages.begin(), e.site_packages.end(), real) !=
          e.site_packages.end()) {
        add_unique(e.found_by, found_by);
      }
    }
    return;
  }
  PythonEnv env;
  env.kind = kind;
  env.prefix = root.resolve(prefix);
  env.found_by = {found_by};
  env.python_version = version;
  if (version) env.python_version_from = "directory name";
  env.site_packages = {real};
  info_.envs.push_back(std::move(env));
}

void EnvCollector::scan_packages() {
  std::optional<KerasConfig> keras;
  for (auto& env : info_.envs) {
    for (const auto& dir : env.site_packages) {
      for (auto& pkg : scan_site_packages(ctx_.root, dir, info_.errors)) {
        if (pkg.name == "keras") {
          if (!keras) keras = read_keras_config(ctx_, info_.errors);
          pkg.keras = keras;
        }
        env.packages.push_back(std::move(pkg));
      }
    }
  }
}

}  // namespace gpudoctor::python
