// The CUDA libraries a framework loads at run time against what it was built with: which copy
// of libcudart / libcudnn TensorFlow's loader reaches (and whether any), and the CUDA of the
// toolkit torch builds extensions with.
#include <algorithm>
#include <set>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "checks/python_facts.hpp"
#include "compat/compat_query.hpp"
#include "compat/framework_libs.hpp"
#include "parse/python_requirement.hpp"

namespace gpudoctor {

namespace {

// The sonames TensorFlow's dso_loader asks for (cudart "11.0" for all of CUDA 11).
constexpr const char* kTfSonames =
    "https://github.com/tensorflow/tensorflow/blob/v2.7.0/third_party/gpus/cuda_configure.bzl";
constexpr const char* kTfCudnnRule =
    "https://github.com/tensorflow/tensorflow/blob/v2.7.0/tensorflow/stream_executor/cuda/"
    "cuda_dnn.cc";
constexpr const char* kTorchExtensions =
    "https://github.com/pytorch/pytorch/blob/main/torch/utils/cpp_extension.py";

std::string dir_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

std::string join_path(const std::string& dir, const std::string& name) {
  return dir.empty() || dir.back() == '/' ? dir + name : dir + "/" + name;
}

std::string strip_slash(std::string d) {
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  return d;
}

/// The file TensorFlow's dso_loader asks for: libcudart.so.11.0 for CUDA 11, libcudart.so.12
/// for 12, libcudart.so.10.1 before 11.
std::string tf_cudart_name(const Version& cuda) {
  const auto major = cuda.parts.at(0);
  if (major == 11) return "libcudart.so.11.0";
  if (major >= 12) return "libcudart.so." + std::to_string(major);
  return "libcudart.so." + std::to_string(major) + "." +
         std::to_string(cuda.parts.size() > 1 ? cuda.parts[1] : 0);
}

/// Where TensorFlow got a library from, and which copy.
struct Loaded {
  const CudaLibrary* lib;
  std::string how;
};

const CudaLibrary* in_dir(const std::vector<CudaLibrary>& libs, const std::string& dir,
                          const std::string& name) {
  const std::string d = strip_slash(dir);
  for (const auto& l : libs) {
    if (l.name == name && strip_slash(dir_of(l.path)) == d) return &l;
  }
  return nullptr;
}

/// What dlopen(name) from libtensorflow_framework.so.2 finds: the executable's DT_RPATH when
/// the library itself uses DT_RPATH (a conda python looks in its prefix's lib/), then
/// LD_LIBRARY_PATH, then its DT_RUNPATH (the nvidia-* wheels beside it), then ld.so.conf and
/// the default directories (ld.so(8)).
std::optional<Loaded> tf_finds(const NvidiaSystem& n, const std::vector<CudaLibrary>& libs,
                               const PythonEnv& env, const PythonPackage& tf,
                               const FrameworkLibrarySearch& search, const std::string& name) {
  if (search.tag == "DT_RPATH" && env.kind == "conda") {
    if (auto l = in_dir(libs, join_path(env.prefix, "lib"), name)) {
      return Loaded{l, "the conda python's own library path"};
    }
  }
  if (n.ld_library_path) {
    for (const auto& d : split_path_list(*n.ld_library_path)) {
      if (auto l = in_dir(libs, d, name)) return Loaded{l, "LD_LIBRARY_PATH"};
    }
  }
  for (const auto& wd : search.wheel_dirs) {
    if (auto l = in_dir(libs, join_path(tf.location, wd), name)) {
      return Loaded{l, "its runpath (pip's nvidia-* wheels)"};
    }
  }
  for (const auto& l : libs) {
    if (l.name == name && l.loader_pick) return Loaded{&l, "the loader's directories"};
  }
  return std::nullopt;
}

/// The cuDNN TensorFlow was compiled with: its and-cuda pin, else its tested build's.
std::optional<Version> tf_compiled_cudnn(const CompatData& data, const PythonPackage& tf,
                                         const Version& tf_version) {
  for (const auto& line : tf.requires_dist) {
    auto req = parse_requirement(line);
    if (!req || req->name.rfind("nvidia-cudnn-cu", 0) != 0) continue;
    if (auto pin = pinned_version(req->specifiers)) return pin;
    for (const auto& s : req->specifiers) {
      if (s.op == ">=") return s.version;
    }
  }
  auto tested = tensorflow_tested_build(data, tf_version, CompatOs::kLinux, true);
  if (tested && tested->cudnn && tested->cudnn->parts.size() >= 2) return tested->cudnn;
  return std::nullopt;
}

/// The CUDA libraries found, where there is a GPU for a framework to use them on (one bound on
/// PCI, or the NVIDIA kernel module loaded) and Python environments to judge; else null.
const std::vector<CudaLibrary>* framework_cuda_libraries(const Snapshot& s) {
  if (!s.python || !s.nvidia || !s.nvidia->cuda_libraries) return nullptr;
  const auto& mods = s.nvidia->kernel.loaded_modules;
  if (!usable_nvidia_gpu(s) && std::find(mods.begin(), mods.end(), "nvidia") == mods.end()) {
    return nullptr;
  }
  return &*s.nvidia->cuda_libraries;
}

/// Where a copy of `name` lies that TensorFlow does not search, for the fix.
const CudaLibrary* unreached_copy(const std::vector<CudaLibrary>& libs, const std::string& name) {
  for (const auto& l : libs) {
    if (l.name == name && !l.on_loader_path) return &l;
  }
  return nullptr;
}

std::string add_to_path_fix(const PythonEnv& env, const std::string& dir) {
  std::string fix = "export LD_LIBRARY_PATH=" + dir + ":$LD_LIBRARY_PATH";
  if (env.kind == "conda" && strip_slash(dir) == join_path(env.prefix, "lib")) {
    fix += "; to keep it for this environment: mkdir -p $CONDA_PREFIX/etc/conda/activate.d && "
           "echo 'export LD_LIBRARY_PATH=$CONDA_PREFIX/lib/:$LD_LIBRARY_PATH' >> "
           "$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh";
  }
  return fix;
}

}  // namespace

bool cudnn_runtime_compatible(const Version& loaded, const Version& compiled) {
  if (loaded.parts.empty() || compiled.parts.empty()) return true;
  if (loaded.parts[0] != compiled.parts[0]) return false;
  const auto minor = [](const Version& v) { return v.parts.size() > 1 ? v.parts[1] : 0u; };
  return minor(loaded) >= minor(compiled);
}

void check_tensorflow_cuda_libraries(const CheckSpec& self, const CheckInput& in,
                                     std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  const auto* found = framework_cuda_libraries(s);
  if (!found) return;
  const auto& libs = *found;
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      if (!p.tensorflow || p.tensorflow->is_cuda_build != true || windows_wheel(p)) continue;
      const auto& b = *p.tensorflow;
      auto tf_v = parse_version(p.version.value_or(""));
      auto cuda = parse_version(b.cuda_version.value_or(""));
      if (!tf_v || !cuda || !b.cudnn_version) continue;
      auto search = framework_library_search(in.compat, "tensorflow", *tf_v);
      if (!search) continue;  // how this release looks for them was not read: no guess
      const std::string label = p.name + " " + tf_v->text + " in " + env_label(env);
      const std::string names[] = {tf_cudart_name(*cuda), "libcudnn.so." + *b.cudnn_version};
      std::vector<std::string> missing;
      for (const auto& name : names) {
        if (!tf_finds(*s.nvidia, libs, env, p, *search, name)) missing.push_back(name);
      }
      if (!missing.empty()) {
        Finding f = make_finding(self, Severity::fail,
                                 label + " cannot load " + join(missing, " and ") +
                                     ": it prints \"Could not load dynamic library '" +
                                     missing.front() + "'\" and runs on the CPU only");
        f.evidence.push_back(b.file + ": cuda_version " + *b.cuda_version + ", cudnn_version " +
                             *b.cudnn_version);
        f.evidence.push_back("libtensorflow_framework.so.2 has " + search->tag +
                             (search->wheel_dirs.empty() ? " $ORIGIN/ only"
                                                         : " with the nvidia-* wheel folders"));
        f.evidence.push_back("LD_LIBRARY_PATH=" + s.nvidia->ld_library_path.value_or("(not set)"));
        std::vector<std::string> dirs;
        for (const auto& name : missing) {
          if (auto copy = unreached_copy(libs, name)) {
            f.evidence.push_back(name + " is in " + dir_of(copy->path) +
                                 ", which the loader does not search");
            if (std::find(dirs.begin(), dirs.end(), dir_of(copy->path)) == dirs.end()) {
              dirs.push_back(dir_of(copy->path));
            }
          } else {
            f.evidence.push_back("no " + name + " anywhere gpudoctor looked");
          }
        }
        if (!dirs.empty()) {
          f.fix = add_to_path_fix(env, join(dirs, ":"));
        } else if (!search->wheel_dirs.empty()) {
          f.fix = "pip install 'tensorflow[and-cuda]==" + numeric_string(*tf_v) + "'";
        } else {
          auto tested = tensorflow_tested_build(in.compat, *tf_v, CompatOs::kLinux, true);
          f.fix = "install CUDA " + *b.cuda_version + " and cuDNN " +
                  (tested && tested->cudnn ? tested->cudnn->text : *b.cudnn_version) +
                  " where the loader finds them (conda install -c conda-forge cudatoolkit=" +
                  *b.cuda_version + " cudnn=" +
                  (tested && tested->cudnn ? tested->cudnn->text : *b.cudnn_version) +
                  " in this environment, then add $CONDA_PREFIX/lib to LD_LIBRARY_PATH)";
        }
        f.source = kTfSonames;
        out.push_back(std::move(f));
        continue;
      }
      // The cuDNN it loads against the one it was built with.
      auto loaded = tf_finds(*s.nvidia, libs, env, p, *search, names[1]);
      auto have = loaded && loaded->lib->version ? parse_version(*loaded->lib->version) : std::nullopt;
      auto built = tf_compiled_cudnn(in.compat, p, *tf_v);
      if (!have || have->parts.size() < 2 || !built || cudnn_runtime_compatible(*have, *built)) {
        continue;
      }
      Finding f = make_finding(
          self, Severity::fail,
          label + " loads cuDNN " + have->text + " but was built with " + built->text +
              ": \"Loaded runtime CuDNN library: " + have->text +
              " but source was compiled with: " + built->text + "\", and every convolution fails");
      f.id = "python.tensorflow_cudnn_loaded";
      f.evidence.push_back("loaded through " + loaded->how + ": " +
                           loaded->lib->real_path.value_or(loaded->lib->path) + " (" +
                           loaded->lib->version_from.value_or("?") + ")");
      f.evidence.push_back("TensorFlow needs cuDNN " + std::to_string(built->parts[0]) +
                           ".x at least " + built->text);
      if (loaded->lib->found_in == "pip") {
        f.fix = "pip install 'tensorflow[and-cuda]==" + numeric_string(*tf_v) +
                "' (it installs the cuDNN wheel this release was built with)";
      } else {
        f.fix = "install cuDNN " + built->text + " or a newer " + std::to_string(built->parts[0]) +
                ".x in place of " + dir_of(loaded->lib->path) + "/" + loaded->lib->name +
                (search->wheel_dirs.empty()
                     ? ""
                     : ", or pip install 'tensorflow[and-cuda]==" + numeric_string(*tf_v) +
                           "' and take " + dir_of(loaded->lib->path) +
                           " out of LD_LIBRARY_PATH");
      }
      f.source = kTfCudnnRule;
      out.push_back(std::move(f));
    }
  }
}

