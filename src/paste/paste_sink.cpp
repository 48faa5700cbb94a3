#include "paste/paste_sink.hpp"

#include <algorithm>
#include <cctype>

#include "knowledge/message_pattern.hpp"
#include "text.hpp"

namespace gpudoctor {

PasteSink::PasteSink(const std::vector<PasteLine>& lines)
    : lines_(lines), owner_(lines.size()) {
  snap.live = false;
  snap.origin = Origin::paste;
  snap.root = "";  // no tree was read
}

void PasteSink::claim(std::size_t i, std::string_view format) {
  if (i >= owner_.size() || owner_[i] != 0 || format.empty()) return;
  auto known = std::find(formats_.begin(), formats_.end(), format);
  if (known == formats_.end()) {
    if (formats_.size() >= 255) return;  // far more readers than there are
    formats_.emplace_back(format);
    known = formats_.end() - 1;
  }
  owner_[i] = static_cast<unsigned char>(known - formats_.begin() + 1);
}

void PasteSink::fact(std::string key, std::string value, std::size_t i) {
  if (i >= lines_.size() || no_value(value)) return;
  facts.push_back({std::move(key), std::move(value), lines_[i].number});
}

void PasteSink::symptom(std::string id, std::string tool, std::size_t i,
                        std::map<std::string, std::string> values) {
  if (i >= lines_.size()) return;
  const int number = lines_[i].number;
  std::string key = id;
  for (const auto& [k, v] : values) key += '\0' + k + '\0' + v;
  if (!symptom_keys_.insert(std::move(key)).second) return;  // a repeated message counts once
  Symptom s;
  s.id = std::move(id);
  s.tool = std::move(tool);
  s.text = std::string(trim(lines_[i].text));
  s.line = number;
  s.values = std::move(values);
  facts.push_back({"message", s.text, number});
  snap.symptoms.push_back(std::move(s));
}

HostInfo& PasteSink::host() { return snap.host ? *snap.host : snap.host.emplace(); }
NvmlInfo& PasteSink::nvml() { return snap.nvml ? *snap.nvml : snap.nvml.emplace(); }
NvidiaSystem& PasteSink::nvidia() { return snap.nvidia ? *snap.nvidia : snap.nvidia.emplace(); }
CudaInfo& PasteSink::cuda() { return snap.cuda ? *snap.cuda : snap.cuda.emplace(); }
RocmInfo& PasteSink::rocm() { return snap.rocm ? *snap.rocm : snap.rocm.emplace(); }
MacosInfo& PasteSink::macos() { return snap.macos ? *snap.macos : snap.macos.emplace(); }
OpenClInfo& PasteSink::opencl() { return snap.opencl ? *snap.opencl : snap.opencl.emplace(); }
VulkanInfo& PasteSink::vulkan() { return snap.vulkan ? *snap.vulkan : snap.vulkan.emplace(); }
OllamaInfo& PasteSink::ollama() { return snap.ollama ? *snap.ollama : snap.ollama.emplace(); }

PythonEnv& PasteSink::env() {
  if (!snap.python || snap.python->envs.empty()) return new_env("pasted environment");
  return snap.python->envs.back();
}

PythonEnv& PasteSink::new_env(std::string label) {
  if (!snap.python) snap.python.emplace();
  PythonEnv e;
  e.kind = "path";
  e.found_by.push_back("paste");
  const std::size_t n = snap.python->envs.size();
  e.prefix = n == 0 ? std::move(label) : label + " " + std::to_string(n + 1);
  snap.python->envs.push_back(std::move(e));
  return snap.python->envs.back();
}

namespace {
const std::string kPackagesCut = "the pasted package list goes on past " +
                                 std::to_string(PasteSink::kMaxPastedPackages) +
                                 " packages in one environment: the rest was not read";
}  // namespace

PythonPackage& PasteSink::package(std::string_view name) {
  PythonEnv& e = env();
  const std::size_t env_index = snap.python->envs.size() - 1;
  if (packages_by_env_.size() <= env_index) packages_by_env_.resize(env_index + 1);
  auto& by_name = packages_by_env_[env_index];
  if (auto known = by_name.find(std::string(name)); known != by_name.end()) {
    return e.packages[known->second];
  }
  if (e.packages.size() >= kMaxPastedPackages) {
    if (e.packages.size() == kMaxPastedPackages && std::find(snap.python->errors.begin(), snap.python->errors.end(),
                                                             kPackagesCut) == snap.python->errors.end()) {
      snap.python->errors.push_back(kPackagesCut);
    }
    dropped_ = PythonPackage{};
    return dropped_;
  }
  const auto [it, added] = by_name.try_emplace(std::string(name), e.packages.size());
  (void)it;
  (void)added;
  // A long list is given its full room once rather than doubled again and again: each doubling
  // holds the old and the new array at once (about 1 KB a package).
  if (e.packages.size() == e.packages.capacity() && e.packages.size() >= 512) {
    e.packages.reserve(kMaxPastedPackages);
  }
  PythonPackage p;
  p.name = std::string(name);
  p.location = e.prefix;
  p.metadata_dir = "(pasted list)";
  e.packages.push_back(std::move(p));
  return e.packages.back();
}

NvmlDevice& PasteSink::nvidia_gpu(int index) {
  NvmlInfo& n = nvml();
  if (auto known = gpu_by_index_.find(index); known != gpu_by_index_.end() &&
                                              known->second < n.devices.size() &&
                                              n.devices[known->second].index == index) {
    return n.devices[known->second];
  }
  for (std::size_t k = 0; k < n.devices.size(); ++k) {  // a device a reader added itself
    if (n.devices[k].index == index) {
      gpu_by_index_[index] = k;
      return n.devices[k];
    }
  }
  if (n.devices.size() >= kMaxPastedGpus) {
    const std::string cut = "the paste lists NVIDIA GPUs past " + std::to_string(kMaxPastedGpus) +
                            ": the rest were not read";
    if (std::find(not_read.begin(), not_read.end(), cut) == not_read.end()) not_read.push_back(cut);
    dropped_gpu_ = NvmlDevice{};
    return dropped_gpu_;
  }
  NvmlDevice d;
  d.index = index;
  gpu_by_index_[index] = n.devices.size();
  n.devices.push_back(std::move(d));
  return n.devices.back();
}

void set_torch_version(PasteSink& sink, std::string_view version, std::size_t i) {
  std::string v(trim(version));
  if (no_value(v)) return;
  PythonPackage& p = sink.package("torch");
  if (!p.torch) p.torch.emplace();
  p.torch->version = v;
  const auto plus = v.find('+');
  p.torch->local_version =
      plus == std::string::npos ? std::nullopt : std::optional<std::string>(v.substr(plus + 1));
  p.version = v.substr(0, plus);
  sink.fact("torch.version", v, i);
}

bool no_value(std::string_view v) {
  const std::string l = to_lower(trim(v));
  return l.empty() || l == "n/a" || l == "none" || l == "could not collect" || l == "no cuda" ||
         l == "not available" || l == "unknown";
}

// The message entries' version captures and the readers' versions are read the same way.
std::string leading_version(std::string_view s) { return leading_number(s); }

std::optional<int> packed_cuda_version(std::string_view text) {
  const std::string v = leading_version(text);
  const auto dot = v.find('.');
  const auto major = parse_int(v.substr(0, dot));
  const auto minor = dot == std::string::npos ? std::optional<std::int64_t>(0)
                                              : parse_int(v.substr(dot + 1, v.find('.', dot + 1) - dot - 1));
  if (!major || !minor || *major < 1 || *major >= 100 || *minor < 0 || *minor >= 100) {
    return std::nullopt;
  }
  return static_cast<int>(*major * 1000 + *minor * 10);
}

void add_nvcc_toolkit(PasteSink& sink, const std::string& version, std::size_t i) {
  if (version.empty()) return;
  NvidiaSystem& n = sink.nvidia();
  sink.fact("nvcc.version", version, i);
  for (const auto& t : n.toolkits) {
    if (t.version == version) return;
  }
  CudaToolkit t;
  t.path = "nvcc on PATH";
  t.source = "PATH";
  t.found_by = {"PATH"};
  t.version = version;
  t.version_source = "nvcc";
  n.toolkits.push_back(std::move(t));
}

}  // namespace gpudoctor
