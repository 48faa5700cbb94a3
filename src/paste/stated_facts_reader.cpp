// Facts a person states in free text, on lines no reader of a format took: "torch
// 2.1.0+cu121", "NVIDIA driver 535.104.05", "RTX 4090", nvcc's "release 12.1, V12.1.105",
// /proc/version's "Linux version 5.15.0-…-microsoft-standard-WSL2". They fill only what no dump
// in the paste said (a dump's own line wins), so the checks run on a paste of prose and
// fragments as on a structured one.
#include <algorithm>
#include <optional>
#include <regex>
#include <utility>
#include <vector>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_stated = "stated facts";

/// A regex search only on lines that hold one of the cheap words first.
bool holds_any(std::string_view t, std::initializer_list<std::string_view> words) {
  for (auto w : words) {
    if (t.find(w) != std::string_view::npos) return true;
  }
  return false;
}

bool has_torch(const PasteSink& sink) {
  if (!sink.snap.python) return false;
  for (const auto& env : sink.snap.python->envs) {
    for (const auto& p : env.packages) {
      if (p.name == "torch") return true;
    }
  }
  return false;
}

bool has_gpu(const PasteSink& sink) {
  const Snapshot& s = sink.snap;
  return (s.nvml && !s.nvml->devices.empty()) || (s.rocm && !s.rocm->nodes.empty()) ||
         (s.pci && !s.pci->devices.empty()) || (s.macos && !s.macos->gpus.empty());
}

/// torch with a build tag: "torch==2.1.0+cu121", "PyTorch 2.6.0+cu126", "torch 2.3.1+rocm6.0".
bool torch_line(PasteSink& sink, const std::string& t, std::size_t i) {
  static const std::regex re(
      R"((?:^|[^\w.-])(?:torch|pytorch|PyTorch|Pytorch)(?:\s*(?:==|=|:|version:?|v)\s*|\s+)(\d+\.\d+(?:\.\d+)?(?:(?:a|b|rc|\.dev)\d+)?)\+(cu\d{2,3}|rocm\d+(?:\.\d+)*|cpu|xpu)\b)");
  if (has_torch(sink) || !holds_any(t, {"orch"})) return false;
  std::smatch m;
  if (!std::regex_search(t, m, re)) return false;
  add_listed_package(sink, "torch", m[1].str() + "+" + m[2].str(), "", i);
  return true;
}