void check_torch_extension_cuda(const CheckSpec& self, const CheckInput& in,
                                std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  if (!s.python || !s.nvidia) return;
  const NvidiaSystem& n = *s.nvidia;
  // torch.utils.cpp_extension._find_cuda_home: CUDA_HOME, CUDA_PATH, nvcc on PATH, /usr/local/cuda.
  std::optional<std::string> home = n.cuda_home ? n.cuda_home : n.cuda_path;
  std::string home_from = n.cuda_home ? "CUDA_HOME" : "CUDA_PATH";
  if (!home && n.nvcc_on_path) {
    home = dir_of(dir_of(*n.nvcc_on_path));
    home_from = "nvcc on PATH";
  }
  if (!home && n.usr_local_cuda) {
    home = "/usr/local/cuda";
    home_from = "/usr/local/cuda";
  }
  if (!home) return;
  // The toolkit at that folder: found through the same route, or at the same path.
  const std::string route = home_from == "nvcc on PATH" ? "PATH" : home_from;
  const CudaToolkit* tk = nullptr;
  for (const auto& t : n.toolkits) {
    const bool by_route = std::find(t.found_by.begin(), t.found_by.end(), route) != t.found_by.end();
    const bool by_link = home_from == "/usr/local/cuda" && t.default_symlink;
    if (by_route || by_link || strip_slash(t.path) == strip_slash(*home)) tk = &t;
  }
  auto nvcc_v = tk && tk->version ? parse_version(*tk->version) : std::nullopt;
  if (!nvcc_v || !tk->nvcc) return;
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      if (p.name != "torch" || !p.torch || !p.torch->cuda) continue;
      auto torch_cuda = parse_version(*p.torch->cuda);
      if (!torch_cuda || torch_cuda->parts.at(0) == nvcc_v->parts.at(0)) continue;
      const std::string nvcc_mm = std::to_string(nvcc_v->parts[0]) + "." +
                                  std::to_string(nvcc_v->parts.size() > 1 ? nvcc_v->parts[1] : 0);
      Finding f = make_finding(
          self, Severity::warn,
          "torch " + p.torch->version.value_or(p.version.value_or("?")) + " in " + env_label(env) +
              " is built with CUDA " + *p.torch->cuda + " but nvcc is CUDA " + nvcc_mm +
              ": building any CUDA extension stops with \"The detected CUDA version (" + nvcc_mm +
              ") mismatches the version that was used to compile PyTorch (" + *p.torch->cuda + ")\"");
      f.evidence.push_back("CUDA_HOME as torch finds it (" + home_from + "): " + *home);
      f.evidence.push_back(*tk->nvcc + ": CUDA " + nvcc_v->text + " (" +
                           tk->version_source.value_or("?") + ")");
      f.evidence.push_back("torch/version.py: cuda = " + *p.torch->cuda);
      std::string fix = "build with a CUDA " + std::to_string(torch_cuda->parts[0]) +
                        ".x toolkit: export CUDA_HOME=<its folder> (and put its bin/ first on "
                        "PATH)";
      for (const auto& t : n.toolkits) {
        auto v = t.version ? parse_version(*t.version) : std::nullopt;
        if (v && t.nvcc && v->parts.at(0) == torch_cuda->parts[0]) {
          fix = "build with the CUDA " + v->text + " toolkit that is installed: export CUDA_HOME=" +
                t.path + " PATH=" + t.path + "/bin:$PATH";
          break;
        }
      }
      auto tv = parse_version(p.version.value_or(""));
      auto release = tv ? torch_release(in.compat, *tv) : std::nullopt;
      if (release) {
        for (const auto& build : release->cuda) {
          if (build.cuda.parts.at(0) != nvcc_v->parts[0]) continue;
          fix += ", or install the torch build for CUDA " + build.cuda.text +
                 ": pip install --force-reinstall torch==" + numeric_string(*tv) +
                 " --index-url https://download.pytorch.org/whl/cu" +
                 std::to_string(build.cuda.parts[0]) +
                 std::to_string(build.cuda.parts.size() > 1 ? build.cuda.parts[1] : 0);
          break;
        }
      }
      f.fix = fix;
      f.source = kTorchExtensions;
      out.push_back(std::move(f));
    }
  }
}

