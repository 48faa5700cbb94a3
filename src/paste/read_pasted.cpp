#include "paste/read_pasted.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <sstream>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// The most pasted lines one finding quotes; the rest are counted.
constexpr std::size_t kMostQuotes = 20;

/// Runs of lines that belong to the same reader; blank lines and fences inside a run join it.
std::vector<PastePart> parts_of(const PasteSink& sink) {
  std::vector<PastePart> out;
  const auto& lines = sink.lines();
  std::size_t last = 0;  // the entry of out.back()'s last line
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view owner = sink.owner(i);
    if (owner.empty()) continue;
    if (!out.empty() && out.back().format == owner) {
      // Joined when only blank or fence lines stand between.
      bool gap_blank = true;
      for (std::size_t k = last + 1; k < i && gap_blank; ++k) {
        gap_blank = lines[k].fence || trim(lines[k].text).empty();
      }
      if (gap_blank) {
        out.back().last_line = lines[i].number;
        last = i;
        continue;
      }
    }
    out.push_back({std::string(owner), lines[i].number, lines[i].number});
    last = i;
  }
  return out;
}

std::vector<std::pair<int, int>> unrecognised_of(const PasteSink& sink) {
  std::vector<std::pair<int, int>> out;
  const auto& lines = sink.lines();
  std::size_t last = 0;  // the entry of out.back().second
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i) || lines[i].fence || trim(lines[i].text).empty()) continue;
    if (!out.empty() && out.back().second >= lines[i].number - 1) {
      out.back().second = lines[i].number;
      last = i;
      continue;
    }
    // Blank lines between two unrecognised lines join them.
    if (!out.empty()) {
      bool gap_blank = true;
      for (std::size_t k = last + 1; k < i && gap_blank; ++k) {
        gap_blank = !sink.claimed(k) && (lines[k].fence || trim(lines[k].text).empty());
      }
      if (gap_blank) {
        out.back().second = lines[i].number;
        last = i;
        continue;
      }
    }
    out.emplace_back(lines[i].number, lines[i].number);
    last = i;
  }
  return out;
}

}  // namespace

const std::vector<PasteReader>& paste_readers() {
  // Messages first (they sit inside other dumps), then the formats with their own markers,
  // the package lists (whose rows are the least distinctive) last.
  static const std::vector<PasteReader> readers = {
      {"deviceQuery", read_device_query},
      {"dmesg/journalctl (NVRM, modprobe)", read_kernel_log},
      {"lspci -k", read_lspci},
      {"error messages (torch, JAX, TensorFlow, CUDA, ROCm, …)", read_messages},
      {"nvidia-smi -q", read_nvidia_smi_query},
      {"nvidia-smi", read_nvidia_smi},
      {"nvidia-smi table rows without the header", read_nvidia_smi_rows},
      {"collect_env", read_collect_env},
      {"jax.print_environment_info", read_jax_info},
      {"rocminfo", read_rocminfo},
      {"rocm-smi", read_rocm_smi},
      {"system_profiler SPDisplaysDataType", read_system_profiler},
      {"clinfo", read_clinfo},
      {"vulkaninfo", read_vulkaninfo},
      {"sycl-ls", read_sycl_ls},
      {"xpu-smi discovery", read_xpu_smi},
      {"xpu-smi health", read_xpu_smi_health},
      {"ollama logs", read_ollama_log},
      {"llama.cpp/ggml start-up", read_ggml_log},
      {"ComfyUI start-up and system information", read_comfyui},
      {"vLLM log, numba -s, Vulkan device lines, conda info", read_startup_lines},
      {"TensorFlow env/issue template", read_tensorflow},
      {"amd-smi (static, list, version, monitor, --json)", read_amd_smi},
      {"CUDA.jl versioninfo()", read_cuda_jl},
      {"cupy.show_config()", read_cupy_config},
      {"pip list/freeze, conda list", read_package_lists},
      {"conda rows and specs (pytorch …_cpu_0, cudatoolkit)", read_conda_rows},
      {"nvcc --version, /proc/version, uname -a (WSL kernels)", read_system_strings},
      {"Docker / container runtime errors", read_container_lines},
      {"kubectl describe node (Capacity, Allocatable)", read_kubectl_node},
      {"versions and GPUs stated in prose", read_stated_facts},
      {"error lines that state a failure", read_stated_failures},
  };
  return readers;
}

