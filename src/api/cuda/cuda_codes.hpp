#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

/// "CUDA_ERROR_NO_DEVICE" for 100; nullopt for a code cuda.h does not name.
std::optional<std::string_view> cuda_error_name(int code);

/// "cuInit returned 100 (CUDA_ERROR_NO_DEVICE)", or without the name for an unknown code.
std::string cuda_call_failed(std::string_view call, int code);

/// CUcomputemode / nvmlComputeMode_t (the same numbers) as "default", "exclusive_thread",
/// "prohibited" or "exclusive_process"; nullopt for anything else.
std::optional<std::string> nvidia_compute_mode_name(int mode);

/// A CUDA version as cuDriverGetVersion packs it (13000) in words: "13.0".
std::string cuda_version_text(int v);

}  // namespace gpudoctor