void check_wheel_library_shadowed(const CheckSpec& self, const CheckInput& in,
                                  std::vector<Finding>& out) {
  if (!in.snap.nvidia || !in.snap.nvidia->cuda_libraries || !in.snap.nvidia->ld_library_path) return;
  const NvidiaSystem& n = *in.snap.nvidia;
  std::vector<std::string> ldp;
  for (const auto& d : split_path_list(*n.ld_library_path)) ldp.push_back(strip_slash(d));
  // A pip nvidia-* wheel's library is found by its dependants through their RUNPATH
  // ($ORIGIN/../../nvjitlink/lib, …), which ld.so searches after LD_LIBRARY_PATH: a copy of the
  // same name in an LD_LIBRARY_PATH directory wins, and an older one lacks the wheel's symbols.
  std::set<std::string> said;
  for (const auto& wheel : *n.cuda_libraries) {
    if (wheel.found_in != "pip" || !wheel.version) continue;
    const auto wheel_version = parse_version(*wheel.version);
    if (!wheel_version) continue;
    for (const auto& copy : *n.cuda_libraries) {
      if (copy.name != wheel.name || copy.found_in == "pip" || !copy.version) continue;
      const std::string dir = strip_slash(dir_of(copy.path));
      if (std::find(ldp.begin(), ldp.end(), dir) == ldp.end()) continue;
      const auto copy_version = parse_version(*copy.version);
      if (!copy_version || compare_versions(*copy_version, *wheel_version) >= 0) continue;
      if (!said.insert(copy.name).second) continue;
      Finding f = make_finding(
          self, Severity::fail,
          "LD_LIBRARY_PATH puts an older " + copy.name + " (" + *copy.version + ") before the " +
              *wheel.version + " of the pip wheel the framework's CUDA libraries were installed "
              "with: they load the older one and fail (undefined symbol …, version " +
              copy.name + ")");
      f.evidence.push_back("LD_LIBRARY_PATH=" + *n.ld_library_path);
      f.evidence.push_back("first: " + copy.path + " (" + *copy.version + ", " +
                           copy.version_from.value_or("?") + ")");
      f.evidence.push_back("the wheel's: " + wheel.path + " (" + *wheel.version + ")");
      const std::string rest = without_dir(*n.ld_library_path, dir);
      f.fix = "take " + dir + " out of LD_LIBRARY_PATH for the Python programs (" +
              (rest.empty() ? std::string("unset LD_LIBRARY_PATH") : "export LD_LIBRARY_PATH=" + rest) +
              "; look for it in ~/.bashrc, the environment's activate scripts or a module load): "
              "the wheels find their own libraries without it";
      f.source = "https://github.com/pytorch/pytorch/issues/152783";
      out.push_back(std::move(f));
    }
  }
}