std::string paste_formats_text() {
  std::vector<std::string> names;
  for (const auto& r : paste_readers()) names.emplace_back(r.reads);
  return join(names, ", ");
}

PastedReading read_pasted(std::string_view text) { return read_pasted_text(std::string(text)); }

PastedReading read_pasted_text(std::string text) {
  PastedReading r;
  // The lines are slices of the text the reading owns; a NUL byte ends nothing, it reads as a
  // space (UTF-16 decoded with a stray NUL, a binary byte in a log).
  std::replace(text.begin(), text.end(), '\0', ' ');
  r.text = std::make_shared<const std::string>(std::move(text));
  r.lines = clean_paste(*r.text);
  PasteSink sink(r.lines);
  for (const auto& reader : paste_readers()) reader.read(sink);
  note_stated_conflicts(sink);
  r.parts = parts_of(sink);
  r.unrecognised = unrecognised_of(sink);
  r.facts = std::move(sink.facts);
  r.not_read = std::move(sink.not_read);
  const auto cut = std::count_if(r.lines.begin(), r.lines.end(), [](const PasteLine& l) { return l.cut; });
  if (cut > 0) {
    r.not_read.push_back(std::to_string(cut) + (cut == 1 ? " line's" : " lines'") +
                         " text past its first " + std::to_string(kMaxPasteLineBytes >> 10) +
                         " KiB");
  }
  r.snapshot = std::move(sink.snap);
  return r;
}

bool looks_like_json(std::string_view text) {
  const std::string_view t = trim(text);
  if (t.empty()) return false;
  if (t.front() == '{') return true;
  // dmesg ("[    2.5] NVRM: …"), "[Bug]" titles and log levels open with '[' too: an array
  // is JSON only when the whole text parses as JSON.
  return t.front() == '[' && Json::accept(t.begin(), t.end());
}

/// The messages behind a finding that a check drew from the facts they set (cuInit's code, NVML's
/// return code) without naming the message itself.
const std::vector<std::pair<std::string_view, std::string_view>>& messages_behind() {
  static const std::vector<std::pair<std::string_view, std::string_view>> table = {
      {"cuda.init", "torch.cuda_unknown_error"},
      {"cuda.init", "ollama.cuda_init"},
      {"cuda.init", "cuda.init_failed"},
      {"nvidia.driver_library_mismatch", "nvml.driver_library_mismatch"},
      {"nvidia.driver_library_mismatch", "nvrm.api_mismatch"},
      {"python.torch_cpu_only", "torch.cuda_unavailable"},
      {"python.torch_cpu_only", "torch.not_compiled_with_cuda"},
      {"python.torch_cuda_driver", "torch.cuda_unavailable"},
      {"python.jax_cpu_only", "jax.cpu_fallback"},
      {"python.jax_cpu_only", "jax.cpu_devices_only"},
      {"rocm.gfx_unsupported", "rocm.tensile_missing"},
      {"rocm.gfx_unsupported", "rocm.no_code_object"},
      {"rocm.torch_gfx_unsupported", "rocm.tensile_missing"},
      {"rocm.torch_gfx_unsupported", "rocm.no_code_object"},
      {"rocm.hip_init", "hip.device_count_failed"},
      {"symptom.unexplained", "torch.cuda_unavailable"},
      {"symptom.unexplained", "torch.mps_unavailable"},
      {"symptom.unexplained", "jax.cpu_fallback"},
      {"symptom.unexplained", "jax.cpu_devices_only"},
      {"symptom.unexplained", "tensorflow.no_gpu_listed"},
      {"symptom.unexplained", "ollama.no_gpu"},
      {"symptom.unexplained", "stated.failure"},
      {"vulkan.no_driver", "vulkan.no_driver"},
      {"vulkan.no_driver", "vulkan.result_name"},
      {"vulkan.no_driver", "vulkan.result_number"},
      {"opencl.no_icd", "opencl.error_name"},
      {"opencl.no_icd", "opencl.error_number"},
      {"opencl.no_icd", "opencl.platform_not_found"},
  };
  return table;
}

