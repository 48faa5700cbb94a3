#include "api/cuda/cuda_cores.hpp"

#include "compat/compat_query.hpp"

namespace gpudoctor {

std::optional<int> cuda_cores_per_multiprocessor(int major, int minor) {
  if (major < 0 || minor < 0) return std::nullopt;
  // data/compat/gpu_fp32_lanes.json: the table deviceQuery prints "CUDA Cores/MP" from.
  if (auto row = nvidia_fp32_lanes(builtin_compat(), major, minor)) return row->lanes;
  return std::nullopt;
}

}  // namespace gpudoctor
