#include "parse/python_metadata.hpp"

#include <cctype>

#include "text.hpp"

namespace gpudoctor {

namespace {

bool is_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> CoreMetadata::get(std::string_view key) const {
  const std::string want = to_lower(key);
  for (const auto& [k, v] : headers) {
    if (to_lower(k) == want) return v;
  }
  return std::nullopt;
}

std::vector<std::string> CoreMetadata::all(std::string_view key) const {
  const std::string want = to_lower(key);
  std::vector<std::string> out;
  for (const auto& [k, v] : headers) {
    if (to_lower(k) == want) out.push_back(v);
  }
  return out;
}

CoreMetadata parse_core_metadata(std::string_view text) {
  CoreMetadata md;
  if (starts_with(text, "\xEF\xBB\xBF")) text.remove_prefix(3);
  std::size_t pos = 0;
  bool last_was_header = false;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos = end + 1;
    // Only an empty line ends the headers: a line of blanks continues the one before (old
    // PKG-INFO files indent whole paragraphs of Description that way).
    if (line.empty()) {
      if (pos < text.size()) md.body = std::string(text.substr(pos));
      break;
    }
    if (line.front() == ' ' || line.front() == '\t') {
      if (last_was_header) {
        md.headers.back().second += "\n";
        md.headers.back().second += trim(line);
      }
      continue;
    }
    std::size_t colon = line.find(':');
    last_was_header = colon != std::string_view::npos && colon > 0;
    if (!last_was_header) continue;
    md.headers.emplace_back(std::string(trim(line.substr(0, colon))),
                            std::string(trim(line.substr(colon + 1))));
  }
  return md;
}

std::string normalize_package_name(std::string_view name) {
  std::string out;
  bool sep = false;
  for (char c : trim(name)) {
    if (c == '-' || c == '_' || c == '.') {
      sep = true;
      continue;
    }
    if (sep && !out.empty()) out += '-';
    sep = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::optional<DistDirName> parse_dist_dir_name(std::string_view entry) {
  DistDirName d;
  if (ends_with(entry, ".dist-info")) {
    entry.remove_suffix(10);
  } else if (ends_with(entry, ".egg-info")) {
    entry.remove_suffix(9);
    d.egg_info = true;
  } else {
    return std::nullopt;
  }
  std::size_t dash = entry.find('-');
  d.name = std::string(entry.substr(0, dash));
  if (d.name.empty()) return std::nullopt;
  if (dash != std::string_view::npos) {
    std::string_view rest = entry.substr(dash + 1);
    std::string_view version = rest.substr(0, rest.find('-'));  // drops "-py3.11"
    if (!version.empty()) d.version = std::string(version);
  }
  return d;
}

std::string requirement_name(std::string_view requirement) {
  requirement = trim(requirement);
  std::size_t i = 0;
  while (i < requirement.size()) {
    char c = requirement[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') break;
    ++i;
  }
  return std::string(requirement.substr(0, i));
}

std::optional<std::string> local_version_label(std::string_view version) {
  std::size_t plus = version.find('+');
  if (plus == std::string_view::npos || plus + 1 >= version.size()) return std::nullopt;
  return std::string(trim(version.substr(plus + 1)));
}

std::optional<std::string> cuda_series_from_name(std::string_view name) {
  // "nvidia-cublas-cu12", "nvidia-cudnn-cu11"
  std::size_t dash = name.rfind('-');
  if (dash != std::string_view::npos) {
    std::string_view last = name.substr(dash + 1);
    if (starts_with(last, "cu") && is_digits(last.substr(2))) return std::string(last.substr(2));
  }
  // "cupy-cuda12x", "cupy-cuda102", "jax-cuda12-plugin", "jax-cuda12-pjrt"
  for (std::string_view prefix : {"cupy-cuda", "jax-cuda"}) {
    if (!starts_with(name, prefix)) continue;
    std::string_view rest = name.substr(prefix.size());
    rest = rest.substr(0, rest.find('-'));
    if (ends_with(rest, "x") && is_digits(rest.substr(0, rest.size() - 1))) {
      return std::string(rest.substr(0, rest.size() - 1));
    }
    if (!is_digits(rest)) return std::nullopt;
    // cupy-cuda92 is CUDA 9.2 and cupy-cuda102 is 10.2; jax-cuda12 is the major release.
    if (prefix == "cupy-cuda" && rest.size() >= 2) {
      return std::string(rest.substr(0, rest.size() - 1)) + "." +
             std::string(rest.substr(rest.size() - 1));
    }
    return std::string(rest);
  }
  return std::nullopt;
}

bool is_gpu_relevant_package(std::string_view name) {
  static constexpr std::string_view kExact[] = {"torch",
                                                "tensorflow",
                                                "tensorflow-cpu",
                                                "tensorflow-gpu",
                                                "tensorflow-macos",
                                                "tensorflow-metal",
                                                "tensorflow-intel",
                                                "tensorflow-rocm",
                                                "tf-nightly",
                                                "tf-keras",
                                                "keras",
                                                "jax",
                                                "jaxlib",
                                                "vllm",
                                                "cupy",
                                                "onnxruntime-gpu",
                                                "numpy",
                                                "plaidml",
                                                "plaidml-keras",
                                                "dpcpp-cpp-rt",
                                                "umf",
                                                "tcmlib",
                                                "impi-rt"};
  static constexpr std::string_view kPrefixes[] = {"nvidia-", "jax-cuda", "jax-rocm", "cupy-cuda",
                                                   "cupy-rocm", "intel-extension-for-",
                                                   "intel-sycl-rt", "intel-cmplr-",
                                                   "intel-opencl-rt", "intel-pti",
                                                   // the other oneAPI runtime wheels torch +xpu
                                                   // pins (its METADATA's Requires-Dist)
                                                   "onemkl-sycl-", "intel-openmp",
                                                   "pytorch-triton-xpu", "oneccl"};
  for (std::string_view e : kExact) {
    if (name == e) return true;
  }
  for (std::string_view p : kPrefixes) {
    if (starts_with(name, p)) return true;
  }
  return false;
}

}  // namespace gpudoctor
