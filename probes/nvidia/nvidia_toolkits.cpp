#include <algorithm>
#include <functional>
#include <map>

#include "nvidia/nvidia_readers.hpp"
#include "parse/c_headers.hpp"
#include "parse/nvidia_toolkit.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kTriplets[] = {"x86_64-linux-gnu", "aarch64-linux-gnu",
                                     "powerpc64le-linux-gnu"};

/// Where one install keeps its libraries, headers and package records.
struct Layout {
  std::vector<std::string> lib_dirs;
  std::vector<std::string> include_dirs;
  std::map<std::string, std::string> wheels;  ///< wheel base name → version
  std::map<std::string, std::string> conda;   ///< conda package → version
};

Layout toolkit_layout(const Root& paths, const std::string& dir) {
  Layout l;
  for (const char* sub : {"lib64", "lib"}) l.lib_dirs.push_back(join_path(dir, sub));
  for (const char* t : kTriplets) l.lib_dirs.push_back(join_path(dir, std::string("lib/") + t));
  l.include_dirs.push_back(join_path(dir, "include"));
  for (const auto& t : paths.list(join_path(dir, "targets"))) {
    l.lib_dirs.push_back(join_path(dir, "targets/" + t + "/lib"));
    l.include_dirs.push_back(join_path(dir, "targets/" + t + "/include"));
  }
  l.wheels = nvidia_wheel_versions(paths, join_path(dir, "dist-info"));  // assembled from wheels
  l.conda = conda_package_versions(paths, dir);
  return l;
}

/// site-packages/nvidia: one folder per wheel (cuda_runtime, cublas, cudnn, nccl, cu13, …).
Layout wheel_layout(const Root& paths, const std::string& nvidia_dir) {
  Layout l;
  for (const auto& sub : paths.list(nvidia_dir)) {
    l.lib_dirs.push_back(join_path(nvidia_dir, sub + "/lib"));
    l.include_dirs.push_back(join_path(nvidia_dir, sub + "/include"));
  }
  l.wheels = nvidia_wheel_versions(paths, parent_path(nvidia_dir));
  return l;
}

std::vector<std::string> lib_names(const Root& paths, const Layout& l) {
  std::vector<std::string> names;
  for (const auto& d : l.lib_dirs) {
    for (auto& n : paths.list(d)) names.push_back(std::move(n));
  }
  return names;
}

std::optional<std::string> from_headers(const Root& paths, const Layout& l,
                                        std::initializer_list<const char*> files,
                                        const std::function<std::optional<std::string>(
                                            std::string_view)>& parse) {
  for (const char* f : files) {
    for (const auto& d : l.include_dirs) {
      if (auto text = paths.read(join_path(d, f))) {
        if (auto v = parse(*text)) return v;
      }
    }
  }
  return std::nullopt;
}

template <typename Map>
std::optional<std::string> lookup(const Map& m, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    auto it = m.find(k);
    if (it != m.end() && !it->second.empty()) return it->second;
  }
  return std::nullopt;
}

/// First non-empty answer, in the order given.
std::optional<std::string> first_of(
    std::initializer_list<std::function<std::optional<std::string>()>> sources) {
  for (const auto& s : sources) {
    if (auto v = s()) return v;
  }
  return std::nullopt;
}

