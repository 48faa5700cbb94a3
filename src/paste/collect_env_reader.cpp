// `python -m torch.utils.collect_env` and vLLM's collect_env.py. Learnt from
// torch/utils/collect_env.py across its revisions (1.3: Yes/No booleans, "Python version: 3.7";
// 1.7: ROCm lines; 1.13: "Python platform", "Libc version"; 2.0: the CPU block; 2.6+: the XPU
// block and "Caching allocator config") and vllm/collect_env.py (the same labels, then its own
// "vLLM Version", "GPU Topology" and environment variables; since 0.9 in banner sections with
// "Label    : value" lines).
#include <algorithm>
#include <cctype>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat = "collect_env";

enum class Section { labels, cpu, libraries, free_text, env_vars };

/// What one collect_env block says about torch, applied when the block ends: torch's build is
/// only known once "CUDA used to build PyTorch" was read (a truncated paste may stop before).
struct TorchLines {
  std::optional<std::size_t> version_line;
  std::optional<std::string> cuda;
  std::optional<std::string> hip;
  std::optional<std::string> xpu;
  bool cuda_line = false;
};

bool is_banner(std::string_view t) {
  return t.size() >= 10 && std::all_of(t.begin(), t.end(), [](char c) { return c == '='; });
}

/// vLLM's section titles between banner lines.
std::optional<Section> banner_title(std::string_view t) {
  static const std::pair<std::string_view, Section> titles[] = {
      {"System Info", Section::labels},         {"PyTorch Info", Section::labels},
      {"Python Environment", Section::labels},  {"CUDA / GPU Info", Section::labels},
      {"CPU Info", Section::cpu},               {"Versions of relevant libraries", Section::libraries},
      {"vLLM Info", Section::labels},           {"Environment Variables", Section::env_vars}};
  for (const auto& [title, section] : titles) {
    if (t == title) return section;
  }
  return std::nullopt;
}

bool env_assignment(std::string_view t) {
  const auto eq = t.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  return std::all_of(t.begin(), t.begin() + static_cast<long>(eq), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) != 0 ||
           std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '_';
  });
}

std::string os_id_for(std::string_view os) {
  const std::string l = to_lower(os);
  static const std::pair<const char*, const char*> ids[] = {
      {"ubuntu", "ubuntu"}, {"debian", "debian"}, {"centos", "centos"}, {"fedora", "fedora"},
      {"rocky", "rocky"},   {"red hat", "rhel"},  {"arch linux", "arch"}, {"opensuse", "opensuse"},
      {"amazon linux", "amzn"}, {"almalinux", "almalinux"}, {"linux mint", "linuxmint"},
      {"pop!_os", "pop"}, {"manjaro", "manjaro"}};
  for (const auto& [needle, id] : ids) {
    if (l.find(needle) != std::string::npos) return id;
  }
  return "";
}

/// "OS: Ubuntu 22.04.3 LTS (x86_64)", "Microsoft Windows 11 Pro", "macOS 14.4.1 (arm64)",
/// "Mac OSX 10.15.7 (x86_64)".
void read_os(PasteSink& sink, std::string_view value, std::size_t i) {
  std::string v(trim(value));
  std::optional<std::string> arch;
  if (!v.empty() && v.back() == ')') {
    const auto open = v.rfind(" (");
    if (open != std::string::npos) {
      arch = v.substr(open + 2, v.size() - open - 3);
      v = v.substr(0, open);
    }
  }
  HostInfo& h = sink.host();
  h.os_pretty_name = v;
  if (arch) h.architecture = arch;
  sink.fact("os", std::string(trim(value)), i);
  const std::string l = to_lower(v);
  if (l.find("windows") != std::string::npos) {
    h.os_id = "windows";
  } else if (starts_with(l, "macos") || starts_with(l, "mac osx") || starts_with(l, "mac os x")) {
    h.os_id = "macos";
    MacosInfo& m = sink.macos();
    const auto space = v.rfind(' ');
    m.product_version = leading_version(v.substr(space + 1));
    m.product_name = "macOS";
    // The arch is platform.machine() of the Python collect_env ran in: an x86_64 Python on
    // Apple silicon says x86_64 under Rosetta, so the CPU line (read_mac_cpu) may overrule it.
    if (arch) m.arm64 = *arch == "arm64";
  } else if (auto id = os_id_for(v); !id.empty()) {
    h.os_id = id;
  }
}

