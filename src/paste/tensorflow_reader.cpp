// TensorFlow's tools/tf_env_collect.sh ("== check python ===…" sections, "tf.version.VERSION = …")
// and the fields of its issue template, both the old markdown list ("- TensorFlow version (use
// command below): 2.10") and the issue form ("### TensorFlow version" with the answer below).
#include <cctype>
#include <regex>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_tensorflow = "tensorflow";

/// "== check python ===================" → "check python".
std::optional<std::string> section_title(std::string_view t) {
  if (!starts_with(t, "== ")) return std::nullopt;
  std::string_view rest = t.substr(3);
  const auto end = rest.find(" =");
  if (end == std::string_view::npos && !ends_with(rest, "==")) return std::nullopt;
  return std::string(trim(rest.substr(0, end)));
}

/// The first token that starts with a digit: "tf 2.12" → "2.12"; "v2.12.0-rc1-… 2.12.0" →
/// "2.12.0".
std::string first_version(std::string_view v) {
  for (const auto& w : split_words(v, " \t,;()")) {
    if (!w.empty() && std::isdigit(static_cast<unsigned char>(w.front())) != 0) return w;
  }
  return "";
}

/// The template's field name, lowercased, without "(e.g. …)" and "(use command below)".
std::string field_name(std::string_view key) {
  std::string k = to_lower(trim(key));
  if (starts_with(k, "- ")) k = k.substr(2);
  if (starts_with(k, "**")) k = k.substr(2);
  const auto paren = k.find(" (");
  if (paren != std::string::npos) k = k.substr(0, paren);
  while (!k.empty() && (k.back() == '*' || k.back() == ' ')) k.pop_back();
  return k;
}

void set_tensorflow(PasteSink& sink, const std::string& version, std::size_t i) {
  if (version.empty()) return;
  add_listed_package(sink, "tensorflow", version, "", i);
}

/// "RTX 3060 12GB" (a person's words) → "GeForce RTX 3060", a name the model table knows.
std::string gpu_from_words(std::string v) {
  auto words = split_words(v);
  std::vector<std::string> kept;
  for (const auto& w : words) {
    const std::string l = to_lower(w);
    if (ends_with(l, "gb") || ends_with(l, "gib") || l == "memory" || l == "with") break;
    kept.push_back(w);
  }
  std::string name = join(kept, " ");
  const std::string l = to_lower(name);
  if (starts_with(l, "rtx ") || starts_with(l, "gtx ")) {
    if (name.size() > 4 && std::isdigit(static_cast<unsigned char>(name[4])) != 0) {
      name = "GeForce " + name;
    }
  }
  return name;
}

void template_field(PasteSink& sink, const std::string& field, const std::string& raw,
                    std::size_t i) {
  // "- **PyTorch Version:** 2.6.0": the bold's closing "**" lands in the value.
  std::string value(trim(starts_with(raw, "**") ? std::string_view(raw).substr(2) : std::string_view(raw)));
  if (no_value(value) || value == "_No response_") return;
  if (field == "os" && value == "nt") {
    sink.host().os_id = "windows";
    return;
  }
  if (field == "tensorflow version" || field == "tensorflow version used") {
    set_tensorflow(sink, first_version(value), i);
    sink.fact("tensorflow.version", value, i);
  } else if (field == "os platform and distribution" || field == "os") {
    const std::string l = to_lower(value);
    HostInfo& h = sink.host();
    h.os_pretty_name = value;
    sink.fact("os", value, i);
    if (l.find("wsl") != std::string::npos) {
      h.wsl = true;
      h.os_id = "ubuntu";
    } else if (l.find("windows") != std::string::npos || l.find("win 1") != std::string::npos) {
      h.os_id = "windows";
    } else if (l.find("mac") != std::string::npos) {
      h.os_id = "macos";
    } else if (l.find("ubuntu") != std::string::npos) {
      h.os_id = "ubuntu";
    }
  } else if (field == "python version") {
    const std::string py = leading_version(first_version(value));
    if (!py.empty()) {
      sink.env().python_version = py;
      sink.fact("python", py, i);
    }
  } else if (field == "cuda/cudnn version") {
    sink.fact("cuda_cudnn", value, i);
  } else if (field == "pytorch version") {
    // ComfyUI's report and PyTorch's old template: "2.6.0+cu126"; the build only from its suffix.
    std::string v = first_version(value);
    if (v.empty()) return;
    add_listed_package(sink, "torch", v, "", i);
  } else if (field == "gpu model and memory") {
    sink.fact("gpu.words", value, i);
    const std::string name = gpu_from_words(value);
    const std::string l = to_lower(name);
    if (l.find("geforce") != std::string::npos || l.find("nvidia") != std::string::npos ||
        l.find("tesla") != std::string::npos || l.find("quadro") != std::string::npos) {
      add_named_gpu(sink, 0, name, i);
    }
  }
}

bool known_field(const std::string& f) {
  static const char* const kFields[] = {
      "tensorflow version", "tensorflow version used", "os platform and distribution",
      "python version",     "cuda/cudnn version",      "gpu model and memory",
      "custom code",        "have i written custom code", "mobile device",
      "tensorflow installed from", "bazel version", "gcc/compiler version", "source",
      "current behavior?", "current behaviour?", "issue type", "exact command to reproduce",
      "pytorch version", "comfyui version", "python version", "embedded python", "arguments"};
  for (const char* k : kFields) {
    if (f == k) return true;
  }
  return false;
}

