// A framework release newer than the tables: the checks that need the release's row cannot
// judge it, and the output says so, with what was checked instead, rather than falling silent.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "checks/python_facts.hpp"
#include "compat/compat_query.hpp"

namespace gpudoctor {

namespace {

/// major.minor of a version: "2.15.1+cu130" → 2.15 (release tables are per minor).
Version minor_of(const Version& v) {
  Version m = v;
  m.parts.resize(2, 0);
  m.text = std::to_string(m.parts[0]) + "." + std::to_string(m.parts[1]);
  m.suffix.clear();
  return m;
}

template <typename Row, typename Key>
const Row* newest(const std::vector<Row>& rows, Key key) {
  const Row* best = nullptr;
  for (const Row& r : rows) {
    if (!best || key(r) > key(*best)) best = &r;
  }
  return best;
}

Finding note(const CheckSpec& self, const PythonEnv& env, const PythonPackage& p,
             const std::string& table, const std::string& newest_text, const std::string& instead,
             const std::string& url) {
  Finding f = make_finding(self, Severity::info,
                           p.name + " " + p.version.value_or("?") + " in " + env_label(env) +
                               " is newer than gpudoctor's " + table + " (newest: " +
                               newest_text + "): what needs its row was not checked");
  f.evidence.push_back("checked instead: " + instead);
  f.fix = "upgrade gpudoctor for tables that cover this release";
  f.source = url;
  return f;
}

void torch_note(const CheckSpec& self, const CheckInput& in, const PythonEnv& env,
                const PythonPackage& p, const Version& v, std::vector<Finding>& out) {
  const TorchRelease* top =
      newest(in.compat.torch_releases, [](const TorchRelease& r) { return r.torch; });
  if (!top || minor_of(v) <= top->torch) return;
  std::string instead =
      p.torch && p.torch->cuda
          ? "the CUDA " + *p.torch->cuda + " its wheel bundles (torch.version.cuda) against the "
                                           "driver; its Python range and CUDA builds were not"
          : "nothing release-specific: its Python range and CUDA builds were not";
  out.push_back(note(self, env, p, "PyTorch release table", "torch " + top->torch.text, instead,
                     top->from.url));
}

void tensorflow_note(const CheckSpec& self, const CheckInput& in, const PythonEnv& env,
                     const PythonPackage& p, const Version& v, std::vector<Finding>& out) {
  const TensorflowBuild* top =
      newest(in.compat.tensorflow, [](const TensorflowBuild& r) { return r.version; });
  if (!top || minor_of(v) <= minor_of(top->version)) return;
  std::string instead = "the tested configurations of TensorFlow " + top->version.text +
                        " (the newest in the table) are not applied to " + v.text;
  if (env.python_version) {
    auto py = parse_version(*env.python_version);
    auto row = tensorflow_tested_build(in.compat, top->version, CompatOs::kLinux, false);
    if (py && row && std::none_of(row->python.begin(), row->python.end(),
                                  [&](const VersionRange& r) { return in_range(*py, r); })) {
      instead += "; Python " + *env.python_version + " is outside even " + top->version.text +
                 "'s tested range";
    }
  }
  out.push_back(note(self, env, p, "TensorFlow tested-build table",
                     "TensorFlow " + top->version.text, instead, top->from.url));
}

void metal_note(const CheckSpec& self, const CheckInput& in, const PythonEnv& env,
                const PythonPackage& p, const Version& v, std::vector<Finding>& out) {
  const TensorflowMetalRelease* top =
      newest(in.compat.tensorflow_metal_releases,
             [](const TensorflowMetalRelease& r) { return r.plugin; });
  if (!top || v <= top->plugin) return;
  std::string instead = "Apple's requirements for every release (macOS and Python)";
  if (auto req = tensorflow_metal_requirements(in.compat, top->tensorflow.min.value_or(v))) {
    instead = "Apple's requirements for every release: macOS " +
              req->macos_min.value_or(Version{}).text + " or later, Python " +
              req->python_min.value_or(Version{}).text + " or later; not the TensorFlow it "
              "plugs into";
  }
  out.push_back(note(self, env, p, "tensorflow-metal table", "tensorflow-metal " + top->plugin.text,
                     instead, top->from.url));
}

}  // namespace

void check_newer_than_tables(const CheckSpec& self, const CheckInput& in,
                             std::vector<Finding>& out) {
  if (!in.snap.python) return;
  for (const auto& env : in.snap.python->envs) {
    for (const auto& p : env.packages) {
      auto v = parse_version(p.version.value_or(""));
      if (!v) continue;
      if (p.name == "torch") torch_note(self, in, env, p, *v, out);
      if (p.name == "tensorflow" || p.name == "tensorflow-macos") {
        tensorflow_note(self, in, env, p, *v, out);
      }
      if (p.name == "tensorflow-metal") metal_note(self, in, env, p, *v, out);
    }
  }
}

}  // namespace gpudoctor
