// The GPU frameworks of the Mac: PyTorch's MPS backend, tensorflow-metal, and PlaidML.
#include "checks/check_util.hpp"
#include "checks/macos_checks.hpp"
#include "compat/compat_query.hpp"

namespace gpudoctor {

namespace {

using namespace macos_detail;

constexpr const char* kMpsIntroduced =
    "https://pytorch.org/blog/introducing-accelerated-pytorch-training-on-mac/";
constexpr const char* kPlaidml = "https://github.com/plaidml/plaidml";
constexpr const char* kPlaidmlKerasBackend = "plaidml.keras.backend";

struct PackageInEnv {
  const PythonEnv* env;
  const PythonPackage* pkg;
  Version version;
};

/// Every installed `name` whose version parses, on a Mac snapshot.
std::vector<PackageInEnv> installed(const Snapshot& s, std::string_view name) {
  std::vector<PackageInEnv> out;
  if (!s.macos || !s.python) return out;
  for (const auto& env : s.python->envs) {
    const PythonPackage* p = find_package(env, name);
    if (!p || !p->version) continue;
    if (auto v = parse_version(*p->version)) out.push_back({&env, p, *v});
  }
  return out;
}

std::string minor_text(const Version& v) {
  return std::to_string(v.parts.at(0)) + "." + std::to_string(v.parts.size() > 1 ? v.parts[1] : 0);
}

void mps_for(const CheckSpec& self, const CheckInput& in, const PackageInEnv& t,
             std::vector<Finding>& out) {
  const std::string label = "torch " + t.version.text + " in " + env_label(*t.env);
  if (t.version < *parse_version("1.12")) {
    Finding f =
        make_finding(self, Severity::fail, label + " has no MPS backend: it came with torch 1.12");
    f.evidence.push_back("torch " + t.version.text);
    f.fix =
        t.env->python_executable.value_or("python") + " -m pip install --upgrade \"torch>=1.12\"";
    f.source = kMpsIntroduced;
    out.push_back(std::move(f));
    return;
  }
  auto row = torch_mps_min_macos(in.compat, t.version);
  if (!row) return;  // no document read states this release's floor
  auto mac = macos_version(in.snap);
  if (mac && *mac >= row->macos_min) return;
  Finding f = make_finding(
      self, mac ? Severity::fail : Severity::info,
      mac ? label + " cannot use MPS on macOS " + mac->text + ": it needs macOS " +
                row->macos_min.text + " or later (torch.backends.mps.is_available() is False)"
          : label + " needs macOS " + row->macos_min.text +
                " or later for MPS; this snapshot does not say which macOS runs");
  f.evidence.push_back("MPS floor for torch " + minor_text(t.version) + ": macOS " +
                       row->macos_min.text);
  f.fix =
      mac ? "upgrade macOS to " + row->macos_min.text +
                " or later (System Settings → "
                "Software Update)"
          : "check with sw_vers -productVersion: MPS needs " + row->macos_min.text + " or later";
  f.source = row->from.url;
  out.push_back(std::move(f));
}

/// The TensorFlow that a tensorflow-metal plugs into: tensorflow-macos (≤ 2.12) or tensorflow.
const PythonPackage* base_tensorflow(const PythonEnv& env) {
  if (const PythonPackage* p = find_package(env, "tensorflow-macos")) return p;
  return find_package(env, "tensorflow");
}

void metal_pairing(const CheckSpec& self, const CheckInput& in, const PackageInEnv& m,
                   const TensorflowMetalRelease& rel, std::vector<Finding>& out) {
  const PythonPackage* base = base_tensorflow(*m.env);
  auto tf = base && base->version ? parse_version(*base->version) : std::nullopt;
  const std::string built_for = rel.tensorflow.min && rel.tensorflow.max &&
                                        rel.tensorflow.min->text != rel.tensorflow.max->text
                                    ? rel.tensorflow.min->text + "–" + rel.tensorflow.max->text
                                : rel.tensorflow.min ? rel.tensorflow.min->text
                                                     : "?";
  if (tf && in_range(*tf, rel.tensorflow)) return;
  const std::string pip = m.env->python_executable.value_or("python") + " -m pip install ";
  Finding f = make_finding(self, Severity::fail,
                           "tensorflow-metal " + m.version.text + " in " + env_label(*m.env) +
                               " is built for TensorFlow " + built_for + ", but " +
                               (tf ? base->name + " " + tf->text +
                                         " is installed: the plugin fails to load or the "
                                         "kernel dies (NSInvalidArgumentException)"
                                   : "no TensorFlow is installed"));
  f.evidence.push_back("tensorflow-metal " + m.version.text + " ↔ TensorFlow " + built_for);
  if (tf) f.evidence.push_back(base->name + " " + tf->text);
  auto match = tf ? tensorflow_metal_for_tf(in.compat, *tf) : std::nullopt;
  const std::string base_name = base ? base->name : "tensorflow-macos";
  const std::string wanted_tf = rel.tensorflow.min ? rel.tensorflow.min->text : "";
  f.fix = match ? pip + "tensorflow-metal==" + match->plugin.text + " (the plugin for " +
                      base_name + " " + minor_text(*tf) + "), or " + pip + "\"" + base_name +
                      "==" + wanted_tf + ".*\""
                : pip + "\"" + base_name + "==" + wanted_tf + ".*\"";
  f.source = rel.from.url;
  out.push_back(std::move(f));
}

void metal_macos(const CheckSpec& self, const CheckInput& in, const PackageInEnv& m,
                 const TensorflowMetalRelease& rel, std::vector<Finding>& out) {
  auto mac = macos_version(in.snap);
  if (!mac || !rel.macos_min || *mac >= *rel.macos_min) return;
  Finding f = make_finding(self, Severity::fail,
                           "tensorflow-metal " + m.version.text + " needs macOS " +
                               rel.macos_min->text + " or later; this Mac runs " + mac->text);
  f.id = "macos.tensorflow_metal_macos";
  f.evidence.push_back("sw_vers ProductVersion: " + mac->text);
  f.fix = "upgrade macOS to " + rel.macos_min->text + " or later";
  f.source = rel.from.url;
  out.push_back(std::move(f));
}

}  // namespace

void check_macos_mps(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  for (const auto& t : installed(in.snap, "torch")) {
    if (!x86_only(*t.env)) mps_for(self, in, t, out);  // x86_64: macos.rosetta_python says it
  }
}

void check_macos_tensorflow_metal(const CheckSpec& self, const CheckInput& in,
                                  std::vector<Finding>& out) {
  for (const auto& m : installed(in.snap, "tensorflow-metal")) {
    auto rel = tensorflow_metal_release(in.compat, m.version);
    if (!rel) continue;  // a release the table does not list
    metal_pairing(self, in, m, *rel, out);
    metal_macos(self, in, m, *rel, out);
  }
}

void check_macos_plaidml(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  for (const auto& p : installed(in.snap, "plaidml-keras")) {
    const PythonPackage* keras = find_package(*p.env, "keras");
    if (keras && keras->keras && keras->keras->backend != kPlaidmlKerasBackend) {
      // Keras on another backend never reaches PlaidML, so never the GPU: a certain failure.
      Finding f = make_finding(self, Severity::fail,
                               "Keras in " + env_label(*p.env) + " uses its \"" +
                                   keras->keras->backend + "\" backend: plaidml-keras " +
                                   p.version.text + " is installed but not used");
      f.id = "macos.plaidml_backend";
      f.evidence.push_back("Keras backend from " + keras->keras->backend_from);
      f.fix =
          "export KERAS_BACKEND=plaidml.keras.backend (or call plaidml.keras.install_backend() "
          "before importing keras)";
      out.push_back(std::move(f));
    }
    if (!in.snap.macos->plaidml) {
      Finding f = make_finding(self, Severity::warn,
                               "PlaidML has no device chosen: there is no ~/.plaidml");
      f.id = "macos.plaidml_setup";
      f.fix = "run plaidml-setup and pick the GPU (a metal_… device)";
      out.push_back(std::move(f));
    }
    Finding f = make_finding(self, Severity::info,
                             "PlaidML is no longer developed (its repository is closed); on "
                             "macOS 12 or later tensorflow-metal drives AMD and Apple GPUs");
    f.id = "macos.plaidml_unmaintained";
    f.evidence.push_back("plaidml-keras " + p.version.text + " in " + env_label(*p.env));
    f.fix =
        "pip install tensorflow tensorflow-metal (TensorFlow 2.13 or later; see "
        "https://developer.apple.com/metal/tensorflow-plugin/)";
    f.source = std::string(kPlaidml) + "/issues/1998";
    out.push_back(std::move(f));
  }
}

}  // namespace gpudoctor
