// TensorFlow and JAX in each Python environment against the GPU, the driver and the libraries
// their GPU builds load (the torch checks are in python_checks.cpp).
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "checks/python_facts.hpp"
#include "compat/compat_query.hpp"
#include "compat/framework_libs.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kTensorflowPip = "https://www.tensorflow.org/install/pip";
constexpr const char* kJaxPluginSupport =
    "https://github.com/jax-ml/jax/blob/main/jaxlib/plugin_support.py";
constexpr const char* kJaxInstall = "https://docs.jax.dev/en/latest/installation.html";

struct TensorflowInEnv {
  const PythonEnv* env;
  const PythonPackage* pkg;
  const TensorflowBuildInfo* build;
};

/// Every distribution that installed the tensorflow package (tensorflow, tensorflow-cpu,
/// tf-nightly, …), with its build_info.py.
std::vector<TensorflowInEnv> tensorflows(const Snapshot& s) {
  std::vector<TensorflowInEnv> out;
  if (!s.python) return out;
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      if (p.tensorflow) out.push_back({&env, &p, &*p.tensorflow});
    }
  }
  return out;
}

std::string tf_label(const TensorflowInEnv& t) {
  return t.pkg->name + " " + t.pkg->version.value_or("?") + " in " + env_label(*t.env);
}

/// "nvidia-cudnn-cu12 (==8.9.4.25) ; extra == 'and-cuda'" → {"nvidia-cudnn-cu12", "8.9.4.25"}:
/// the cuDNN wheel a release pins for its GPU extra.
struct Pin {
  std::string package;
  std::string version;
};
std::optional<Pin> and_cuda_cudnn_pin(const PythonPackage& tf) {
  for (const auto& req : tf.requires_dist) {
    if (req.find("and-cuda") == std::string::npos || req.rfind("nvidia-cudnn-cu", 0) != 0) {
      continue;
    }
    auto name_end = req.find_first_of(" ;(=<>");
    auto eq = req.find("==");
    if (name_end == std::string::npos || eq == std::string::npos) continue;
    auto ver_end = req.find_first_of(" );,", eq + 2);
    return Pin{req.substr(0, name_end), req.substr(eq + 2, ver_end - (eq + 2))};
  }
  return std::nullopt;
}

/// A cuDNN the dynamic loader could hand TensorFlow outside the environment: in a toolkit.
std::optional<std::string> system_cudnn(const Snapshot& s) {
  if (!s.nvidia) return std::nullopt;
  for (const auto& tk : s.nvidia->toolkits) {
    if (tk.cudnn_version) return tk.path + " has cuDNN " + *tk.cudnn_version;
  }
  return std::nullopt;
}

/// The newest TensorFlow release whose Linux GPU build was tested with a CUDA this driver runs.
std::optional<Version> newest_tensorflow_for_driver(const CompatData& data, const Version& driver) {
  std::optional<Version> best;
  for (const auto& row : data.tensorflow) {
    if (row.os != CompatOs::kLinux || !row.gpu || !row.cuda || row.package != "tensorflow") {
      continue;
    }
    auto need = driver_for_bundled_cuda(data, *row.cuda);
    if (!need || driver < need->driver) continue;
    if (!best || row.version > *best) best = row.version;
  }
  return best;
}

}  // namespace

void check_tensorflow_cuda_driver(const CheckSpec& self, const CheckInput& in,
                                  std::vector<Finding>& out) {
  auto driver_text = installed_driver_version(in.snap);
  auto driver = driver_text ? parse_version(*driver_text) : std::nullopt;
  if (!driver) return;
  for (const auto& t : tensorflows(in.snap)) {
    if (t.build->is_cuda_build != true || !t.build->cuda_version || windows_wheel(*t.pkg)) continue;
    auto cuda = parse_version(*t.build->cuda_version);
    auto need = cuda ? driver_for_bundled_cuda(in.compat, *cuda) : std::nullopt;
    if (!need || *driver >= need->driver) continue;
    Finding f =
        make_finding(self, Severity::fail,
                     tf_label(t) + " is built with CUDA " + *t.build->cuda_version +
                         ", which needs driver ≥ " + need->driver.text + "; this driver is " +
                         *driver_text + ": TensorFlow will list no GPU");
    f.evidence.push_back(t.build->file + ": cuda_version = " + *t.build->cuda_version);
    f.evidence.push_back("NVIDIA driver " + *driver_text);
    if (auto branch = max_cuda_for_driver(in.compat, *driver)) {
      f.evidence.push_back("driver " + *driver_text + " supports CUDA up to " +
                           branch->max_cuda.text);
    }
    std::string fix = "install NVIDIA driver " + need->driver.text + " or newer";
    if (auto fits = newest_tensorflow_for_driver(in.compat, *driver)) {
      fix +=
          ", or keep the driver and install the newest TensorFlow tested with a CUDA it runs: "
          "pip install tensorflow==" +
          numeric_string(*fits);
    }
    f.fix = fix;
    f.source = need->source;
    out.push_back(std::move(f));
  }
}

