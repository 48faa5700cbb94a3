// The CUDA runtime libraries a framework or program may load, wherever they are installed, and
// which copy the dynamic loader hands a program that brings no rpath of its own.
#include <map>
#include <set>

#include "core/library_search.hpp"
#include "nvidia/nvidia_readers.hpp"
#include "parse/nvidia_toolkit.hpp"
#include "parse/python_env_files.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// One library: its file stem, the header that states its version, the pip wheel and the conda
/// packages that carry it.
struct LibrarySpec {
  const char* library;
  const char* stem;
  const char* header;  ///< nullptr: none states the full version
  std::optional<std::string> (*parse_header)(std::string_view);
  const char* wheel;   ///< base name as wheel_base_name gives it
  std::initializer_list<const char*> conda;
  const char* version_json;  ///< its component in a toolkit's version.json
};

const LibrarySpec kLibraries[] = {
    {"cudart", "libcudart.so", nullptr, nullptr, "nvidia_cuda_runtime", {"cuda-cudart", "cudatoolkit"}, "cuda_cudart"},
    {"cublas", "libcublas.so", "cublas_api.h", parse_cublas_header, "nvidia_cublas", {"libcublas"}, "libcublas"},
    {"cublasLt", "libcublasLt.so", "cublas_api.h", parse_cublas_header, "nvidia_cublas", {"libcublas"}, "libcublas"},
    {"cudnn", "libcudnn.so", "cudnn_version.h", parse_cudnn_header, "nvidia_cudnn", {"cudnn"}, nullptr},
    {"nccl", "libnccl.so", "nccl.h", parse_nccl_header, "nvidia_nccl", {"nccl"}, nullptr},
    {"cufft", "libcufft.so", nullptr, nullptr, "nvidia_cufft", {"libcufft"}, "libcufft"},
    {"curand", "libcurand.so", nullptr, nullptr, "nvidia_curand", {"libcurand"}, "libcurand"},
    {"cusolver", "libcusolver.so", nullptr, nullptr, "nvidia_cusolver", {"libcusolver"}, "libcusolver"},
    {"cusparse", "libcusparse.so", nullptr, nullptr, "nvidia_cusparse", {"libcusparse"}, "libcusparse"},
    {"nvrtc", "libnvrtc.so", nullptr, nullptr, "nvidia_cuda_nvrtc", {"cuda-nvrtc"}, "cuda_nvrtc"},
    {"nvJitLink", "libnvJitLink.so", nullptr, nullptr, "nvidia_nvjitlink", {"libnvjitlink"}, "libnvjitlink"},
    {"cupti", "libcupti.so", nullptr, nullptr, "nvidia_cuda_cupti", {"cuda-cupti"}, "cuda_cupti"},
};

/// A directory to look in, and the install it belongs to.
struct Place {
  std::string dir;
  std::string found_in;                ///< "toolkit", "conda", "pip", "loader"
  std::optional<std::string> install;  ///< toolkit path, conda prefix, wheel folder
  std::vector<std::string> include_dirs;
  std::map<std::string, std::string> packages;  ///< wheel base name or conda package → version
};

/// site-packages/nvidia/<part>/lib of one site-packages directory.
void add_wheel_places(const Root& paths, const std::string& site, std::vector<Place>& out) {
  const std::string nvidia = join_path(site, "nvidia");
  if (!paths.is_directory(nvidia)) return;
  const auto versions = nvidia_wheel_versions(paths, site);
  for (const auto& part : paths.list(nvidia)) {
    const std::string dir = join_path(nvidia, part);
    out.push_back({join_path(dir, "lib"), "pip", dir, {join_path(dir, "include")}, versions});
  }
}

/// Conda environments: CONDA_PREFIX, the environments conda recorded in environments.txt, and
/// /opt/conda (the usual prefix of container images). Each one's lib/ and its pip wheels.
void add_conda_places(const ProbeContext& ctx, const Root& paths, std::vector<Place>& out) {
  std::vector<std::string> prefixes;
  if (auto v = ctx.env.get_nonempty("CONDA_PREFIX"); v && v->front() == '/') prefixes.push_back(*v);
  if (auto home = ctx.env.get_nonempty("HOME")) {
    if (auto text = paths.read(join_path(*home, ".conda/environments.txt"))) {
      for (auto& p : parse_conda_environments(*text)) prefixes.push_back(std::move(p));
    }
  }
  prefixes.emplace_back("/opt/conda");
  for (const auto& prefix : prefixes) {
    if (!paths.is_directory(join_path(prefix, "conda-meta"))) continue;
    out.push_back({join_path(prefix, "lib"), "conda", prefix, {join_path(prefix, "include")},
                   conda_package_versions(paths, prefix)});
    for (const auto& py : paths.list(join_path(prefix, "lib"))) {
      if (starts_with(py, "python3")) {
        add_wheel_places(paths, join_path(prefix, "lib/" + py + "/site-packages"), out);
      }
    }
  }
}

std::optional<std::string> header_version(const Root& paths, const Place& place,
                                          const LibrarySpec& spec) {
  if (!spec.header) return std::nullopt;
  for (const auto& dir : place.include_dirs) {
    for (const char* h : {spec.header, std::string_view(spec.header) == "cudnn_version.h"
                                           ? "cudnn.h" : spec.header}) {
      if (auto text = paths.read(join_path(dir, h))) {
        if (auto v = spec.parse_header(*text)) return v;
      }
    }
  }
  return std::nullopt;
}