void fill_versions(const ProbeContext& ctx, const Root& paths, const Layout& l,
                   const std::string& dir, CudaToolkit& t) {
  std::map<std::string, std::string> vj;
  if (auto text = paths.read(join_path(dir, "version.json"))) vj = parse_cuda_version_json(*text);
  const auto names = lib_names(paths, l);
  // A file name counts early only when it is complete (libcudart.so.12.6.77); a bare
  // soname (libcudart.so.13) is the last resort.
  auto full_name = [&](const char* stem) -> std::optional<std::string> {
    auto v = best_library_version(names, stem);
    if (v && version_parts(*v) >= 3) return v;
    return std::nullopt;
  };
  auto any_name = [&](const char* stem) { return best_library_version(names, stem); };

  auto set_version = [&](std::optional<std::string> v, const char* source) {
    if (v && !t.version) {
      t.version = std::move(v);
      t.version_source = source;
    }
  };
  set_version(lookup(vj, {"cuda"}), "version.json");
  if (auto text = paths.read(join_path(dir, "version.txt"))) {
    set_version(parse_cuda_version_txt(*text), "version.txt");
  }
  set_version(lookup(l.wheels, {"nvidia_cuda_nvcc"}), "dist-info");
  set_version(lookup(l.conda, {"cuda-nvcc", "cudatoolkit", "cuda-version"}), "conda-meta");
  if (!t.version && t.nvcc && ctx.live) {
    if (auto out = run_nvcc_version(*t.nvcc)) set_version(parse_nvcc_version(*out), "nvcc");
  }
  if (!t.version) {
    set_version(from_headers(paths, l, {"cuda.h"},
                             [](std::string_view h) {
                               return parse_cuda_version_macro(h, "CUDA_VERSION");
                             }),
                "cuda.h");
  }
  // A runtime alone (a container image's /usr/local/cuda-8.0 with only libcudart.so.8.0.61):
  // libcudart's complete file version is the CUDA release it belongs to (same major.minor),
  // which is what the driver minimums are looked up by.
  set_version(full_name("libcudart.so"), "libcudart");

  t.cudart_version = first_of({
      [&] { return lookup(vj, {"cuda_cudart"}); },
      [&] { return full_name("libcudart.so"); },
      [&] { return lookup(l.wheels, {"nvidia_cuda_runtime"}); },
      [&] { return lookup(l.conda, {"cuda-cudart", "cudatoolkit"}); },
      [&] {
        return from_headers(paths, l, {"cuda_runtime_api.h"}, [](std::string_view h) {
          return parse_cuda_version_macro(h, "CUDART_VERSION");
        });
      },
      [&] { return any_name("libcudart.so"); },
  });
  t.cublas_version = first_of({
      [&] { return lookup(vj, {"libcublas"}); },
      [&] { return full_name("libcublas.so"); },
      [&] { return lookup(l.wheels, {"nvidia_cublas"}); },
      [&] { return lookup(l.conda, {"libcublas"}); },
      [&] { return from_headers(paths, l, {"cublas_api.h"}, parse_cublas_header); },
      [&] { return any_name("libcublas.so"); },
  });
  t.cudnn_version = first_of({
      [&] { return from_headers(paths, l, {"cudnn_version.h", "cudnn.h"}, parse_cudnn_header); },
      [&] { return lookup(l.wheels, {"nvidia_cudnn"}); },
      [&] { return lookup(l.conda, {"cudnn"}); },
      [&] { return any_name("libcudnn.so"); },
  });
  t.nccl_version = first_of({
      [&] { return from_headers(paths, l, {"nccl.h"}, parse_nccl_header); },
      [&] { return lookup(l.wheels, {"nvidia_nccl"}); },
      [&] { return lookup(l.conda, {"nccl"}); },
      [&] { return any_name("libnccl.so"); },
  });
}

bool has_library(const Root& paths, const Layout& l, const char* stem) {
  for (const auto& d : l.lib_dirs) {
    for (const auto& n : paths.list(d)) {
      if (n == stem || starts_with(n, std::string(stem) + ".")) return true;
    }
  }
  return false;
}

/// The installs found so far, keyed by real path so that every route to one folder merges.
class Toolkits {
 public:
  Toolkits(const ProbeContext& ctx, const Root& paths) : ctx_(ctx), paths_(paths) {
    if (paths.link_target("/usr/local/cuda") || paths.is_directory("/usr/local/cuda")) {
      default_ = paths.resolve("/usr/local/cuda");
    }
  }

  /// A CUDA toolkit folder (runfile, deb/rpm, /usr from a distribution, or a conda prefix).
  void add_dir(const std::string& dir, const std::string& source) {
    if (merge(dir, source)) return;
    if (!paths_.is_directory(dir)) return;
    Layout l = toolkit_layout(paths_, dir);
    CudaToolkit t = start(dir, source);
    if (paths_.exists(join_path(dir, "bin/nvcc"))) t.nvcc = join_path(dir, "bin/nvcc");
    const bool looks_like_one =
        t.nvcc || paths_.exists(join_path(dir, "version.json")) ||
        paths_.exists(join_path(dir, "version.txt")) || has_library(paths_, l, "libcudart.so") ||
        lookup(l.conda, {"cudatoolkit", "cuda-cudart", "cuda-nvcc", "cudnn"}) ||
        paths_.exists(join_path(dir, "include/cudnn_version.h"));
    if (!looks_like_one) return;
    fill_versions(ctx_, paths_, l, dir, t);
    for (const auto& inc : l.include_dirs) {
      if (auto h = paths_.read(join_path(inc, "crt/math_functions.h"))) {
        t.cospi_exception_spec = cuda_cospi_has_exception_spec(*h);
        break;
      }
    }
    for (const auto& d : l.lib_dirs) {
      if (paths_.exists(join_path(d, "stubs/libcuda.so"))) {
        t.stub_libcuda = join_path(d, "stubs/libcuda.so");
        break;
      }
    }
    list_.push_back(std::move(t));
  }

  /// site-packages/nvidia from pip's nvidia-* wheels.
  void add_wheels(const std::string& nvidia_dir) {
    if (merge(nvidia_dir, "pip")) return;
    if (!paths_.is_directory(nvidia_dir)) return;
    Layout l = wheel_layout(paths_, nvidia_dir);
    if (l.lib_dirs.empty()) return;
    CudaToolkit t = start(nvidia_dir, "pip");
    for (const char* sub : {"cuda_nvcc/bin/nvcc", "cu13/bin/nvcc"}) {
      if (paths_.exists(join_path(nvidia_dir, sub))) t.nvcc = join_path(nvidia_dir, sub);
    }
    fill_versions(ctx_, paths_, l, nvidia_dir, t);
    list_.push_back(std::move(t));
  }

  std::vector<CudaToolkit> take() { return std::move(list_); }