/// A version alone on its line with torch's build tag: what print(torch.__version__) prints
/// ("1.8.1+cu102" under the print in pytorch/pytorch#85332; "2.11.0+cu130" on a real H200), also
/// as the REPL echoes it ('2.11.0+cu130', Out[2]: '…'). Only torch's own numbering (major ≥ 1):
/// torchvision's 0.x carries the same tags.
bool bare_torch_version_line(PasteSink& sink, const std::string& t, std::size_t i) {
  static const std::regex re(
      R"(^\s*(?:>>>\s*|Out\[\d+\]:\s*)?['"]?([1-9]\d*\.\d+(?:\.\d+)?(?:(?:a|b|rc|\.dev)\d+)?)\+(cu\d{2,3}|rocm\d+(?:\.\d+)*|cpu|xpu)['"]?\s*$)");
  if (has_torch(sink) || t.find('+') == std::string::npos) return false;
  std::smatch m;
  if (!std::regex_match(t, m, re)) return false;
  add_listed_package(sink, "torch", m[1].str() + "+" + m[2].str(), "", i);
  return true;
}

/// "NVIDIA driver 535.104.05", "Driver Version: 550.54.14", "driver version 470.82.01".
bool driver_line(PasteSink& sink, const std::string& t, std::size_t i) {
  static const std::regex re(
      R"((?:[Dd]river|DRIVER)(?:\s+[Vv]ersion)?\s*:?\s*(?:is\s+)?(?:v)?(\d{3}\.\d{1,3}(?:\.\d{1,3})?)\b)");
  if (sink.snap.nvml && sink.snap.nvml->driver_version) return false;
  if (!holds_any(t, {"river", "RIVER"}) || !holds_any(to_lower(t), {"nvidia", "driver version"})) {
    return false;
  }
  std::smatch m;
  if (!std::regex_search(t, m, re)) return false;
  sink.nvml().driver_version = m[1].str();
  sink.fact("nvidia.driver", m[1].str(), i);
  return true;
}

/// An NVIDIA GPU named in a sentence: "GeForce RTX 3060 Laptop GPU", "RTX 4090", "NVIDIA A100".
/// Every GPU the sentence names is one in question ("works with the GTX 1050Ti, fails when I
/// switch to the RTX 2070": AlexeyAB/darknet#2836), each its own device.
bool gpu_line(PasteSink& sink, const std::string& t, std::size_t i) {
  static const std::regex re(
      R"((?:NVIDIA\s+)?(?:GeForce\s+)?(?:RTX|GTX)\s+\d{3,4}(?:\s*(?:Ti|SUPER|Super))?(?:\s+(?:Laptop GPU|D))?|(?:NVIDIA\s+)?RTX\s+(?:A|PRO\s+)\d{3,4}(?:\s+Ada)?|(?:NVIDIA\s+)?Tesla\s+[KMPVT]\d+\w*|NVIDIA\s+(?:A|H|B|L|GH|GB)\d{1,3}\b(?:\s+\d+GB)?(?:\s+(?:PCIe|SXM\d?|HBM3))?)");
  if (has_gpu(sink) || !holds_any(t, {"RTX", "GTX", "Tesla", "NVIDIA"})) return false;
  std::vector<std::string> named;
  for (auto it = std::sregex_iterator(t.begin(), t.end(), re); it != std::sregex_iterator(); ++it) {
    const std::string whole = (*it)[0].str();
    std::string name(trim(whole));
    if (std::find(named.begin(), named.end(), name) == named.end()) named.push_back(name);
    if (named.size() == 8) break;
  }
  for (std::size_t k = 0; k < named.size(); ++k) {
    add_named_gpu(sink, static_cast<int>(k), named[k], i);
  }
  return has_gpu(sink);
}

/// The CUDA toolkit a person lists: "- CUDA 9.0.176", "CUDA Toolkit 11.8", "cuda toolkit
/// version: 12.1". Only a toolkit's full x.y.z or a line that says toolkit: a bare "CUDA 12.2"
/// is as often the driver's CUDA (nvidia-smi's header) or the one torch was built with.
bool toolkit_line(PasteSink& sink, const std::string& t, std::size_t i) {
  static const std::regex full(
      R"((?:^|[^\w.])CUDA\s*(?:[Vv]ersion\s*)?:?\s*v?(\d{1,2}\.\d\.\d{1,3})\b)",
      std::regex::icase);
  static const std::regex named(
      R"(CUDA\s+[Tt]oolkit\s*(?:[Vv]ersion\s*)?:?\s*v?(\d{1,2}\.\d)(?:\.\d+)?\b)",
      std::regex::icase);
  if (sink.snap.nvidia && !sink.snap.nvidia->toolkits.empty()) return false;
  if (!holds_any(t, {"CUDA", "cuda", "Cuda"})) return false;
  std::smatch m;
  if (std::regex_search(t, m, full) || std::regex_search(t, m, named)) {
    add_nvcc_toolkit(sink, m[1].str(), i);
    return true;
  }
  return false;
}

/// nvcc --version: "Cuda compilation tools, release 12.1, V12.1.105".
bool nvcc_line(PasteSink& sink, const std::string& t, std::size_t i) {
  static const std::regex re(R"(Cuda compilation tools, release \d+\.\d+, V(\d+\.\d+\.\d+))");
  if (!holds_any(t, {"Cuda compilation tools"})) return false;
  std::smatch m;
  if (!std::regex_search(t, m, re)) return false;
  if (sink.snap.nvidia && !sink.snap.nvidia->toolkits.empty()) return true;
  add_nvcc_toolkit(sink, m[1].str(), i);
  return true;
}

/// /proc/version or uname -a: the kernel release, and WSL where the kernel is Microsoft's.
bool kernel_line(PasteSink& sink, const std::string& t, std::size_t i) {
  static const std::regex re(R"((?:^Linux version |^Linux \S+ )(\d+\.\d+\.\d+[^\s]*))");
  if (!starts_with(t, "Linux ")) return false;
  std::smatch m;
  if (!std::regex_search(t, m, re)) return false;
  HostInfo& h = sink.host();
  if (!h.kernel_release) h.kernel_release = m[1].str();
  sink.fact("kernel", m[1].str(), i);
  if (to_lower(m[1].str()).find("microsoft") != std::string::npos) {
    h.wsl = true;
    if (m[1].str().find("WSL2") != std::string::npos) h.wsl_version = "2";
  }
  return true;
}

/// For a call at `at` inside `print(…)` on the line: the position of the argument holding it and
/// the number of arguments (commas outside brackets and quotes), or nothing where the call is not
/// inside a print.
std::optional<std::pair<std::size_t, std::size_t>> printed_position(std::string_view t,
                                                                    std::size_t at) {
  const auto open = t.rfind("print(", at);
  if (open == std::string_view::npos) return std::nullopt;
  std::size_t depth = 0;
  std::size_t commas = 0;
  std::size_t position = 0;
  char quote = 0;
  for (std::size_t k = open + 6; k < t.size(); ++k) {
    const char c = t[k];
    if (k == at) position = commas;
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth > 0) {
        --depth;
        continue;
      }
      // print's own closing parenthesis: the call must stand before it.
      if (at < k) return std::make_pair(position, commas + 1);
      return std::nullopt;
    } else if (c == ',' && depth == 0) {
      ++commas;
    }
  }
  return std::nullopt;  // print's closing parenthesis is not on the line
}