bool looks_like_text(std::string_view text) {
  return !trim(text).empty() && text.find('\0') == std::string_view::npos;
}

void quote_findings(const PastedReading& reading, std::vector<Finding>& findings) {
  // Each distinct value once, with the lines that hold it: a dump pasted a thousand times
  // costs a finding one test per value, not one per line.
  std::unordered_map<std::string_view, std::vector<int>> lines_of;
  std::vector<std::string_view> values;  // in the order first seen
  for (const auto& fact : reading.facts) {
    if (fact.value.size() < 3) continue;
    auto [it, added] = lines_of.try_emplace(fact.value);
    if (added) values.push_back(fact.value);
    it->second.push_back(fact.line);
  }
  for (auto& f : findings) {
    std::string said = f.title;
    for (const auto& e : f.evidence) said += "\n" + e;
    std::set<int> lines;
    for (std::string_view v : values) {
      if (contains_token(said, v)) {
        const auto& at = lines_of.at(v);
        lines.insert(at.begin(), at.end());
      }
    }
    for (const auto& [finding, symptom] : messages_behind()) {
      if (f.id != finding) continue;
      for (const auto& s : reading.snapshot.symptoms) {
        if (s.id == symptom && s.line) lines.insert(*s.line);
      }
    }
    // A line whose text was quoted already (the same dump pasted twice) is not quoted again,
    // and a finding quotes at most kMostQuotes lines, then says how many more there were.
    std::unordered_set<std::string_view> quoted;
    std::size_t more = 0;
    int first_left_out = 0;
    for (int n : lines) {
      const PasteLine* l = line_numbered(reading.lines, n);
      if (l == nullptr) continue;
      const std::string_view text = trim(l->text);
      if (!quoted.insert(text).second) continue;
      if (f.quotes.size() < kMostQuotes) {
        f.quotes.push_back({n, std::string(text)});
      } else if (more++ == 0) {
        first_left_out = n;
      }
    }
    if (more > 0) {
      f.quotes.push_back({first_left_out, "(and " + std::to_string(more) + " more)"});
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

Json paste_json(const PastedReading& reading, const std::vector<PasteAsk>& asks) {
  Json unrecognised = Json::array();
  for (const auto& [from, to] : reading.unrecognised) unrecognised.push_back({from, to});
  return Json{{"lines", line_count(reading.lines)},
              {"parts", reading.parts},
              {"unrecognised", unrecognised},
              {"not_read", reading.not_read},
              {"ask", asks}};
}

/// At most kMostPasteListed items, then how many more: a long paste's lists stay a line each
/// (--json carries every one).
constexpr std::size_t kMostPasteListed = 12;
static std::string join_paste_list(const std::vector<std::string>& items, const char* more_what) {
  if (items.size() <= kMostPasteListed) return join(items, ", ");
  const std::vector<std::string> shown(items.begin(), items.begin() + kMostPasteListed);
  return join(shown, ", ") + " and " + std::to_string(items.size() - kMostPasteListed) + " more " +
         more_what + " (--json lists every one)";
}

std::string render_paste_text(const PastedReading& reading, const std::vector<PasteAsk>& asks) {
  std::ostringstream os;
  std::vector<std::string> parts;
  for (const auto& p : reading.parts) {
    parts.push_back(p.format + " (line" + (p.first_line == p.last_line ? " " : "s ") +
                    std::to_string(p.first_line) +
                    (p.first_line == p.last_line ? "" : "–" + std::to_string(p.last_line)) + ")");
  }
  os << "\nRead from the paste: " << join_paste_list(parts, "parts") << "\n";
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
       << join_paste_list(ranges, "ranges") << "\n";
  }
  for (const auto& cut : reading.not_read) os << "Not read: " << cut << "\n";
  if (!asks.empty()) {
    os << "What would decide more:\n";
    for (const auto& a : asks) os << "  ask for `" << a.ask << "`: " << a.why << "\n";
  }
  return os.str();
}

}  // namespace gpudoctor