 private:
  CudaToolkit start(const std::string& dir, const std::string& source) {
    CudaToolkit t;
    t.path = dir;
    t.source = source;
    t.found_by = {source};
    t.real_path = paths_.resolve(dir);
    t.default_symlink = default_ && *default_ == *t.real_path;
    return t;
  }

  bool merge(const std::string& dir, const std::string& source) {
    const std::string real = paths_.resolve(dir);
    for (auto& t : list_) {
      if (t.real_path != real) continue;
      if (std::find(t.found_by.begin(), t.found_by.end(), source) == t.found_by.end()) {
        t.found_by.push_back(source);
      }
      return true;
    }
    return false;
  }

  const ProbeContext& ctx_;
  const Root& paths_;
  std::optional<std::string> default_;
  std::vector<CudaToolkit> list_;
};

/// site-packages folders of a Python prefix (venv, conda env, or the interpreter on PATH).
std::vector<std::string> site_packages(const Root& paths, const std::string& prefix) {
  std::vector<std::string> out;
  for (const char* lib : {"lib", "lib64", "local/lib"}) {
    const std::string base = join_path(prefix, lib);
    for (const auto& py : paths.list(base)) {
      if (!starts_with(py, "python3")) continue;
      for (const char* kind : {"site-packages", "dist-packages"}) {
        const std::string sp = join_path(base, py + "/" + kind);
        if (paths.is_directory(sp)) out.push_back(sp);
      }
    }
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> nvidia_wheel_versions(const Root& paths,
                                                         const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& entry : paths.list(dir)) {
    if (!starts_with(to_lower(entry), "nvidia")) continue;
    auto pkg = parse_dist_info_name(entry);
    if (!pkg) continue;
    std::string version = pkg->version;
    if (auto meta = paths.read(join_path(join_path(dir, entry), "METADATA"), 64 * 1024)) {
      if (auto v = parse_wheel_metadata_version(*meta)) version = *v;
    }
    out.emplace(wheel_base_name(pkg->name), version);
  }
  return out;
}

std::map<std::string, std::string> conda_package_versions(const Root& paths,
                                                          const std::string& prefix) {
  std::map<std::string, std::string> out;
  for (const auto& f : paths.list(join_path(prefix, "conda-meta"))) {
    if (auto pkg = parse_conda_meta_name(f)) out.emplace(pkg->name, pkg->version);
  }
  return out;
}

InstallDirs toolkit_dirs(const Root& paths, const CudaToolkit& t) {
  const Layout l = t.source == "pip" ? wheel_layout(paths, t.path) : toolkit_layout(paths, t.path);
  return {l.lib_dirs, l.include_dirs};
}

std::vector<CudaToolkit> find_cuda_toolkits(const ProbeContext& ctx, const Root& paths) {
  Toolkits found(ctx, paths);
  std::vector<std::string> versioned;
  for (const auto& name : paths.list("/usr/local")) {
    if (starts_with(name, "cuda-")) versioned.push_back(name);
  }
  // cuda-9.0 before cuda-11.8: by the numbers in the name, not by its letters.
  std::stable_sort(versioned.begin(), versioned.end(), [](const std::string& a,
                                                          const std::string& b) {
    auto pa = split_words(std::string_view(a).substr(5), ".");
    auto pb = split_words(std::string_view(b).substr(5), ".");
    for (std::size_t i = 0; i < pa.size() && i < pb.size(); ++i) {
      auto x = parse_uint(pa[i]);
      auto y = parse_uint(pb[i]);
      if (x && y && *x != *y) return *x < *y;
      if (!x || !y) return pa[i] < pb[i];
    }
    return pa.size() < pb.size();
  });
  for (const auto& name : versioned) found.add_dir("/usr/local/" + name, "/usr/local");
  found.add_dir("/usr/local/cuda", "/usr/local");
  found.add_dir("/opt/cuda", "/opt");
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (auto v = ctx.env.get_nonempty(var); v && v->front() == '/') found.add_dir(*v, var);
  }
  if (auto nvcc = find_on_path(ctx, paths, "nvcc")) {
    found.add_dir(parent_path(parent_path(paths.resolve(*nvcc))), "PATH");
  }

  // Python environments: conda prefixes hold toolkit pieces themselves; any prefix may hold
  // pip's nvidia-* wheels.
  std::vector<std::string> prefixes;
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    if (auto v = ctx.env.get_nonempty(var); v && v->front() == '/') prefixes.push_back(*v);
  }
  if (auto conda = ctx.env.get_nonempty("CONDA_PREFIX"); conda && conda->front() == '/') {
    found.add_dir(*conda, "conda");
  }
  if (auto python = find_on_path(ctx, paths, "python3")) {
    // A conda installation's own python, even when no environment is activated.
    const std::string prefix = parent_path(parent_path(*python));
    if (paths.is_directory(join_path(prefix, "conda-meta"))) found.add_dir(prefix, "conda");
    prefixes.push_back(prefix);
  }
  for (const auto& prefix : prefixes) {
    for (const auto& sp : site_packages(paths, prefix)) {
      found.add_wheels(join_path(sp, "nvidia"));
    }
  }
  return found.take();
}

}  // namespace gpudoctor