/// "torch.cuda.is_available() returns False", or the call on one line and "False" printed on one
/// of the next two: the symptom stated, whatever the person's wording around it.
bool is_available_line(PasteSink& sink, std::size_t i) {
  const auto& lines = sink.lines();
  const std::string_view t = lines[i].text;
  // collect_env's label on its own, retyped or cut out of the dump ("Is CUDA available: false").
  const std::string lt = to_lower(t);
  const auto label = lt.find("is cuda available");
  if (label != std::string::npos) {
    std::string_view rest = trim(std::string_view(lt).substr(label + 17));
    if (!rest.empty() && rest.front() == ':') rest = trim(rest.substr(1));
    const std::string_view word = rest.substr(0, rest.find_first_of(" \t.,;)`'\""));
    if (word == "false" || word == "no") {
      // Not a complaint where the same dump says torch uses another GPU API or is a CPU build.
      const std::size_t from = i > 30 ? i - 30 : 0;
      for (std::size_t k = from; k < lines.size() && k < i + 30; ++k) {
        const std::string_view n = lines[k].text;
        if (n.find("Is XPU available: True") != std::string_view::npos ||
            n.find("CUDA used to build PyTorch: None") != std::string_view::npos ||
            n.find("Is MPS available: True") != std::string_view::npos) {
          return true;  // read, and no symptom
        }
      }
      sink.symptom("torch.cuda_unavailable", "torch", i);
      return true;
    }
  }
  const auto at = t.find("cuda.is_available()");
  if (at == std::string::npos) return false;
  const auto says_false = [](std::string_view x) {
    return x.find("False") != std::string_view::npos || x.find("false") != std::string_view::npos;
  };
  std::size_t where = i;
  bool stated = says_false(std::string_view(t).substr(at));
  // `print(torch.__version__, torch.cuda.is_available())` prints its values space-separated on
  // the next line ("2.1.0+cu118 False"): the value at the call's position is the answer.
  const auto printed = printed_position(t, at);
  for (std::size_t k = i + 1; !stated && k < lines.size() && k <= i + 2; ++k) {
    const std::string_view next = trim(lines[k].text);
    const std::string low = to_lower(next);
    if (low == "false" || low == ">>> false" || low == "return false") {
      stated = true;
      where = k;
    } else if (printed && printed->second > 1) {
      const auto words = split_words(next);
      if (words.size() == printed->second && words[printed->first] == "False") {
        stated = true;
        where = k;
      }
    }
  }
  if (!stated) return false;
  sink.symptom("torch.cuda_unavailable", "torch", where);
  if (where != i) sink.claim(where, kFormat_stated);
  return true;
}

