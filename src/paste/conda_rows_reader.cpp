// conda's package rows where no table holds them: one `conda list` row quoted in a sentence
// ("pytorch   1.4.0   py3.7_cpu_0  [cpuonly]  pytorch"), a conda spec ("pytorch=1.9.0=py3.8_cpu_0"),
// and the packages whose name says the build: the pytorch channel's `pytorch-cpu` and its
// `cpuonly` feature package (https://github.com/pytorch/builder/pull/329: CPU builds carry the
// build string "cpu_…" and, before it, the package suffix "-cpu"). Runs after the table reader
// (package_lists_reader.cpp), on what it left.
#include <regex>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_conda_rows = "conda package rows";

/// The packages whose lone row decides something: a framework's build, or the CUDA under it.
bool conda_decisive_package(std::string_view name) {
  static const std::string_view names[] = {
      "pytorch", "torch", "pytorch-cpu", "pytorch-gpu", "pytorch-cuda", "cpuonly", "cudatoolkit",
      "cudnn", "tensorflow", "tensorflow-gpu", "jaxlib", "cuda-version", "cuda-runtime",
  };
  for (auto n : names) {
    if (name == n) return true;
  }
  return false;
}

/// A conda build string: letters and digits with '_' or '.', not a version ("py3.7_cpu_0",
/// "cuda100py37h53c1284_0", "h59b6b97_2"); markdown's "**" around it is taken off.
std::string conda_row_build(std::string_view w) {
  while (!w.empty() && (w.back() == '*' || w.back() == '`')) w.remove_suffix(1);
  while (!w.empty() && (w.front() == '*' || w.front() == '`')) w.remove_prefix(1);
  if (w.empty() || w.find('_') == std::string_view::npos) return "";
  return std::string(w);
}

void add_conda_package(PasteSink& sink, const std::string& name, const std::string& version,
                       const std::string& build, std::size_t i) {
  if (name == "pytorch-cpu") {
    add_listed_package(sink, "torch", version, "cpu", i);
    sink.fact("package.pytorch-cpu", name + " " + version, i);
    return;
  }
  add_listed_package(sink, name, version, build, i);
}

}  // namespace

void read_conda_rows(PasteSink& sink) {
  static const std::regex spec(
      R"((?:^|[\s(`'"])(pytorch|torch|pytorch-cpu|cudatoolkit|tensorflow|tensorflow-gpu|pytorch-cuda)=(\d[\w.]*)=([\w.]+))");
  const auto& lines = sink.lines();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i) || lines[i].fence) continue;
    const std::string t(trim(lines[i].text));
    if (t.empty() || t.size() > 400) continue;
    const auto words = split_words(t);
    if (words.size() >= 3 && words.size() <= 6 && conda_decisive_package(to_lower(words[0])) &&
        !leading_version(words[1]).empty() && leading_version(words[1]).size() + 2 >= words[1].size()) {
      const std::string build = conda_row_build(words[2]);
      if (!build.empty()) {
        add_conda_package(sink, to_lower(words[0]), words[1], build, i);
        sink.claim(i, kFormat_conda_rows);
        continue;
      }
    }
    std::smatch m;
    if (t.find('=') != std::string::npos && std::regex_search(t, m, spec)) {
      add_conda_package(sink, m[1].str(), m[2].str(), m[3].str(), i);
      sink.claim(i, kFormat_conda_rows);
    }
  }
  // A table's `pytorch-cpu` row (read as a package of that name) is torch's CPU build.
  if (!sink.snap.python) return;
  for (auto& env : sink.snap.python->envs) {
    const PythonPackage* cpu = nullptr;
    bool cpuonly = false;
    PythonPackage* torch = nullptr;
    for (auto& p : env.packages) {
      if (p.name == "pytorch-cpu") cpu = &p;
      if (p.name == "cpuonly") cpuonly = true;
      if (p.name == "torch") torch = &p;
    }
    if (torch && (cpu || cpuonly) && !torch->torch && torch->version) {
      TorchBuildInfo b;
      b.version = *torch->version;
      b.local_version = "cpu";
      torch->torch = b;
    }
    if (cpu && !torch && cpu->version) {
      PythonPackage p = *cpu;
      p.name = "torch";
      TorchBuildInfo b;
      b.version = *cpu->version;
      b.local_version = "cpu";
      p.torch = b;
      env.packages.push_back(std::move(p));
    }
  }
}

}  // namespace gpudoctor