/// TensorFlow's own log lines ("2023-10-19 17:12:10.627003: I tensorflow/…/dso_loader.cc:49]
/// Successfully opened dynamic library libcudnn.so.8"): the libraries it loaded, the GPUs it
/// found and added. The phrases: tensorflow/core/common_runtime/gpu/gpu_device.cc and
/// tensorflow/tsl/platform/default/dso_loader.cc.
bool tf_log_line(PasteSink& sink, const std::string& t, std::size_t i) {
  static const std::regex prefix(R"(^(?:\d{4}-\d{2}-\d{2} [0-9:.]+: )?[IWEF] (?:[A-Za-z]:)?\S*tensorflow[/\\]\S+:\d+\] ?(.*)$)");
  static const std::regex opened(R"(Successfully opened dynamic library (\S+))");
  static const std::regex visible(R"(Adding visible gpu devices: ([0-9, ]+))");
  static const std::regex created(
      R"(-> (?:physical GPU \()?device: (\d+), name: ([^,]+), pci bus id: [^,]+, compute capability: (\d+)\.(\d+))");
  static const std::regex found(R"(Found device (\d+) with properties:\s*(?:pciBusID: \S+ )?(?:name: (.+?)(?: computeCapability: (\d+)\.(\d+))?)?\s*$)");
  std::smatch m;
  if (t.find("tensorflow") == std::string::npos || !std::regex_match(t, m, prefix)) return false;
  const std::string rest = m[1].str();
  if (std::regex_search(rest, m, opened)) {
    sink.fact("tensorflow.loaded", m[1].str(), i);
  } else if (std::regex_search(rest, m, visible)) {
    sink.fact("tensorflow.visible_gpus", std::string(trim(m[1].str())), i);
  } else if (std::regex_search(rest, m, created) || std::regex_search(rest, m, found)) {
    const int index = static_cast<int>(parse_int(m[1].str()).value_or(0));
    if (m[2].matched && !trim(m[2].str()).empty()) add_named_gpu(sink, index, m[2].str(), i);
    if (m[3].matched && sink.snap.nvml) {
      for (auto& d : sink.snap.nvml->devices) {
        if (d.index != index) continue;
        d.cc_major = static_cast<int>(parse_int(m[3].str()).value_or(0));
        d.cc_minor = static_cast<int>(parse_int(m[4].str()).value_or(0));
      }
    }
  }
  return true;
}

}  // namespace

void read_tensorflow(PasteSink& sink) {
  const auto& lines = sink.lines();
  std::string section;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (sink.claimed(i)) continue;
    const std::string_view t = trim(lines[i].text);
    if (auto title = section_title(t)) {
      section = *title;
      sink.claim(i, kFormat_tensorflow);
      continue;
    }
    if (t.empty()) continue;
    if (tf_log_line(sink, std::string(t), i)) {
      sink.claim(i, kFormat_tensorflow);
      continue;
    }
    // tf_env_collect.sh's own lines.
    // Its first form (2017) printed "tf.__version__ = 1.1.0", later "tf.VERSION = …", now
    // "tf.version.VERSION = …".
    if (starts_with(t, "tf.version.VERSION") || starts_with(t, "tf.VERSION") ||
        starts_with(t, "tf.__version__")) {
      const auto eq = t.find('=');
      if (eq != std::string_view::npos) set_tensorflow(sink, first_version(t.substr(eq + 1)), i);
      sink.claim(i, kFormat_tensorflow);
      continue;
    }
    if (starts_with(t, "tf.version.") || starts_with(t, "tf.GIT_VERSION") ||
        starts_with(t, "tf.__git_version__") ||
        starts_with(t, "tf.COMPILER_VERSION") || starts_with(t, "Sanity check:")) {
      sink.claim(i, kFormat_tensorflow);
      continue;
    }
    if (!section.empty()) {
      const Labelled l = split_label(t);
      if (section == "check python" && l.key == "python version") {
        const std::string py = leading_version(l.value);
        if (!py.empty()) sink.env().python_version = py;
        sink.claim(i, kFormat_tensorflow);
        continue;
      }
      if (section == "check os platform") {
        if (l.key == "os" && l.value == "Windows") sink.host().os_id = "windows";
        if (l.key == "os release version") sink.host().kernel_release = l.value;
        if (!l.key.empty()) sink.claim(i, kFormat_tensorflow);
        continue;
      }
      if (section == "are we in docker") {
        if (t == "Yes") sink.host().container = "docker";
        sink.claim(i, kFormat_tensorflow);
        continue;
      }
      if (section == "cuda libs" && (t.front() == '/' || t.find(":\\") != std::string_view::npos)) {
        sink.fact("cuda.lib", std::string(t), i);
        sink.claim(i, kFormat_tensorflow);
        continue;
      }
      if (section == "env" || section == "compiler" || section == "uname -a" ||
          section == "check for virtualenv" || section == "python version" ||
          section == "bazel version" || section == "tensorflow import") {
        sink.claim(i, kFormat_tensorflow);
        continue;
      }
    }
    // The issue template's fields.
    const Labelled l = split_label(t);
    if (!l.key.empty() && (starts_with(l.key, "-") || starts_with(l.key, "*"))) {
      const std::string f = field_name(l.key);
      if (known_field(f)) {
        template_field(sink, f, l.value, i);
        sink.claim(i, kFormat_tensorflow);
      }
      continue;
    }
    if (starts_with(t, "### ")) {
      const std::string f = field_name(t.substr(4));
      if (!known_field(f)) continue;
      sink.claim(i, kFormat_tensorflow);
      // The answer: the next non-empty line.
      for (std::size_t k = i + 1; k < lines.size() && k < i + 4; ++k) {
        const std::string_view v = trim(lines[k].text);
        if (v.empty() && !lines[k].fence) continue;
        if (!lines[k].fence && !starts_with(v, "### ") && !sink.claimed(k)) {
          template_field(sink, f, std::string(v), k);
          sink.claim(k, kFormat_tensorflow);
          i = k;
        }
        break;
      }
    }
  }
}

}  // namespace gpudoctor