void check_tensorflow_cudnn(const CheckSpec& self, const CheckInput& in,
                            std::vector<Finding>& out) {
  if (!usable_nvidia_gpu(in.snap)) return;
  for (const auto& t : tensorflows(in.snap)) {
    if (t.build->is_cuda_build != true || windows_wheel(*t.pkg)) continue;
    auto pin = and_cuda_cudnn_pin(*t.pkg);
    if (!pin) continue;  // releases before the and-cuda extra expect a system CUDA and cuDNN
    const PythonPackage* have = find_package(*t.env, pin->package);
    const std::string install =
        "pip install 'tensorflow[and-cuda]==" + t.pkg->version.value_or("<version>") + "'";
    if (have && have->version == pin->version) continue;
    // With the libraries read from the files, python.tensorflow_cuda_libraries says which cuDNN
    // it loads; a missing one, or one older than the pin, is that check's finding.
    auto tf_v = parse_version(t.pkg->version.value_or(""));
    const bool libraries_known = in.snap.nvidia && in.snap.nvidia->cuda_libraries && tf_v &&
                                 framework_library_search(in.compat, "tensorflow", *tf_v);
    auto have_v = have ? parse_version(have->version.value_or("")) : std::nullopt;
    auto pin_v = parse_version(pin->version);
    if (libraries_known && (!have || (have_v && pin_v && !cudnn_runtime_compatible(*have_v, *pin_v)))) {
      continue;
    }
    Finding f = make_finding(self, Severity::warn, "");
    f.evidence.push_back(t.pkg->metadata_dir + ": Requires-Dist " + pin->package +
                         "==" + pin->version + " for the and-cuda extra");
    if (have) {
      f.title = tf_label(t) + " pins " + pin->package + " " + pin->version + " but " +
                have->version.value_or("?") + " is installed: outside its tested configuration";
      f.evidence.push_back(have->metadata_dir + " installed");
    } else {
      auto sys = system_cudnn(in.snap);
      if (sys) continue;  // a system cuDNN may serve it; the cuDNN checks judge that one
      f.severity = Severity::fail;  // no cuDNN at all: a library it needs is not there
      f.title = tf_label(t) +
                " has no cuDNN to load: it prints \"Cannot dlopen some GPU "
                "libraries\" and runs on the CPU";
      f.evidence.push_back("no " + pin->package +
                           " in the environment and no cuDNN in a CUDA "
                           "toolkit");
    }
    f.fix = install + " (it installs the CUDA and cuDNN wheels this release was built against)";
    f.source = kTensorflowPip;
    out.push_back(std::move(f));
  }
}

void check_tensorflow_cpu_only(const CheckSpec& self, const CheckInput& in,
                               std::vector<Finding>& out) {
  if (!usable_nvidia_gpu(in.snap)) return;
  for (const auto& t : tensorflows(in.snap)) {
    if (t.build->is_cuda_build != false || windows_wheel(*t.pkg)) continue;
    Finding f = make_finding(self, Severity::fail,
                             tf_label(t) +
                                 " is a CPU-only build: it never uses this machine's "
                                 "NVIDIA GPU");
    f.evidence.push_back(t.build->file + ": is_cuda_build = False");
    f.fix = "pip uninstall " + t.pkg->name +
            " && pip install 'tensorflow[and-cuda]==" + t.pkg->version.value_or("<version>") + "'";
    f.source = kTensorflowPip;
    out.push_back(std::move(f));
  }
}