/// The version of one file: its full file name, the header of its install, the package record,
/// and last the number the name carries (at least the soname's major).
void fill_version(const Root& paths, const Place& place, const LibrarySpec& spec,
                  CudaLibrary& lib) {
  auto name_v = library_name_version(lib.name, spec.stem);
  auto real_v = lib.real_path ? library_name_version(file_name(*lib.real_path), spec.stem)
                              : std::nullopt;
  auto set = [&](std::optional<std::string> v, const char* from) {
    if (!lib.version && v) {
      lib.version = std::move(v);
      lib.version_from = from;
    }
  };
  if (name_v && version_parts(*name_v) >= 3) set(name_v, "file name");
  if (real_v && version_parts(*real_v) >= 3) set(real_v, "file name");
  set(header_version(paths, place, spec), spec.header);
  if (place.found_in == "pip") {
    auto it = place.packages.find(spec.wheel);
    if (it != place.packages.end()) set(it->second, "dist-info");
  } else if (place.found_in == "toolkit") {
    auto it = spec.version_json ? place.packages.find(spec.version_json) : place.packages.end();
    if (it != place.packages.end()) set(it->second, "version.json");
    it = place.packages.find(spec.wheel);
    if (it != place.packages.end()) set(it->second, "dist-info");
  } else {
    for (const char* c : spec.conda) {
      // cudatoolkit's version is the CUDA release: only libcudart shares it.
      if (std::string_view(c) == "cudatoolkit" && std::string_view(spec.library) != "cudart") {
        continue;
      }
      auto it = place.packages.find(c);
      if (it != place.packages.end()) set(it->second, "conda-meta");
    }
  }
  set(real_v ? real_v : name_v, "file name");
}

}  // namespace

std::vector<CudaLibrary> find_cuda_libraries(const ProbeContext& ctx, const Root& paths,
                                             const std::vector<CudaToolkit>& toolkits) {
  std::vector<Place> places;
  for (const auto& t : toolkits) {
    if (t.source == "pip") {
      add_wheel_places(paths, parent_path(t.path), places);
      continue;
    }
    const InstallDirs dirs = toolkit_dirs(paths, t);
    const std::string kind = t.source == "conda" ? "conda" : "toolkit";
    std::map<std::string, std::string> packages;
    if (kind == "conda") {
      packages = conda_package_versions(paths, t.path);
    } else {
      // The toolkit's components (cuda_cudart, libcublas, … in version.json) and, for one
      // assembled from pip wheels, their records (nvidia_cuda_runtime, … in dist-info).
      if (auto text = paths.read(join_path(t.path, "version.json"))) {
        packages = parse_cuda_version_json(*text);
      }
      packages.merge(nvidia_wheel_versions(paths, join_path(t.path, "dist-info")));
    }
    for (const auto& d : dirs.lib_dirs) {
      places.push_back({d, kind, t.path, dirs.include_dirs, packages});
    }
  }
  add_conda_places(ctx, paths, places);
  const LibrarySearch search(ctx.root, ctx.env);
  std::map<std::string, std::size_t> loader_order;  // resolved directory → its place in the order
  for (const auto& d : search.directories()) {
    loader_order.emplace(paths.resolve(d), loader_order.size());
    places.push_back({d, "loader", std::nullopt, {}, {}});
  }

  std::vector<CudaLibrary> out;
  std::set<std::string> seen_dirs;
  std::map<std::string, std::optional<std::string>> sonames;  // by real path
  for (const auto& place : places) {
    const std::string real_dir = paths.resolve(place.dir);
    if (!seen_dirs.insert(real_dir).second) continue;
    for (const auto& name : paths.list(place.dir)) {
      for (const auto& spec : kLibraries) {
        if (!library_name_version(name, spec.stem)) continue;
        CudaLibrary lib;
        lib.library = spec.library;
        lib.name = name;
        lib.path = join_path(place.dir, name);
        const std::string real = paths.resolve(lib.path);
        if (paths.exists(real)) lib.real_path = real;
        lib.found_in = place.found_in;
        lib.install = place.install;
        lib.on_loader_path = loader_order.count(real_dir) != 0;
        fill_version(paths, place, spec, lib);
        if (lib.real_path) {
          auto [it, fresh] = sonames.emplace(*lib.real_path, std::nullopt);
          if (fresh) {
            if (auto dyn = read_elf_dynamic(paths, *lib.real_path)) it->second = dyn->soname;
          }
          lib.soname = it->second;
        }
        out.push_back(std::move(lib));
      }
    }
  }
  // What a program that names the library without a path gets: the first directory, in the
  // loader's order, that holds a file of that name.
  std::map<std::string, std::pair<std::size_t, CudaLibrary*>> first;
  for (auto& lib : out) {
    if (!lib.on_loader_path) continue;
    const std::size_t order = loader_order.at(paths.resolve(parent_path(lib.path)));
    auto [it, fresh] = first.emplace(lib.name, std::make_pair(order, &lib));
    if (!fresh && order < it->second.first) it->second = {order, &lib};
  }
  for (auto& [name, pick] : first) pick.second->loader_pick = true;
  return out;
}

}  // namespace gpudoctor
