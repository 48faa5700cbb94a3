// The GPU frameworks of the Mac: PyTorch's MPS backend, tensorflow-metal, and PlaidML.
#include <algorithm>

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

/// What the MPS rows say of a torch release: its own row, else the floors of the nearest rows
/// before and after it (a floor never falls from one release to the next), the first release
/// with MPS at all, and whether it is newer than every row.
struct MpsFloor {
  std::optional<TorchMps> row;
  const TorchMps* before = nullptr;  ///< the newest row below the release
  const TorchMps* after = nullptr;   ///< the oldest row above it
  const TorchMps* first = nullptr;   ///< the row of the first releases with MPS
};

MpsFloor mps_floor(const CompatData& data, const Version& torch) {
  MpsFloor m;
  m.row = torch_mps_min_macos(data, torch);
  for (const TorchMps& r : data.torch_mps) {
    if (!r.torch.min) continue;
    if (!m.first || *r.torch.min < *m.first->torch.min) m.first = &r;
    if (r.torch.max && *r.torch.max < torch && (!m.before || *r.torch.max > *m.before->torch.max)) {
      m.before = &r;
    }
    if (*r.torch.min > torch && (!m.after || *r.torch.min < *m.after->torch.min)) m.after = &r;
  }
  return m;
}

std::string release_range(const TorchMps& r) {
  const std::string lo = r.torch.min ? r.torch.min->text : "?";
  const std::string hi = r.torch.max ? r.torch.max->text : "?";
  return "torch " + (lo == hi ? lo : lo + "–" + hi) + ": macOS " + r.macos_min.text;
}

Finding below_floor(const CheckSpec& self, const std::string& label, const Version& mac,
                    const Version& floor, const std::string& url) {
  Finding f = make_finding(self, Severity::fail,
                           label + " cannot use MPS on macOS " + mac.text + ": it needs macOS " +
                               floor.text + " or later (torch.backends.mps.is_available() is "
                               "False)");
  f.fix = "upgrade macOS to " + floor.text + " or later (System Settings → Software Update)";
  f.source = url;
  return f;
}

/// A release without its own row: judged by its neighbours' floors, and said so.
void mps_between(const CheckSpec& self, const MpsFloor& m, const std::string& label,
                 const Version& torch, const std::optional<Version>& mac,
                 std::vector<Finding>& out) {
  if (!m.before) return;  // below every row: handled by the caller (no MPS at all)
  std::string known = release_range(*m.before);
  if (m.after) known += "; " + release_range(*m.after);
  if (mac && *mac < m.before->macos_min) {
    Finding f = below_floor(self, label, *mac, m.before->macos_min, m.before->from.url);
    f.evidence.push_back("no row for torch " + minor_text(torch) + "; floors known: " + known +
                         " (a later release never needs an older macOS)");
    out.push_back(std::move(f));
    return;
  }
  if (mac && m.after && *mac >= m.after->macos_min) return;  // above both neighbours' floors
  Finding f = make_finding(
      self, Severity::info,
      label + (m.after ? "'s MPS floor is not in gpudoctor's tables"
                       : " is newer than gpudoctor's MPS table") +
          ": checked instead against the floors known (" + known + ")");
  f.evidence.push_back(mac ? "sw_vers ProductVersion: " + mac->text
                           : std::string("the macOS version is not recorded"));
  f.fix = m.after ? "if torch.backends.mps.is_available() is False, upgrade macOS to " +
                        m.after->macos_min.text + " or later"
                  : "upgrade gpudoctor for the MPS floor of torch " + minor_text(torch);
  f.source = m.before->from.url;
  out.push_back(std::move(f));
}

