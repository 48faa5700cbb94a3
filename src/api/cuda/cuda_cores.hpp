#pragma once
#include <optional>

namespace gpudoctor {

/// FP32 CUDA cores per multiprocessor for a compute capability, from deviceQuery's table;
/// nullopt for a capability the table does not list (deviceQuery would guess; we do not).
std::optional<int> cuda_cores_per_multiprocessor(int major, int minor);

}  // namespace gpudoctor