namespace {

/// The libraries the CUDA library probe takes stock of (probes/nvidia/nvidia_cuda_libraries.cpp
/// kLibraries): a name outside them is not judged, since its absence from the inventory says
/// nothing.
bool inventoried(const std::string& soname) {
  static constexpr std::string_view kStems[] = {"libcudart.so.", "libcublas.so.", "libcublasLt.so.",
                                                "libcudnn.so.",  "libcufft.so.",  "libcurand.so.",
                                                "libnvrtc.so."};
  return std::any_of(std::begin(kStems), std::end(kStems),
                     [&](std::string_view s) { return starts_with(soname, s); });
}

/// A copy of `soname` this environment's process reaches: on the loader's path, or inside the
/// environment (its nvidia-* wheels, which torch's import loads first, or a conda prefix's lib/).
const CudaLibrary* reachable_copy(const std::vector<CudaLibrary>& libs, const PythonEnv& env,
                                  const std::string& soname) {
  for (const auto& l : libs) {
    if (l.name != soname && l.soname != std::optional<std::string>(soname)) continue;
    if (l.on_loader_path) return &l;
    if (l.found_in == "pip" && l.install &&
        std::any_of(env.site_packages.begin(), env.site_packages.end(),
                    [&](const std::string& site) { return starts_with(*l.install, site); })) {
      return &l;
    }
    if (l.found_in == "conda" && l.install && strip_slash(*l.install) == strip_slash(env.prefix)) {
      return &l;
    }
  }
  return nullptr;
}

/// The major of a soname: "libcublasLt.so.12" -> "12".
std::string soname_major(const std::string& soname) {
  const auto at = soname.find(".so.");
  if (at == std::string::npos) return "";
  const std::string rest = soname.substr(at + 4);
  return rest.substr(0, rest.find('.'));
}

/// The releases of `framework` whose CUDA library links this cuBLAS ("1.19", "1.26"), oldest
/// and newest; nullopt where no row does.
std::optional<std::pair<Version, Version>> releases_linking(const CompatData& data,
                                                            const std::string& framework,
                                                            const std::string& cublaslt) {
  std::optional<std::pair<Version, Version>> span;
  for (const auto& row : data.framework_needed) {
    if (row.framework != framework || !row.version.min) continue;
    if (std::find(row.needed.begin(), row.needed.end(), cublaslt) == row.needed.end()) continue;
    const Version& lo = *row.version.min;
    const Version hi = row.version.max.value_or(lo);
    if (!span) span.emplace(lo, hi);
    if (lo < span->first) span->first = lo;
    if (span->second < hi) span->second = hi;
  }
  return span;
}

}  // namespace