/// "Linux-5.15.153.1-microsoft-standard-WSL2-x86_64-with-glibc2.35", "Windows-10-10.0.19045-SP0".
void read_platform(PasteSink& sink, std::string_view value, std::size_t i) {
  const std::string v(trim(value));
  HostInfo& h = sink.host();
  sink.fact("platform", v, i);
  if (starts_with(v, "Linux-")) {
    std::string rest = v.substr(6);
    for (const char* arch : {"-x86_64", "-aarch64", "-ppc64le"}) {
      const auto at = rest.find(arch);
      if (at != std::string::npos) {
        h.kernel_release = rest.substr(0, at);
        if (!h.architecture) h.architecture = std::string(arch + 1);
        break;
      }
    }
    if (to_lower(v).find("microsoft") != std::string::npos) {
      h.wsl = true;
      if (v.find("WSL2") != std::string::npos) h.wsl_version = "2";
    }
  } else if (starts_with(v, "Windows-")) {
    if (!h.os_id) h.os_id = "windows";
  } else if (starts_with(v, "macOS-10.16-x86_64")) {
    // platform.platform() of a Python that macOS tells 10.16: one linked against an SDK older
    // than 11 (or run with SYSTEM_VERSION_COMPAT=1). Such an SDK has no arm64, so the
    // interpreter is x86_64 only.
    sink.env().executable_archs = std::vector<std::string>{"x86_64"};
    sink.symptom("python.macos_10_16", "collect_env", i, {{"platform", v}});
  }
}

/// The CPU block on macOS is one bare line, sysctl's machdep.cpu.brand_string: "Apple M2 Pro"
/// is Apple silicon whatever arch the OS line gave.
bool read_mac_cpu(PasteSink& sink, std::string_view t, std::size_t i) {
  if (!sink.snap.macos || sink.snap.macos->cpu_brand) return false;
  MacosInfo& m = sink.macos();
  m.cpu_brand = std::string(t);
  if (!sink.host().cpu_model) sink.host().cpu_model = std::string(t);
  if (starts_with(t, "Apple M")) m.arm64 = true;
  sink.fact("cpu", std::string(t), i);
  return true;
}

/// "GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-…)" or a bare name.
void read_gpu_line(PasteSink& sink, std::string_view text, int& next_index, std::size_t i) {
  std::string t(trim(text));
  int index = next_index;
  if (starts_with(t, "GPU ")) {
    const auto colon = t.find(':');
    if (colon != std::string::npos) {
      if (auto n = parse_int(trim(std::string_view(t).substr(4, colon - 4)))) {
        index = static_cast<int>(*n);
      }
      t = std::string(trim(std::string_view(t).substr(colon + 1)));
    }
  }
  const auto uuid = t.find(" (UUID: ");
  std::optional<std::string> uuid_text;
  if (uuid != std::string::npos) {
    uuid_text = t.substr(uuid + 8, t.find(')', uuid) - uuid - 8);
    t = t.substr(0, uuid);
  }
  if (no_value(t)) return;
  add_named_gpu(sink, index, t, i);
  if (uuid_text && sink.snap.nvml) {
    for (auto& d : sink.snap.nvml->devices) {
      if (d.index == index && !d.uuid) d.uuid = uuid_text;
    }
  }
  next_index = index + 1;
}

/// "[pip3] torch==2.1.0+cu121", "[conda] pytorch  2.1.0  py3.10_cuda12.1_cudnn8.9.2_0  pytorch".
bool read_library_line(PasteSink& sink, std::string_view t, std::size_t i) {
  if (t.empty() || t.front() != '[') return false;
  const auto close = t.find(']');
  if (close == std::string_view::npos) return false;
  const std::string_view tool = t.substr(1, close - 1);
  std::string_view rest = trim(t.substr(close + 1));
  if (tool != "pip" && tool != "pip3" && tool != "conda" && tool != "pip2") return false;
  if (no_value(rest) || rest == "No relevant packages") return true;
  std::string name;
  std::string version;
  std::string build;
  if (const auto eq = rest.find("=="); eq != std::string_view::npos) {
    name = std::string(trim(rest.substr(0, eq)));
    version = std::string(trim(rest.substr(eq + 2)));
  } else {
    auto words = split_words(rest);
    if (words.size() < 2) return true;
    name = words[0];
    version = words[1];
    if (words.size() > 2) build = words[2];
  }
  add_listed_package(sink, name, version, build, i);
  return true;
}

class Block {
 public:
  Block(PasteSink& sink, std::size_t start) : sink_(sink), i_(start) {}

  /// Reads from the start line on; returns the first line after the block.
  std::size_t run() {
    const auto& lines = sink_.lines();
    sink_.new_env("collect_env environment");
    for (; i_ < lines.size(); ++i_) {
      const std::string_view t = trim(lines[i_].text);
      if (lines[i_].fence) {
        if (seen_library_section_) break;
        continue;
      }
      if (sink_.claimed(i_) && !t.empty()) {
        if (sink_.owner(i_) == "messages") continue;  // torch's warnings inside the dump
        break;
      }
      if (!line(t)) {
        if (t.empty()) continue;
        break;
      }
      sink_.claim(i_, kFormat);
    }
    finish();
    return i_;
  }

