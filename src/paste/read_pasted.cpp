#include "paste/read_pasted.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "compat/compat_query.hpp"
#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// Runs of lines that belong to the same reader; blank lines and fences inside a run join it.
std::vector<PastePart> parts_of(const PasteSink& sink) {
  std::vector<PastePart> out;
  const auto& lines = sink.lines();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& owner = sink.owner(i);
    if (owner.empty()) continue;
    if (!out.empty() && out.back().format == owner) {
      // Joined when only blank or fence lines stand between.
      bool gap_blank = true;
      for (int n = out.back().last_line; n < lines[i].number - 1 && gap_blank; ++n) {
        const PasteLine& between = lines[static_cast<std::size_t>(n)];
        gap_blank = between.fence || trim(between.text).empty();
      }
      if (gap_blank) {
        out.back().last_line = lines[i].number;
        continue;
      }
    }
    out.push_back({owner, lines[i].number, lines[i].number});
  }
  return out;
}

std::vector<std::pair<int, int>> unrecognised_of(const PasteSink& sink) {
  std::vector<std::pair<int, int>> out;
  const auto& lines = sink.lines();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i) || lines[i].fence || trim(lines[i].text).empty()) continue;
    if (!out.empty() && out.back().second >= lines[i].number - 1) {
      out.back().second = lines[i].number;
      continue;
    }
    // Blank lines between two unrecognised lines join them.
    if (!out.empty()) {
      bool gap_blank = true;
      for (int n = out.back().second; n < lines[i].number - 1 && gap_blank; ++n) {
        const PasteLine& between = lines[static_cast<std::size_t>(n)];
        gap_blank = !sink.claimed(static_cast<std::size_t>(n)) &&
                    (between.fence || trim(between.text).empty());
      }
      if (gap_blank) {
        out.back().second = lines[i].number;
        continue;
      }
    }
    out.emplace_back(lines[i].number, lines[i].number);
  }
  return out;
}

bool has_finding(const std::vector<Finding>& findings, std::string_view prefix) {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding& f) { return starts_with(f.id, prefix); });
}

bool has_symptom(const Snapshot& s, std::string_view id) {
  return std::any_of(s.symptoms.begin(), s.symptoms.end(),
                     [&](const Symptom& x) { return x.id == id; });
}

const PythonPackage* find_in(const Snapshot& s, std::string_view name) {
  if (!s.python) return nullptr;
  for (const auto& env : s.python->envs) {
    for (const auto& p : env.packages) {
      if (p.name == name) return &p;
    }
  }
  return nullptr;
}

}  // namespace

PastedReading read_pasted(std::string_view text) {
  PastedReading r;
  r.lines = clean_paste(text);
  PasteSink sink(r.lines);
  // Messages first (they sit inside other dumps), then the formats with their own markers,
  // the package lists (whose rows are the least distinctive) last.
  read_messages(sink);
  read_nvidia_smi_query(sink);
  read_nvidia_smi(sink);
  read_collect_env(sink);
  read_jax_info(sink);
  read_rocminfo(sink);
  read_rocm_smi(sink);
  read_system_profiler(sink);
  read_clinfo(sink);
  read_vulkaninfo(sink);
  read_ollama_log(sink);
  read_tensorflow(sink);
  read_package_lists(sink);
  r.parts = parts_of(sink);
  r.unrecognised = unrecognised_of(sink);
  r.facts = std::move(sink.facts);
  r.snapshot = std::move(sink.snap);
  return r;
}

bool looks_like_json(std::string_view text) {
  const std::string_view t = trim(text);
  return !t.empty() && (t.front() == '{' || t.front() == '[');
}