void mps_for(const CheckSpec& self, const CheckInput& in, const PackageInEnv& t,
             std::vector<Finding>& out) {
  const std::string label = "torch " + t.version.text + " in " + env_label(*t.env);
  const MpsFloor m = mps_floor(in.compat, t.version);
  if (m.first && t.version < *m.first->torch.min) {
    Finding f = make_finding(self, Severity::fail,
                             label + " has no MPS backend: it came with torch " +
                                 m.first->torch.min->text);
    f.evidence.push_back("torch " + t.version.text);
    f.fix = t.env->python_executable.value_or("python") +
            " -m pip install --upgrade \"torch>=" + m.first->torch.min->text + "\"";
    f.source = kMpsIntroduced;
    out.push_back(std::move(f));
    return;
  }
  auto mac = macos_version(in.snap);
  if (!m.row) return mps_between(self, m, label, t.version, mac, out);
  const TorchMps& row = *m.row;
  if (mac && *mac >= row.macos_min) return;
  if (mac) {
    Finding f = below_floor(self, label, *mac, row.macos_min, row.from.url);
    f.evidence.push_back("MPS floor for torch " + minor_text(t.version) + ": macOS " +
                         row.macos_min.text);
    out.push_back(std::move(f));
    return;
  }
  Finding f = make_finding(self, Severity::info,
                           label + " needs macOS " + row.macos_min.text +
                               " or later for MPS; this snapshot does not say which macOS runs");
  f.evidence.push_back("MPS floor for torch " + minor_text(t.version) + ": macOS " +
                       row.macos_min.text);
  f.fix = "check with sw_vers -productVersion: MPS needs " + row.macos_min.text + " or later";
  f.source = row.from.url;
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
  const bool newest_plugin = std::none_of(
      in.compat.tensorflow_metal_releases.begin(), in.compat.tensorflow_metal_releases.end(),
      [&](const TensorflowMetalRelease& r) { return r.plugin > rel.plugin; });
  if (tf && newest_plugin && rel.tensorflow.max && *tf > *rel.tensorflow.max) {
    // A TensorFlow newer than any the table pairs with a plugin: not known to fail.
    Finding f = make_finding(self, Severity::info,
                             "tensorflow-metal " + m.version.text + " in " + env_label(*m.env) +
                                 " is listed for TensorFlow " + built_for + "; whether it loads "
                                 "with " + base->name + " " + tf->text + " is not in "
                                 "gpudoctor's tables");
    f.evidence.push_back("checked instead: the newest pairing known, tensorflow-metal " +
                         rel.plugin.text + " ↔ TensorFlow " + built_for);
    f.fix = "if tf.config.list_physical_devices('GPU') is empty or the import fails with "
            "\"Symbol not found\", install " + base->name + "==" + built_for + ".*";
    f.source = rel.from.url;
    out.push_back(std::move(f));
    return;
  }
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
    // An x86_64 interpreter may be told another macOS than sw_vers says (macos.version_compat,
    // pytorch/pytorch#146236) and runs under Rosetta on Apple silicon (macos.rosetta_python):
    // the macOS floors below are not judged for it.
    if (!x86_only(*t.env)) mps_for(self, in, t, out);
  }
}

void check_macos_tensorflow_metal(const CheckSpec& self, const CheckInput& in,
                                  std::vector<Finding>& out) {
  for (const auto& m : installed(in.snap, "tensorflow-metal")) {
    auto rel = tensorflow_metal_release(in.compat, m.version);
    if (!rel) continue;  // a release the table does not list: compat.newer_than_tables says it
    metal_pairing(self, in, m, *rel, out);
    metal_macos(self, in, m, *rel, out);
  }
  // TensorFlow alone on a Mac has no GPU device: the Metal plugin is a package of its own.
  for (const char* base : {"tensorflow", "tensorflow-macos"}) {
    for (const auto& t : installed(in.snap, base)) {
      if (find_package(*t.env, "tensorflow-metal")) continue;
      if (std::string_view(base) == "tensorflow" && find_package(*t.env, "tensorflow-macos")) {
        continue;  // said once, for tensorflow-macos
      }
      const auto plugin = tensorflow_metal_for_tf(in.compat, t.version);
      if (!plugin) continue;  // a TensorFlow no plugin release was built for
      Finding f = make_finding(self, Severity::warn,
                               std::string(base) + " " + t.version.text + " in " +
                                   env_label(*t.env) + " has no tensorflow-metal beside it: on a "
                                   "Mac it runs on the CPU only (no GPU device is listed)");
      f.id = "macos.tensorflow_metal_missing";
      f.evidence.push_back(std::string(base) + " " + t.version.text + "; no tensorflow-metal in " +
                           env_label(*t.env));
      f.fix = "pip install tensorflow-metal==" + plugin->plugin.text + " (the plugin built for "
              "TensorFlow " + minor_text(t.version) + ")";
      f.source = plugin->from.url;
      out.push_back(std::move(f));
    }
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
