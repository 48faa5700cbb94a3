#include "parse/python_frameworks.hpp"

#include "json_dom.hpp"
#include "parse/python_literals.hpp"
#include "parse/python_metadata.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

using Literals = std::map<std::string, PyLiteral>;

std::optional<std::string> string_value(const Literals& m, const std::string& key) {
  auto it = m.find(key);
  if (it == m.end()) return std::nullopt;
  if (it->second.kind == PyLiteral::Kind::string || it->second.kind == PyLiteral::Kind::number) {
    return it->second.text;
  }
  return std::nullopt;  // None, or something that is not a version
}

std::optional<bool> bool_value(const Literals& m, const std::string& key) {
  auto it = m.find(key);
  if (it == m.end() || it->second.kind != PyLiteral::Kind::boolean) return std::nullopt;
  return it->second.flag;
}

/// Windows builds record the DLL suffixes: cuda "64_112" (cudart64_112.dll) is CUDA 11.2 and
/// cudnn "64_8" (cudnn64_8.dll) is cuDNN 8.
std::optional<std::string> windows_dll_version(std::optional<std::string> v, bool split_minor) {
  if (!v || !starts_with(*v, "64_")) return v;
  std::string digits = v->substr(3);
  if (digits.empty() || !parse_uint(digits)) return v;
  if (split_minor && digits.size() >= 2) digits.insert(digits.size() - 1, ".");
  return digits;
}

}  // namespace

TorchBuildInfo parse_torch_version_py(std::string_view text) {
  const Literals m = python_assignments(text);
  TorchBuildInfo t;
  t.version = string_value(m, "__version__");
  if (t.version) t.local_version = local_version_label(*t.version);
  t.cuda = string_value(m, "cuda");
  t.hip = string_value(m, "hip");
  t.rocm = string_value(m, "rocm");
  t.xpu = string_value(m, "xpu");
  t.git_version = string_value(m, "git_version");
  t.debug = bool_value(m, "debug");
  return t;
}

TensorflowBuildInfo parse_tensorflow_build_info(std::string_view text) {
  Literals m = python_dict_entries(text);
  for (auto& [k, v] : python_assignments(text)) m.emplace(k, v);  // 1.x module constants
  TensorflowBuildInfo b;
  b.cuda_version = string_value(m, "cuda_version");
  if (!b.cuda_version) b.cuda_version = string_value(m, "cuda_version_number");
  b.cudnn_version = string_value(m, "cudnn_version");
  if (!b.cudnn_version) b.cudnn_version = string_value(m, "cudnn_version_number");
  b.cuda_version = windows_dll_version(b.cuda_version, true);
  b.cudnn_version = windows_dll_version(b.cudnn_version, false);
  b.is_cuda_build = bool_value(m, "is_cuda_build");
  b.is_rocm_build = bool_value(m, "is_rocm_build");
  b.is_tensorrt_build = bool_value(m, "is_tensorrt_build");
  auto caps = m.find("cuda_compute_capabilities");
  if (caps != m.end()) b.cuda_compute_capabilities = caps->second.items;
  return b;
}

KerasJson parse_keras_json(std::string_view text) {
  KerasJson k;
  Json j = parse_json_bounded(text);
  if (j.is_discarded() || !j.is_object()) return k;
  k.valid = true;
  auto it = j.find("backend");
  if (it != j.end() && it->is_string() && !it->get<std::string>().empty()) {
    k.backend = it->get<std::string>();
  }
  return k;
}

}  // namespace gpudoctor