namespace {

/// "jax-cuda12-plugin" → "cuda12"; nullopt for other names.
std::optional<std::string> jax_plugin_series(const std::string& name) {
  const std::string prefix = "jax-";
  const std::string suffix = "-plugin";
  if (name.rfind(prefix + "cuda", 0) != 0 || name.size() <= prefix.size() + suffix.size() ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return std::nullopt;
  }
  return name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
}

void jax_plugin_findings(const CheckSpec& self, const CheckInput& in, const PythonEnv& env,
                         const PythonPackage& plugin, const std::string& series,
                         std::vector<Finding>& out) {
  const std::string where = " in " + env_label(env);
  const PythonPackage* jaxlib = find_package(env, "jaxlib");
  auto plugin_v = parse_version(plugin.version.value_or(""));
  auto jaxlib_v = jaxlib ? parse_version(jaxlib->version.value_or("")) : std::nullopt;
  // jaxlib/plugin_support.py compares the dotted numbers and drops a plugin that differs.
  if (plugin_v && jaxlib_v && plugin_v->parts != jaxlib_v->parts) {
    Finding f =
        make_finding(self, Severity::fail,
                     plugin.name + " " + plugin_v->text + where + " does not match jaxlib " +
                         jaxlib_v->text + ": JAX ignores the plugin and runs on the CPU");
    f.evidence.push_back(plugin.metadata_dir + ", " + jaxlib->metadata_dir);
    const std::string v = numeric_string(*jaxlib_v);
    f.fix = "pip install 'jax-" + series + "-plugin==" + v + "' 'jax-" + series + "-pjrt==" + v +
            "' (the plugin of jaxlib's own release)";
    f.source = kJaxPluginSupport;
    out.push_back(std::move(f));
  }
  auto jax = find_package(env, "jax");
  auto jax_v = jax ? parse_version(jax->version.value_or("")) : std::nullopt;
  auto req = jax_plugin_requirements(in.compat, series, jax_v);
  if (!req) return;
  auto driver_text = installed_driver_version(in.snap);
  auto driver = driver_text ? parse_version(*driver_text) : std::nullopt;
  // The installation page's minimum where it gives one, else what the plugin's CUDA major needs.
  std::optional<DriverNeed> need;
  if (req->linux_driver_min) {
    need = DriverNeed{*req->linux_driver_min, req->from.url};
  } else if (req->cuda.min) {
    need = driver_for_bundled_cuda(in.compat, *req->cuda.min);
  }
  if (driver && need && *driver < need->driver) {
    Finding f = make_finding(self, Severity::fail,
                             plugin.name + where + " needs NVIDIA driver ≥ " + need->driver.text +
                                 "; this driver is " + *driver_text);
    f.evidence.push_back("NVIDIA driver " + *driver_text);
    f.fix = "install NVIDIA driver " + need->driver.text + " or newer";
    f.source = need->source;
    out.push_back(std::move(f));
  }
  for (const auto& gpu : nvidia_capabilities(in)) {
    if (!gpu.cc || !req->min_compute_capability || *gpu.cc >= *req->min_compute_capability) {
      continue;
    }
    Finding f = make_finding(self, Severity::fail,
                             plugin.name + where + " needs compute capability ≥ " +
                                 req->min_compute_capability->text + "; " + gpu.name + " is " +
                                 gpu.cc->text);
    f.fix = "this GPU cannot run the " + series + " plugin; use a GPU of compute capability " +
            req->min_compute_capability->text + " or newer";
    f.source = req->from.url;
    out.push_back(std::move(f));
  }
  const PythonPackage* cudnn = find_package(env, "nvidia-cudnn-cu" + series.substr(4));
  auto cudnn_v = cudnn ? parse_version(cudnn->version.value_or("")) : std::nullopt;
  if (cudnn_v && !in_range(*cudnn_v, req->cudnn) && !nvidia_wheel_shared(env, cudnn->name, plugin)) {
    Finding f =
        make_finding(self, Severity::fail,
                     cudnn->name + " " + cudnn_v->text + where + " is outside what " + plugin.name +
                         " needs (cuDNN " + (req->cudnn.min ? "≥ " + req->cudnn.min->text : "") +
                         (req->cudnn.max ? ", major " + req->cudnn.max->text : "") + ")");
    f.evidence.push_back(cudnn->metadata_dir);
    f.fix = "pip install -U 'jax[" + series + "]'" +
            (jax_v ? "==" + numeric_string(*jax_v) : std::string()) +
            " (it pulls a cuDNN wheel the plugin accepts)";
    f.source = req->from.url;
    out.push_back(std::move(f));
  }
}

}  // namespace

void check_jax_cuda(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.python) return;
  for (const auto& env : in.snap.python->envs) {
    for (const auto& p : env.packages) {
      if (auto series = jax_plugin_series(p.name))
        jax_plugin_findings(self, in, env, p, *series, out);
    }
  }
}

void check_jax_cpu_only(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.python || !usable_nvidia_gpu(in.snap)) return;
  // JAX itself listed a GPU device (a pasted jax.print_environment_info): older jaxlib wheels
  // carried CUDA inside, without a plugin.
  for (const auto& s : in.snap.symptoms) {
    if (s.id == "jax.gpu_devices") return;
  }
  for (const auto& env : in.snap.python->envs) {
    const PythonPackage* jaxlib = find_package(env, "jaxlib");
    if (!jaxlib) continue;
    const bool has_plugin =
        std::any_of(env.packages.begin(), env.packages.end(), [](const PythonPackage& p) {
          return jax_plugin_series(p.name).has_value() || p.name.rfind("jax-rocm", 0) == 0;
        });
    if (has_plugin) continue;
    Finding f = make_finding(self, Severity::fail,
                             "jaxlib " + jaxlib->version.value_or("?") + " in " + env_label(env) +
                                 " has no CUDA plugin: jax.devices() lists only the CPU");
    f.evidence.push_back("no jax-cuda*-plugin installed next to " + jaxlib->metadata_dir);
    auto driver_text = installed_driver_version(in.snap);
    auto driver = driver_text ? parse_version(*driver_text) : std::nullopt;
    // The plugin series this driver runs, by the installation page's current minimums: the
    // newest ("cuda13" after "cuda12") whose driver minimum it meets.
    std::string series = "cuda12";
    for (const auto& row : in.compat.jax) {
      auto now = jax_plugin_requirements(in.compat, row.plugin, std::nullopt);
      if (!now || !now->linux_driver_min || !driver || *driver < *now->linux_driver_min) continue;
      if (now->plugin > series) series = now->plugin;
    }
    f.fix = "pip install -U 'jax[" + series + "]'";
    f.source = kJaxInstall;
    out.push_back(std::move(f));
  }
}

}  // namespace gpudoctor
