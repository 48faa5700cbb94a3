#include "python/python_probe.hpp"

#include <algorithm>

#include "parse/python_env_files.hpp"
#include "python/python_envs.hpp"
#include "core/paths.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

using python::EnvCollector;

/// The interpreter a pyenv shim runs: PYENV_VERSION, else $PYENV_ROOT/version; nullopt for
/// "system" (pyenv then runs the next python3 on PATH) or a version that is not installed.
std::optional<std::string> pyenv_python(const ProbeContext& ctx, const std::string& shims) {
  const std::string pyenv_root = ctx.env.get_nonempty("PYENV_ROOT").value_or(parent_path(shims));
  std::optional<std::string> version;
  if (auto v = ctx.env.get_nonempty("PYENV_VERSION")) {
    auto list = split_path_list(*v);
    if (!list.empty()) version = list.front();
  } else if (auto line = ctx.root.read_line(join_path(pyenv_root, "version"))) {
    auto words = split_words(*line);
    if (!words.empty()) version = words.front();
  }
  if (!version || *version == "system") return std::nullopt;
  const std::string exe = join_path(pyenv_root, "versions/" + *version + "/bin/python3");
  if (!ctx.root.exists(ctx.root.resolve(exe))) return std::nullopt;
  return exe;
}

/// What `python3` runs: the first absolute PATH entry that has one.
std::optional<std::string> python3_on_path(const ProbeContext& ctx) {
  auto path = ctx.env.get_nonempty("PATH");
  if (!path) return std::nullopt;
  for (const std::string& dir : split_path_list(*path)) {
    if (dir.front() != '/') continue;  // relative entries depend on the working directory
    const std::string candidate = join_path(dir, "python3");
    const std::string real = ctx.root.resolve(candidate);
    if (!ctx.root.exists(real) || ctx.root.is_directory(real)) continue;
    if (file_name(dir) == "shims" &&
        ctx.root.is_directory(join_path(parent_path(dir), "versions"))) {
      if (auto chosen = pyenv_python(ctx, dir)) return chosen;
      continue;
    }
    return candidate;
  }
  return std::nullopt;
}

/// An interpreter's prefix: the venv whose pyvenv.cfg sits beside its directory or one level
/// up (Python looks there before following the link), else the real file's prefix.
std::string interpreter_prefix(const Root& root, const std::string& exe) {
  const std::string bin = root.resolve(parent_path(exe));
  if (root.exists(join_path(bin, "pyvenv.cfg"))) return bin;
  if (root.exists(join_path(parent_path(bin), "pyvenv.cfg"))) return parent_path(bin);
  const std::string real_dir = parent_path(root.resolve(exe));
  return file_name(real_dir) == "bin" ? parent_path(real_dir) : real_dir;
}

bool holds_distributions(const Root& root, const std::string& dir) {
  for (const std::string& name : root.list(dir)) {
    if (ends_with(name, ".dist-info") || ends_with(name, ".egg-info")) return true;
  }
  return false;
}

/// --python-env DIR: a prefix, a …/lib/pythonX.Y/site-packages directory, or any directory
/// that holds distributions (pip install --target).
/// A Python prefix of its own: a venv's pyvenv.cfg, a conda environment's conda-meta, or the
/// lib/pythonX.Y (Windows: Lib/site-packages) every installation has.
bool looks_like_prefix(const Root& root, const std::string& real) {
  if (root.exists(join_path(real, "pyvenv.cfg")) ||
      root.is_directory(join_path(real, "conda-meta")) ||
      root.is_directory(join_path(real, "Lib/site-packages"))) {
    return true;
  }
  for (const std::string& name : root.list(join_path(real, "lib"))) {
    if (python_version_from_name(name)) return true;
  }
  return false;
}