/// TensorFlow's own list of its GPUs, as people print it: `tf.config.list_physical_devices('GPU')`
/// answered by "[]" (no GPU) or by "[PhysicalDevice(name='/physical_device:GPU:0', …)]", and the
/// tutorials' "Num GPUs Available:  0". TensorFlow's log lines may stand between the call and
/// its answer.
bool tensorflow_devices_line(PasteSink& sink, std::size_t i) {
  const auto& lines = sink.lines();
  const std::string_view t = trim(lines[i].text);
  if (t.find("PhysicalDevice(name='/physical_device:GPU:") != std::string_view::npos) {
    sink.fact("tensorflow.devices", std::string(t.substr(0, 200)), i);
    return true;
  }
  // "Num GPUs Available:  0" (TensorFlow's guide), "Num GPUs: 0".
  if (starts_with(t, "Num GPUs") && t.find(':') != std::string_view::npos && t.size() < 40) {
    const std::string_view n = trim(t.substr(t.find(':') + 1));
    if (n == "0") {
      sink.symptom("tensorflow.no_gpu_listed", "tensorflow", i);
    } else {
      sink.fact("tensorflow.devices", std::string(t), i);
    }
    return true;
  }
  if (t.find("list_physical_devices(") == std::string_view::npos ||
      (t.find("'GPU'") == std::string_view::npos && t.find("\"GPU\"") == std::string_view::npos)) {
    return false;
  }
  for (std::size_t k = i + 1; k < lines.size() && k <= i + 8; ++k) {
    const std::string_view next = trim(lines[k].text);
    // "[]", or "GPU []" where the print put a label before the list.
    const bool empty_list = next == "[]" || next == ">>> []" ||
                            (ends_with(next, " []") && next.size() < 60 &&
                             next.find('[') == next.size() - 2);
    if (empty_list) {
      sink.symptom("tensorflow.no_gpu_listed", "tensorflow", k);
      sink.claim(k, kFormat_stated);
      return true;
    }
    if (starts_with(next, "[PhysicalDevice(") || starts_with(next, ">>>") ||
        starts_with(next, "$")) {
      break;
    }
  }
  return false;
}

}  // namespace

void read_stated_facts(PasteSink& sink) {
  const auto& lines = sink.lines();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i) || lines[i].fence) continue;
    const std::string_view line = lines[i].text;
    if (is_available_line(sink, i) || tensorflow_devices_line(sink, i)) {
      sink.claim(i, kFormat_stated);
      continue;
    }
    if (line.size() > 2000 || line.find_first_of("0123456789") == std::string::npos) continue;
    const std::string t(line);
    bool took = nvcc_line(sink, t, i);
    took = kernel_line(sink, t, i) || took;
    took = torch_line(sink, t, i) || took;
    took = bare_torch_version_line(sink, t, i) || took;
    took = driver_line(sink, t, i) || took;
    took = gpu_line(sink, t, i) || took;
    took = toolkit_line(sink, t, i) || took;
    if (took) sink.claim(i, kFormat_stated);
  }
}

}  // namespace gpudoctor