 private:
  bool line(std::string_view t) {
    if (t.empty()) {
      if (section_ == Section::cpu || section_ == Section::free_text) blank_run_ = true;
      return true;
    }
    if (starts_with(t, "Collecting environment information")) return true;
    if (is_banner(t)) return true;
    if (auto s = banner_title(t)) {
      section_ = *s;
      seen_library_section_ = seen_library_section_ || *s == Section::libraries;
      return true;
    }
    if (read_library_line(sink_, t, i_)) {
      section_ = Section::libraries;
      seen_library_section_ = true;
      return true;
    }
    if (t == "No relevant packages") return true;
    if (gpu_list_ && starts_with(t, "GPU ") && t.find(':') != std::string_view::npos) {
      read_gpu_line(sink_, t, next_gpu_, i_);
      return true;
    }
    if (cudnn_list_ && (t.front() == '/' || t.find(":\\") != std::string_view::npos)) {
      sink_.fact("cudnn", std::string(t), i_);
      return true;
    }
    if (section_ == Section::env_vars || (seen_vllm_ && env_assignment(t))) {
      if (!env_assignment(t)) return false;
      read_env_var(t);
      section_ = Section::env_vars;
      return true;
    }
    const Labelled l = split_label(t);
    if (!l.key.empty() && label(l)) {
      blank_run_ = false;
      return true;
    }
    if (section_ == Section::cpu) {
      if (l.key.empty() && t.find('=') == std::string_view::npos && read_mac_cpu(sink_, t, i_)) {
        return true;
      }
      // lscpu / wmic lines: "Model name: …", "Flags: …", "Architecture=9"
      if (!l.key.empty() || t.find('=') != std::string_view::npos) {
        if (l.key == "Model name" || l.key == "Name") sink_.host().cpu_model = l.value;
        return !blank_run_ || !l.key.empty();
      }
      return false;
    }
    if (section_ == Section::free_text) return !blank_run_ || starts_with(t, "GPU") ||
                                               t.find('=') != std::string_view::npos;
    return false;
  }

  /// A label of collect_env: read it and say so; false for labels it does not have.
  bool label(const Labelled& l) {
    const std::string& k = l.key;
    const std::string& v = l.value;
    gpu_list_ = false;
    cudnn_list_ = false;
    if (k == "PyTorch version") {
      if (!no_value(v)) {
        set_torch_version(sink_, v, i_);
        torch_.version_line = i_;
      }
    } else if (k == "CUDA used to build PyTorch") {
      torch_.cuda_line = true;
      if (!no_value(v)) torch_.cuda = leading_version(v);
      sink_.fact("torch.cuda", v, i_);
    } else if (k == "ROCM used to build PyTorch") {
      if (!leading_version(v).empty()) torch_.hip = v;
      sink_.fact("torch.hip", v, i_);
    } else if (k == "XPU used to build PyTorch") {
      if (!no_value(v) && v != "False") torch_.xpu = v;
    } else if (k == "OS") {
      if (!no_value(v)) read_os(sink_, v, i_);
    } else if (k == "Libc version") {
      if (starts_with(v, "glibc-")) sink_.host().glibc_version = v.substr(6);
    } else if (k == "Python version") {
      const std::string py = leading_version(v);
      if (!py.empty()) {
        sink_.env().python_version = py;
        sink_.env().python_version_from = "collect_env";
        sink_.fact("python", py, i_);
      }
    } else if (k == "Python platform") {
      read_platform(sink_, v, i_);
    } else if (k == "Is CUDA available") {
      sink_.fact("torch.cuda_available", v, i_);
      // People retype the dump too: "Is CUDA available: false" says the same.
      const std::string lv = to_lower(trim(v));
      if (lv == "false" || lv == "no") sink_.symptom("torch.cuda_unavailable", "torch", i_);
    } else if (k == "CUDA runtime version") {
      read_nvcc(v);
    } else if (k == "GPU models and configuration") {
      gpu_list_ = v.empty();
      if (!v.empty()) read_gpu_line(sink_, v, next_gpu_, i_);
    } else if (k == "Nvidia driver version") {
      if (!no_value(v)) {
        NvmlInfo& n = sink_.nvml();
        if (!n.driver_version) n.driver_version = leading_version(v);
        sink_.fact("nvidia.driver", v, i_);
      }
    } else if (k == "cuDNN version") {
      cudnn_list_ = true;
      sink_.fact("cudnn", v, i_);
    } else if (k == "HIP runtime version") {
      if (!no_value(v)) sink_.fact("hip.runtime", v, i_);
    } else if (k == "CPU") {
      section_ = Section::cpu;
    } else if (k == "Versions of relevant libraries") {
      section_ = Section::libraries;
      seen_library_section_ = true;
    } else if (k == "vLLM Version") {
      seen_vllm_ = true;
      if (!no_value(v)) {
        PythonPackage& p = sink_.package("vllm");
        p.version = v;
        sink_.fact("vllm.version", v, i_);
      }
    } else if (k == "GPU Topology" || k == "vLLM Build Flags" || k == "Legend") {
      seen_vllm_ = true;
      section_ = Section::free_text;
      blank_run_ = false;
    } else if (k == "ROCM Version" || k == "Neuron SDK Version" || k == "CUDA Archs") {
      seen_vllm_ = true;
    } else if (k == "Intel GPU driver version" || k == "Intel GPU models onboard" ||
               k == "Intel GPU models detected") {
      sink_.fact("intel", v, i_);
      gpu_list_ = false;
    } else {
      static const char* const kKnown[] = {
          "Is debug build",       "GCC version",           "Clang version",
          "CMake version",        "CUDA_MODULE_LOADING set to", "MIOpen runtime version",
          "Is XNNPACK available", "Is XPU available",      "Caching allocator config",
          "Is ROCm available",    "PyTorch version (GPU?)"};
      return std::find(std::begin(kKnown), std::end(kKnown), k) != std::end(kKnown);
    }
    return true;
  }