void add_python_env_dir(const ProbeContext& ctx, EnvCollector& envs, const std::string& dir) {
  const Root& root = ctx.root;
  const std::string real = root.resolve(dir);
  const std::string name = file_name(real);
  if (name == "site-packages" || name == "dist-packages") {
    const std::string pydir = parent_path(real);
    auto version = python_version_from_name(file_name(pydir));
    const std::string lib = file_name(parent_path(pydir));
    if (version && (lib == "lib" || lib == "lib64")) {
      const std::string prefix = parent_path(parent_path(pydir));
      envs.add_prefix(prefix, "--python-env", std::nullopt, std::nullopt, true);
      envs.add_site_dir(real, prefix, "path", "--python-env", version);
    } else {
      envs.add_site_dir(real, real, "path", "--python-env", std::nullopt);
    }
    return;
  }
  if (root.is_directory(real) && holds_distributions(root, real)) {
    envs.add_site_dir(real, real, "path", "--python-env", std::nullopt);
    return;
  }
  // A directory of environments (~/venvs, ~/.virtualenvs, a conda envs/): each one inside it.
  if (root.is_directory(real) && !looks_like_prefix(root, real)) {
    std::vector<std::string> inside;
    for (const std::string& name : root.list(real)) {
      if (looks_like_prefix(root, join_path(real, name))) inside.push_back(join_path(dir, name));
    }
    for (const auto& sub : inside) {
      envs.add_prefix(sub, "--python-env", std::nullopt, std::nullopt, true);
    }
    if (!inside.empty()) return;
  }
  envs.add_prefix(dir, "--python-env", std::nullopt, std::nullopt, true);
}

void add_user_sites(const ProbeContext& ctx, EnvCollector& envs, const std::string& home) {
  envs.add_prefix(join_path(home, ".local"), "user site", std::nullopt, "user");
  const std::string mac = join_path(home, "Library/Python");  // macOS: ~/Library/Python/3.11/…
  for (const std::string& ver : ctx.root.list(mac)) {
    const std::string prefix = join_path(mac, ver);
    envs.add_site_dir(join_path(prefix, "lib/python/site-packages"), prefix, "user", "user site",
                      ver);
  }
}

/// Without environments.txt: the installers' default places (Miniforge, Miniconda, Anaconda;
/// ~/opt/anaconda3 is the macOS graphical installer's) and the environments under each.
void add_conda_installs(const ProbeContext& ctx, EnvCollector& envs, const std::string& home) {
  for (const char* rel : {"miniforge3", "mambaforge", "miniconda3", "anaconda3", "opt/anaconda3",
                          "opt/miniconda3"}) {
    const std::string base = join_path(home, rel);
    if (!ctx.root.is_directory(base)) continue;
    envs.add_prefix(base, "conda install");
    for (const std::string& name : ctx.root.list(join_path(base, "envs"))) {
      envs.add_prefix(join_path(base, "envs/" + name), "conda install");
    }
  }
}

void add_conda_envs(const ProbeContext& ctx, EnvCollector& envs, PythonInfo& info,
                    const std::string& home) {
  const std::string file = join_path(home, ".conda/environments.txt");
  auto text = ctx.root.read(file);
  if (!text) {
    add_conda_installs(ctx, envs, home);
    return;
  }
  info.conda_envs_file = file;
  for (const std::string& prefix : parse_conda_environments(*text)) {
    envs.add_prefix(prefix, "environments.txt");
  }
}

