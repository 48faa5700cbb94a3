// Two frameworks in one environment that pin the same nvidia-* wheel differently: pip installs
// one version, and the framework built against a newer cuDNN than the one installed fails when
// it loads it.
#include <map>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "checks/python_facts.hpp"
#include "compat/framework_libs.hpp"
#include "parse/python_requirement.hpp"

namespace gpudoctor {

namespace {

// The rule every framework applies to the cuDNN it loads ("CuDNN library needs to have matching
// major version and equal or higher minor version"); JAX's own check says the same.
constexpr const char* kCudnnRule =
    "https://github.com/tensorflow/tensorflow/blob/v2.7.0/tensorflow/stream_executor/cuda/"
    "cuda_dnn.cc";

struct Need {
  const PythonPackage* framework;
  Requirement req;
  Version built;  ///< the cuDNN it was built with: the pin, else the lower bound
};

std::optional<Version> built_with(const Requirement& r) {
  if (auto pin = pinned_version(r.specifiers)) return pin;
  for (const auto& s : r.specifiers) {
    if (s.op == ">=" || s.op == "~=") return s.version;
  }
  return std::nullopt;
}

/// The command that installs another release of a framework.
std::string install_release(const std::string& framework, const Version& v) {
  if (framework.rfind("jax-cuda", 0) == 0) {
    const std::string series = framework.substr(4, framework.find("-plugin") - 4);
    return "pip install 'jax[" + series + "]==" + numeric_string(v) + "'";
  }
  if (framework == "tensorflow") return "pip install 'tensorflow[and-cuda]==" + numeric_string(v) + "'";
  return "pip install '" + framework + "==" + numeric_string(v) + "'";
}

/// A release of one framework (newer than the one installed) whose requirement on `package`
/// admits a cuDNN every other framework accepts: the smallest such step.
std::optional<std::string> upgrade_fix(const CompatData& data, const Need& move,
                                       const std::vector<Need>& all, const std::string& package) {
  auto current = parse_version(move.framework->version.value_or(""));
  if (!current) return std::nullopt;
  for (const auto& row : framework_pins(data, move.framework->name, package)) {
    if (row.version <= *current) continue;
    auto req = parse_requirement(package + row.requirement);
    if (!req) continue;
    auto cudnn = built_with(*req);
    if (!cudnn) continue;
    bool fits = true;
    for (const auto& other : all) {
      if (other.framework == move.framework) continue;
      fits = fits && cudnn_runtime_compatible(*cudnn, other.built) &&
             satisfies(*cudnn, other.req.specifiers);
    }
    if (fits) {
      return install_release(move.framework->name, row.version) + " (its METADATA requires " +
             package + row.requirement + ", which every framework here accepts)";
    }
  }
  return std::nullopt;
}

}  // namespace

bool nvidia_wheel_shared(const PythonEnv& env, std::string_view package, const PythonPackage& self) {
  for (const auto& p : env.packages) {
    if (&p == &self || p.name.rfind("nvidia-", 0) == 0) continue;
    for (const auto& line : p.requires_dist) {
      auto req = parse_requirement(line);
      if (req && req->on_linux && req->name == package) return true;
    }
  }
  return false;
}

void check_nvidia_wheel_conflict(const CheckSpec& self, const CheckInput& in,
                                 std::vector<Finding>& out) {
  if (!in.snap.python) return;
  for (const auto& env : in.snap.python->envs) {
    std::map<std::string, std::vector<Need>> needs;  // by nvidia-cudnn-cuNN package
    for (const auto& p : env.packages) {
      if (p.name.rfind("nvidia-", 0) == 0) continue;
      for (const auto& line : p.requires_dist) {
        auto req = parse_requirement(line);
        if (!req || !req->on_linux || req->name.rfind("nvidia-cudnn-cu", 0) != 0) continue;
        if (auto built = built_with(*req)) needs[req->name].push_back({&p, *req, *built});
      }
    }
    for (const auto& [package, list] : needs) {
      if (list.size() < 2) continue;
      const PythonPackage* installed = find_package(env, package);
      auto have = installed ? parse_version(installed->version.value_or("")) : std::nullopt;
      if (!have) continue;
      for (const auto& broken : list) {
        if (cudnn_runtime_compatible(*have, broken.built)) continue;
        const std::string who = broken.framework->name + " " + broken.framework->version.value_or("?");
        Finding f = make_finding(
            self, Severity::fail,
            who + " in " + env_label(env) + " needs cuDNN " + broken.built.text + " or a newer " +
                std::to_string(broken.built.parts.at(0)) + ".x, but " + package + " " + have->text +
                " is installed to satisfy another framework's pin: it fails with \"Loaded runtime "
                "CuDNN library: " + have->text + " but source was compiled with: " +
                broken.built.text + "\"");
        for (const auto& n : list) {
          f.evidence.push_back(n.framework->metadata_dir + ": Requires-Dist " + package + " " +
                               specifier_text(n.req.specifiers) +
                               (n.req.extra ? " (extra " + *n.req.extra + ")" : ""));
        }
        f.evidence.push_back(installed->metadata_dir + " installed");
        std::optional<std::string> fix;
        for (const auto& other : list) {
          if (&other == &broken || fix) continue;
          fix = upgrade_fix(in.compat, other, list, package);
        }
        f.fix = fix.value_or("no release pair in gpudoctor's tables agrees on " + package +
                             ": put " + broken.framework->name +
                             " in an environment of its own, or install " + package +
                             " at least " + broken.built.text + " and check the other framework "
                             "still starts");
        f.source = kCudnnRule;
        out.push_back(std::move(f));
      }
    }
  }
}

}  // namespace gpudoctor