void check_onnxruntime_cuda_libraries(const CheckSpec& self, const CheckInput& in,
                                      std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  const auto* found = framework_cuda_libraries(s);
  if (!found) return;
  const auto& libs = *found;
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      if (p.name != "onnxruntime-gpu" || windows_wheel(p)) continue;
      const auto v = parse_version(p.version.value_or(""));
      if (!v) continue;
      const auto row = framework_needed(in.compat, p.name, *v);
      if (!row) continue;  // a release whose wheel was not read: not judged
      std::vector<std::string> missing;
      std::string cublaslt;
      for (const auto& name : row->needed) {
        if (starts_with(name, "libcublasLt.so.")) cublaslt = name;
        if (inventoried(name) && !reachable_copy(libs, env, name)) missing.push_back(name);
      }
      if (missing.empty()) continue;
      const std::string major = soname_major(cublaslt.empty() ? missing.front() : cublaslt);
      Finding f = make_finding(
          self, Severity::warn,
          p.name + " " + v->text + " in " + env_label(env) + " is a CUDA " + major +
              " build (PyPI's wheel links " + join(missing, ", ") +
              ") and this environment reaches no copy of " +
              (missing.size() == 1 ? "it" : "them") +
              ": its CUDA provider fails to load (\"Failed to load library "
              "libonnxruntime_providers_cuda.so with error: " + missing.front() +
              ": cannot open shared object file\") and sessions run on the CPU");
      f.id = "python.onnxruntime_cuda";
      f.evidence.push_back(row->library + " of onnxruntime-gpu " + v->text + " on PyPI: NEEDED " +
                           join(row->needed, ", "));
      f.evidence.push_back("LD_LIBRARY_PATH=" + s.nvidia->ld_library_path.value_or("(not set)"));
      // What the machine has instead: the cuBLAS majors this environment does reach.
      std::vector<std::string> have;
      for (const auto& l : libs) {
        if (l.library != "cublasLt" || !reachable_copy(libs, env, l.name)) continue;
        const std::string m = soname_major(l.name);
        if (!m.empty() && std::find(have.begin(), have.end(), m) == have.end()) have.push_back(m);
      }
      for (const auto& name : missing) {
        for (const auto& l : libs) {
          if (l.name == name) f.evidence.push_back(name + " is in " + dir_of(l.path) + ", which this environment's loader does not search");
        }
      }
      std::string instead;
      for (const auto& m : have) {
        const auto span = releases_linking(in.compat, p.name, "libcublasLt.so." + m);
        if (!span) continue;
        f.evidence.push_back("this environment reaches libcublasLt.so." + m + " (CUDA " + m + ")");
        const std::string releases = span->first.text == span->second.text
                                         ? span->first.text
                                         : span->first.text + "–" + span->second.text;
        instead = "install an onnxruntime-gpu built for CUDA " + m + " (PyPI's " + releases +
                  " link libcublasLt.so." + m + "): pip install 'onnxruntime-gpu==" +
                  span->second.text + ".*'";
        break;
      }
      f.fix = !instead.empty()
                  ? instead
                  : "install CUDA " + major + "'s libraries where this environment finds them "
                    "(pip install the nvidia-*-cu" + major + " wheels, or the toolkit, with their lib "
                    "folders on LD_LIBRARY_PATH), or an onnxruntime-gpu built for the CUDA this "
                    "machine has (its CUDA Execution Provider requirements table)";
      f.source = row->from.url;
      out.push_back(std::move(f));
    }
  }
}

}  // namespace gpudoctor