  /// "CUDA runtime version: 12.1.105": the nvcc on PATH (nvcc --version), not torch's CUDA.
  void read_nvcc(const std::string& v) { add_nvcc_toolkit(sink_, leading_version(v), i_); }

  void read_env_var(std::string_view t) {
    const auto eq = t.find('=');
    const std::string key(t.substr(0, eq));
    const std::string value(t.substr(eq + 1));
    sink_.fact("env." + key, key + "=" + value, i_);
    if (key == "CUDA_VISIBLE_DEVICES") sink_.nvidia().cuda_visible_devices = value;
    if (key == "NVIDIA_VISIBLE_DEVICES") sink_.nvidia().nvidia_visible_devices = value;
    if (key == "HSA_OVERRIDE_GFX_VERSION") sink_.rocm().hsa_override_gfx_version = value;
  }

  void finish() {
    if (!sink_.snap.python || !torch_.version_line) return;
    PythonPackage& p = sink_.package("torch");
    if (!p.torch) return;
    // Without the "CUDA used to build" line (a truncated paste), only the version's own
    // suffix can tell the build; with neither, the build is unknown and stays so.
    if (!torch_.cuda_line && !p.torch->local_version) {
      p.torch.reset();
      return;
    }
    if (torch_.cuda_line) p.torch->cuda = torch_.cuda;
    p.torch->hip = torch_.hip;
    p.torch->xpu = torch_.xpu;
    if (!torch_.cuda_line) apply_local_version(*p.torch);
  }

  PasteSink& sink_;
  std::size_t i_;
  Section section_ = Section::labels;
  TorchLines torch_;
  bool gpu_list_ = false;
  bool cudnn_list_ = false;
  bool blank_run_ = false;
  bool seen_library_section_ = false;
  bool seen_vllm_ = false;
  int next_gpu_ = 0;
};

/// A block starts at its first label: torch's warnings may stand between the "Collecting
/// environment information..." line and "PyTorch version".
bool starts_block(const PasteLine& l) {
  const std::string_view t = trim(l.text);
  const Labelled lab = split_label(t);
  if (lab.key == "PyTorch version" || lab.key == "vLLM Version") return true;
  return t == "System Info";
}

}  // namespace

void read_collect_env(PasteSink& sink) {
  const auto& lines = sink.lines();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!sink.claimed(i) && starts_with(trim(lines[i].text), "Collecting environment information")) {
      sink.claim(i, kFormat);
    }
  }
  for (std::size_t i = 0; i < lines.size();) {
    if (sink.claimed(i) || !starts_block(lines[i])) {
      ++i;
      continue;
    }
    // vLLM's banner layout opens with a "====" line above "System Info".
    std::size_t start = i;
    if (start > 0 && is_banner(trim(lines[start - 1].text)) && !sink.claimed(start - 1)) --start;
    const std::size_t end = Block(sink, start).run();
    i = end > i ? end : i + 1;
  }
  // The "Versions of relevant libraries" rows pasted without the rest of the dump ("[pip3]
  // torch==2.1.0+cu121", "[conda] pytorch-cuda 12.1 …"): each is a package of one environment.
  bool opened = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) continue;
    const std::string_view t = trim(lines[i].text);
    if (t.size() < 6 || t.front() != '[' || !(starts_with(t, "[pip") || starts_with(t, "[conda]"))) {
      continue;
    }
    if (!opened) {
      sink.new_env("collect_env libraries");
      opened = true;
    }
    if (read_library_line(sink, t, i)) sink.claim(i, kFormat);
  }
}

}  // namespace gpudoctor