/// The venvs a person keeps in a home directory without activating one: ~/.venv, ~/venv,
/// ~/env, a project's .venv/venv/env one level down (uv and poetry's in-project default,
/// `python -m venv .venv` in a checkout), and every environment in ~/.virtualenvs, ~/venvs,
/// ~/.pyenv/versions. Bounded: at most 256 entries of the home are looked into.
void add_home_venvs(const ProbeContext& ctx, EnvCollector& envs, const std::string& home) {
  const Root& root = ctx.root;
  // A directory named like a venv is one if it has a prefix's shape (a copied tree may have
  // lost its pyvenv.cfg); any other directory only with a pyvenv.cfg.
  auto venv_at = [&](const std::string& dir) {
    if (root.exists(join_path(dir, "pyvenv.cfg"))) envs.add_prefix(dir, "home directory");
  };
  auto named_venv_at = [&](const std::string& dir) {
    if (root.is_directory(dir) && looks_like_prefix(root, root.resolve(dir))) {
      envs.add_prefix(dir, "home directory");
    }
  };
  for (const char* rel : {".venv", "venv", "env"}) named_venv_at(join_path(home, rel));
  for (const char* rel : {".virtualenvs", "venvs", ".pyenv/versions"}) {
    const std::string dir = join_path(home, rel);
    for (const std::string& name : root.list(dir)) {
      const std::string prefix = join_path(dir, name);
      if (looks_like_prefix(root, root.resolve(prefix))) envs.add_prefix(prefix, "home directory");
    }
  }
  std::size_t looked = 0;
  for (const std::string& name : root.list(home)) {
    if (name.empty() || name.front() == '.') continue;
    if (++looked > 256) break;
    const std::string project = join_path(home, name);
    if (!root.is_directory(project)) continue;
    venv_at(project);
    for (const char* rel : {".venv", "venv", "env"}) named_venv_at(join_path(project, rel));
  }
}

/// Under --sysroot, the homes of the machine's people: /root and every directory of /home
/// (at most 64), each read as its owner's $HOME would be. On this machine only $HOME is read:
/// other accounts' environments are theirs.
std::vector<std::string> homes_to_read(const ProbeContext& ctx) {
  std::vector<std::string> homes;
  if (auto home = ctx.env.get_nonempty("HOME")) homes.push_back(*home);
  if (ctx.root.is_host()) return homes;
  auto add = [&](const std::string& h) {
    if (std::find(homes.begin(), homes.end(), h) == homes.end() && ctx.root.is_directory(h)) {
      homes.push_back(h);
    }
  };
  add("/root");
  std::size_t n = 0;
  for (const std::string& name : ctx.root.list("/home")) {
    if (++n > 64) break;
    add(join_path("/home", name));
  }
  return homes;
}

void add_standard_prefixes(const ProbeContext& ctx, EnvCollector& envs) {
  for (const char* prefix : {"/usr", "/usr/local", "/opt/conda", "/opt/homebrew"}) {
    envs.add_prefix(prefix, "standard location");
  }
  const std::string framework = "/Library/Frameworks/Python.framework/Versions";
  for (const std::string& ver : ctx.root.list(framework)) {
    if (ver != "Current") envs.add_prefix(join_path(framework, ver), "standard location");
  }
}

}  // namespace

PythonInfo probe_python(const ProbeContext& ctx, const std::vector<std::string>& extra_env_dirs) {
  PythonInfo info;
  EnvCollector envs(ctx, info);
  if (auto venv = ctx.env.get_nonempty("VIRTUAL_ENV")) {
    envs.add_prefix(*venv, "VIRTUAL_ENV", std::nullopt, std::nullopt, true);
  }
  if (auto conda = ctx.env.get_nonempty("CONDA_PREFIX")) {
    envs.add_prefix(*conda, "CONDA_PREFIX", std::nullopt, std::nullopt, true);
  }
  for (const std::string& dir : extra_env_dirs) add_python_env_dir(ctx, envs, dir);
  if (auto exe = python3_on_path(ctx)) {
    envs.add_prefix(interpreter_prefix(ctx.root, *exe), "PATH", *exe);
  }
  for (const std::string& home : homes_to_read(ctx)) {
    add_conda_envs(ctx, envs, info, home);
    add_user_sites(ctx, envs, home);
    add_home_venvs(ctx, envs, home);
  }
  add_standard_prefixes(ctx, envs);
  envs.scan_packages();
  return info;
}

}  // namespace gpudoctor
