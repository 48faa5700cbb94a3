// Python environments and their GPU packages, with each framework's build as it records it.
#include <map>

#include "facts/row_values.hpp"

namespace gpudoctor::facts {

namespace {

std::string package_text(const PythonPackage& p) {
  std::string s = p.name + " " + p.version.value_or("?");
  // A wheel's version may already carry its local part ("2.5.1+cu121"): not "+cu121+cu121".
  if (p.torch && p.torch->local_version &&
      s.find("+" + *p.torch->local_version) == std::string::npos) {
    s += "+" + *p.torch->local_version;
  }
  if (p.torch && p.torch->cuda) s += " (CUDA " + *p.torch->cuda + ")";
  if (p.torch && p.torch->hip) s += " (HIP " + *p.torch->hip + ")";
  if (p.tensorflow && p.tensorflow->cuda_version) {
    s += " (CUDA " + *p.tensorflow->cuda_version +
         (p.tensorflow->cudnn_version ? ", cuDNN " + *p.tensorflow->cudnn_version : "") + ")";
  }
  if (p.keras) s += " (backend " + p.keras->backend + ")";
  return s;
}

/// "2.5.1+cu124", with what a TensorFlow build says of its CUDA and cuDNN.
std::string package_build(const PythonPackage& p) {
  std::string v = p.torch && p.torch->version ? *p.torch->version : p.version.value_or("?");
  if (p.tensorflow) {
    const auto& t = *p.tensorflow;
    if (t.cuda_version) v += " (CUDA " + *t.cuda_version;
    if (t.cuda_version && t.cudnn_version) v += ", cuDNN " + *t.cudnn_version;
    if (t.cuda_version) v += ")";
  }
  return v;
}

}  // namespace

void python_facts(const Snapshot& snap, Sink& out) {
  if (!snap.python) return;
  const PythonInfo& py = *snap.python;
  Section s{"python", "Python environments", "", {}, "none found"};
  std::vector<std::string> pythons, archs;
  std::map<std::string, std::vector<std::string>> builds;
  for (const auto& env : py.envs) {
    add_item(s.rows, RowValues().text("prefix", env.prefix),
             join_known({env.kind, env.python_version ? "Python " + *env.python_version : "",
                         join(env.found_by, ", ")}));
    std::vector<std::string> pkgs;
    for (const auto& p : env.packages) pkgs.push_back(package_text(p));
    if (!pkgs.empty()) add_item(s.rows, RowValues().text("packages", join(pkgs, ", ")), "", 1);
    if (env.python_version) pythons.push_back(*env.python_version);
    // An x86_64 Python on Apple silicon runs in Rosetta and cannot use Metal or MPS.
    if (env.executable_archs) archs.push_back(join(*env.executable_archs, "+"));
    for (const auto& p : env.packages) builds[p.name].push_back(package_build(p));
  }
  for (const auto& e : py.errors) {
    Row r;
    r.list = true;
    r.warning = true;
    r.parts = RowValues().text("error", e).take();
    s.rows.push_back(std::move(r));
  }
  out.section(std::move(s));
  for (const auto& [name, versions] : builds) {
    out.compare_set(Weight::framework, "framework", name, versions);
  }
  out.compare_set(Weight::python, "python", "Python versions", pythons);
  out.compare_set(Weight::python, "python", "Python interpreter architectures", archs);
}

}  // namespace gpudoctor::facts