/// The messages behind a finding that a check drew from the facts they set (cuInit's code, NVML's
/// return code) without naming the message itself.
const std::vector<std::pair<std::string_view, std::string_view>>& messages_behind() {
  static const std::vector<std::pair<std::string_view, std::string_view>> table = {
      {"cuda.init", "torch.cuda_unknown_error"},
      {"cuda.init", "ollama.cuda_init"},
      {"cuda.init", "cuda.init_failed"},
      {"nvidia.driver_library_mismatch", "nvml.driver_library_mismatch"},
      {"python.torch_cpu_only", "torch.cuda_unavailable"},
      {"python.torch_cpu_only", "torch.not_compiled_with_cuda"},
      {"python.torch_cuda_driver", "torch.cuda_unavailable"},
      {"python.jax_cpu_only", "jax.cpu_fallback"},
      {"python.jax_cpu_only", "jax.cpu_devices_only"},
      {"rocm.gfx_unsupported", "rocm.tensile_missing"},
      {"rocm.gfx_unsupported", "rocm.no_code_object"},
      {"rocm.torch_gfx_unsupported", "rocm.tensile_missing"},
      {"rocm.torch_gfx_unsupported", "rocm.no_code_object"},
  };
  return table;
}

void quote_findings(const PastedReading& reading, std::vector<Finding>& findings) {
  for (auto& f : findings) {
    std::string said = f.title;
    for (const auto& e : f.evidence) said += "\n" + e;
    std::set<int> lines;
    for (const auto& fact : reading.facts) {
      if (fact.value.size() < 3) continue;
      if (contains_token(said, fact.value)) lines.insert(fact.line);
    }
    for (const auto& [finding, symptom] : messages_behind()) {
      if (f.id != finding) continue;
      for (const auto& s : reading.snapshot.symptoms) {
        if (s.id == symptom && s.line) lines.insert(*s.line);
      }
    }
    for (int n : lines) {
      const PasteLine& l = reading.lines[static_cast<std::size_t>(n - 1)];
      f.quotes.push_back({n, std::string(trim(l.text))});
    }
  }
}

void drop_unfounded(const PastedReading& reading, std::vector<Finding>& findings) {
  const Snapshot& s = reading.snapshot;
  findings.erase(
      std::remove_if(findings.begin(), findings.end(),
                     [&](const Finding& f) {
                       // No pasted tool lists ICD files or manifests: their absence is unknown.
                       if (f.id == "opencl.no_icd" && f.quotes.empty()) return true;
                       if ((f.id == "vulkan.no_driver" || f.id == "vulkan.manifest_broken") &&
                           f.quotes.empty()) {
                         return true;
                       }
                       return f.id == "opencl.icd_broken" && s.opencl && s.opencl->icds.empty();
                     }),
      findings.end());
}

