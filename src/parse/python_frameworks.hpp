#pragma once
// Parsers for the files frameworks write about their own build, and for the Keras config.
// Each takes the file's text; none touches the system.
#include <optional>
#include <string>
#include <string_view>

#include "model/python.hpp"

namespace gpudoctor {

/// torch/version.py in all its generations: `cuda = '11.7'` (1.x) and
/// `cuda: Optional[str] = '12.4'` (2.x), with `hip`, and in newer builds `xpu` and `rocm`.
TorchBuildInfo parse_torch_version_py(std::string_view text);

/// tensorflow/python/platform/build_info.py: `build_info = {…}` (2.1–2.3),
/// `build_info = collections.OrderedDict([…])` (2.4+), or the module-level
/// `is_cuda_build = True` / `cuda_version_number = '10'` of 1.x. `file` is left empty.
TensorflowBuildInfo parse_tensorflow_build_info(std::string_view text);

struct KerasJson {
  bool valid = false;                  ///< a JSON object
  std::optional<std::string> backend;  ///< its "backend", when a non-empty string
};
KerasJson parse_keras_json(std::string_view text);

}  // namespace gpudoctor
