#include "parse/nvidia_toolkit.hpp"

#include <cctype>

#include "json_dom.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

bool is_dotted_number(std::string_view s) {
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  for (char c : s) {
    if (c != '.' && !std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

std::optional<std::string> dotted(std::string_view header, std::initializer_list<const char*> names) {
  std::vector<std::string> parts;
  for (const char* n : names) {
    auto v = header_define(header, n);
    if (!v) return std::nullopt;
    parts.push_back(std::to_string(*v));
  }
  return join(parts, ".");
}

/// Compares dotted numbers part by part.
bool version_less(std::string_view a, std::string_view b) {
  auto pa = split_words(a, ".");
  auto pb = split_words(b, ".");
  for (std::size_t i = 0; i < pa.size() && i < pb.size(); ++i) {
    auto x = parse_uint(pa[i]).value_or(0);
    auto y = parse_uint(pb[i]).value_or(0);
    if (x != y) return x < y;
  }
  return pa.size() < pb.size();
}

}  // namespace

std::map<std::string, std::string> parse_cuda_version_json(std::string_view text) {
  std::map<std::string, std::string> out;
  Json j = parse_json_bounded(text);
  if (!j.is_object()) return out;
  for (const auto& [key, value] : j.items()) {
    if (!value.is_object()) continue;
    auto v = value.find("version");
    if (v != value.end() && v->is_string()) out[key] = v->get<std::string>();
  }
  return out;
}

std::optional<std::string> parse_cuda_version_txt(std::string_view text) {
  for (std::string_view line : split_lines(text)) {
    line = trim(line);
    if (!starts_with(line, "CUDA Version")) continue;
    std::string_view v = trim(line.substr(12));
    if (is_dotted_number(v)) return std::string(v);
  }
  return std::nullopt;
}

std::optional<std::string> parse_nvcc_version(std::string_view text) {
  for (std::string_view line : split_lines(text)) {
    auto at = line.find("release ");
    if (line.find("Cuda compilation tools") == std::string_view::npos ||
        at == std::string_view::npos) {
      continue;
    }
    std::optional<std::string> release;
    for (const auto& w : split_words(line.substr(at + 8), " ,")) {
      if (!release && is_dotted_number(w)) {
        release = w;
      } else if (w.size() > 1 && w[0] == 'V' && is_dotted_number(std::string_view(w).substr(1))) {
        return w.substr(1);
      }
    }
    return release;
  }
  return std::nullopt;
}

std::optional<long> header_define(std::string_view header, std::string_view name) {
  for (std::string_view line : split_lines(header)) {
    line = trim(line);
    if (!starts_with(line, "#")) continue;
    auto words = split_words(line.substr(1));
    if (words.size() < 3 || words[0] != "define" || words[1] != name) continue;
    std::string_view value = words[2];
    while (!value.empty() && (value.back() == 'L' || value.back() == 'l' || value.back() == 'U' ||
                              value.back() == 'u')) {
      value.remove_suffix(1);
    }
    if (!value.empty() && value.front() == '(' && value.back() == ')') {
      value = value.substr(1, value.size() - 2);
    }
    auto v = parse_int(value);
    if (v) return static_cast<long>(*v);
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> parse_cudnn_header(std::string_view header) {
  return dotted(header, {"CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"});
}

std::optional<std::string> parse_nccl_header(std::string_view header) {
  return dotted(header, {"NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"});
}

std::optional<std::string> parse_cublas_header(std::string_view header) {
  return dotted(header,
                {"CUBLAS_VER_MAJOR", "CUBLAS_VER_MINOR", "CUBLAS_VER_PATCH", "CUBLAS_VER_BUILD"});
}

std::optional<std::string> parse_cuda_version_macro(std::string_view header,
                                                    std::string_view macro) {
  auto v = header_define(header, macro);
  if (!v || *v < 1000) return std::nullopt;
  return std::to_string(*v / 1000) + "." + std::to_string((*v % 1000) / 10);
}

std::optional<std::string> parse_wheel_metadata_version(std::string_view text) {
  for (std::string_view line : split_lines(text)) {
    if (line.empty()) break;  // the headers end at the first blank line
    if (starts_with(line, "Version:")) {
      std::string_view v = trim(line.substr(8));
      if (!v.empty()) return std::string(v);
    }
  }
  return std::nullopt;
}

std::optional<PackageName> parse_dist_info_name(std::string_view dirname) {
  if (!ends_with(dirname, ".dist-info")) return std::nullopt;
  dirname.remove_suffix(10);
  auto dash = dirname.find('-');
  if (dash == std::string_view::npos || dash == 0 || dash + 1 >= dirname.size()) {
    return std::nullopt;
  }
  return PackageName{std::string(dirname.substr(0, dash)), std::string(dirname.substr(dash + 1))};
}

std::optional<PackageName> parse_conda_meta_name(std::string_view filename) {
  if (!ends_with(filename, ".json")) return std::nullopt;
  filename.remove_suffix(5);
  // name-version-build: neither version nor build contains a dash; the name may.
  auto build_dash = filename.rfind('-');
  if (build_dash == std::string_view::npos || build_dash == 0) return std::nullopt;
  auto version_dash = filename.rfind('-', build_dash - 1);
  if (version_dash == std::string_view::npos || version_dash == 0) return std::nullopt;
  std::string_view version = filename.substr(version_dash + 1, build_dash - version_dash - 1);
  if (version.empty()) return std::nullopt;
  return PackageName{std::string(filename.substr(0, version_dash)), std::string(version)};
}

std::string wheel_base_name(std::string_view name) {
  std::string n = to_lower(name);
  for (char& c : n) {
    if (c == '-' || c == '.') c = '_';
  }
  auto cu = n.rfind("_cu");
  if (cu != std::string::npos && cu + 3 < n.size() &&
      parse_uint(std::string_view(n).substr(cu + 3))) {
    n.resize(cu);
  }
  return n;
}

std::optional<std::string> library_name_version(std::string_view filename, std::string_view stem) {
  if (filename.size() <= stem.size() + 1 || !starts_with(filename, stem) ||
      filename[stem.size()] != '.') {
    return std::nullopt;
  }
  std::string_view v = filename.substr(stem.size() + 1);
  if (!is_dotted_number(v)) return std::nullopt;
  return std::string(v);
}

std::optional<std::string> best_library_version(const std::vector<std::string>& filenames,
                                                std::string_view stem) {
  std::optional<std::string> best;
  for (const auto& f : filenames) {
    auto v = library_name_version(f, stem);
    if (!v) continue;
    if (!best || version_parts(*v) > version_parts(*best) ||
        (version_parts(*v) == version_parts(*best) && version_less(*best, *v))) {
      best = v;
    }
  }
  return best;
}

int version_parts(std::string_view version) {
  if (version.empty()) return 0;
  int n = 1;
  for (char c : version) n += c == '.' ? 1 : 0;
  return n;
}

bool is_stub_path(std::string_view path) {
  return path.find("/stubs/") != std::string_view::npos || starts_with(path, "stubs/");
}

}  // namespace gpudoctor