std::vector<PasteAsk> what_would_decide(const PastedReading& reading,
                                        const std::vector<Finding>& findings) {
  const Snapshot& s = reading.snapshot;
  std::vector<PasteAsk> out;
  const bool driver_known = (s.nvml && (s.nvml->driver_version || s.nvml->cuda_driver_version)) ||
                            has_symptom(s, "torch.driver_too_old");
  const bool nvidia_gpus_known = s.nvml && !s.nvml->devices.empty();
  const bool amd_known = s.rocm && !s.rocm->nodes.empty();
  const PythonPackage* torch = find_in(s, "torch");
  const bool torch_cuda = torch && torch->torch && torch->torch->cuda;
  const bool torch_rocm = torch && torch->torch && torch->torch->hip;
  const bool mac = s.host && s.host->os_id == std::optional<std::string>("macos");
  const bool nvidia_fails = has_symptom(s, "nvidia_smi.no_driver") ||
                            has_symptom(s, "nvml.driver_library_mismatch");
  if (torch_cuda && !driver_known && !nvidia_fails) {
    out.push_back({"nvidia-smi", "the driver's version decides whether torch's CUDA " +
                                     *torch->torch->cuda + " can run"});
  }
  if ((torch_cuda || find_in(s, "jaxlib") || find_in(s, "tensorflow")) && !nvidia_gpus_known &&
      !amd_known && !mac && !nvidia_fails && driver_known) {
    out.push_back({"nvidia-smi -L", "which GPU it is decides whether the framework's kernels "
                                    "include its architecture"});
  }
  if ((torch_rocm || has_symptom(s, "rocm.tensile_missing") || has_symptom(s, "rocm.no_code_object")) &&
      !(amd_known && s.rocm->nodes.front().gfx_target)) {
    out.push_back({"rocminfo", "the GPU's gfx target decides whether ROCm and torch ship code for it"});
  }
  if ((nvidia_gpus_known || driver_known) && !s.python && !s.ollama && !nvidia_fails) {
    out.push_back({"python -m torch.utils.collect_env (or pip list)",
                   "which framework build is installed decides whether it can use this GPU"});
  }
  if (has_symptom(s, "nvidia_smi.no_driver")) {
    out.push_back({"uname -r; dkms status; mokutil --sb-state; sudo dmesg | grep -i nvidia",
                   "whether the module was built for the running kernel, and whether Secure Boot "
                   "refused it"});
  }
  if (has_symptom(s, "torch.cuda_unavailable") && !has_finding(findings, "python.") &&
      !has_finding(findings, "cuda.") && !has_finding(findings, "nvidia.")) {
    out.push_back({"python -c \"import torch; torch.zeros(1).cuda()\"",
                   "torch says CUDA is not available; the error it raises names why"});
  }
  if ((has_symptom(s, "jax.cpu_fallback") || has_symptom(s, "jax.plugin_error")) && !find_in(s, "jaxlib")) {
    out.push_back({"pip list | grep -i -e jax -e nvidia",
                   "which jaxlib and CUDA plugin versions are installed decides the fix"});
  }
  // torch's CUDA build on a known NVIDIA GPU, where no arch list of that release is known: the
  // build's own list decides whether its kernels run there.
  if (torch_cuda && nvidia_gpus_known && !has_finding(findings, "python.torch_arch") &&
      !has_symptom(s, "torch.arch_unsupported")) {
    const auto v = parse_version(torch->version.value_or(""));
    const auto cuda = parse_version(*torch->torch->cuda);
    const bool windows = s.host && s.host->os_id == std::optional<std::string>("windows");
    if (v && cuda &&
        !torch_archs(builtin_compat(), *v, *cuda, windows ? "windows-x86_64" : "linux-x86_64")) {
      out.push_back({"python -c \"import torch; print(torch.cuda.get_arch_list())\"",
                     "whether torch " + torch->torch->version.value_or("") +
                         "'s kernels include this GPU's architecture (gpudoctor has no arch "
                         "list for that release)"});
    }
  }
  if (has_symptom(s, "nvidia_smi.not_installed")) {
    out.push_back({"the NVIDIA driver's installation state (nvidia-smi ships with it)",
                   "no nvidia-smi means the NVIDIA driver is not installed, or not on PATH"});
  }
  if (s.ollama && s.ollama->devices.empty() && !s.ollama->no_compatible_gpu &&
      !has_finding(findings, "ollama.")) {
    out.push_back({"journalctl -u ollama --no-pager (the server log from its start)",
                   "ollama's GPU discovery lines (\"inference compute\") say which GPU it found"});
  }
  return out;
}

Json paste_json(const PastedReading& reading, const std::vector<PasteAsk>& asks) {
  Json unrecognised = Json::array();
  for (const auto& [from, to] : reading.unrecognised) unrecognised.push_back({from, to});
  return Json{{"lines", reading.lines.size()},
              {"parts", reading.parts},
              {"unrecognised", unrecognised},
              {"ask", asks}};
}

std::string render_paste_text(const PastedReading& reading, const std::vector<PasteAsk>& asks) {
  std::ostringstream os;
  std::vector<std::string> parts;
  for (const auto& p : reading.parts) {
    parts.push_back(p.format + " (line" + (p.first_line == p.last_line ? " " : "s ") +
                    std::to_string(p.first_line) +
                    (p.first_line == p.last_line ? "" : "–" + std::to_string(p.last_line)) + ")");
  }
  os << "\nRead from the paste: " << join(parts, ", ") << "\n";
  if (!reading.unrecognised.empty()) {
    std::vector<std::string> ranges;
    for (const auto& [from, to] : reading.unrecognised) {
      ranges.push_back(from == to ? std::to_string(from)
                                  : std::to_string(from) + "–" + std::to_string(to));
    }
    os << "Not recognised: line" << (ranges.size() == 1 && reading.unrecognised[0].first ==
                                                                 reading.unrecognised[0].second
                                         ? " "
                                         : "s ")
       << join(ranges, ", ") << "\n";
  }
  if (!asks.empty()) {
    os << "What would decide more:\n";
    for (const auto& a : asks) os << "  ask for `" << a.ask << "`: " << a.why << "\n";
  }
  return os.str();
}

}  // namespace gpudoctor
