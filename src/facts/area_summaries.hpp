#pragma once
// One line of a platform for `check`'s area lines.
#include <string>

#include "model/macos.hpp"
#include "model/rocm.hpp"

namespace gpudoctor::facts {

/// "ROCm 6.0.0 · 1 GPU (gfx1102) · amdgpu loaded"
std::string rocm_summary(const RocmInfo& r);
/// "macOS 14.2, Apple silicon, Apple M1 Pro (16 GPU cores)"
std::string macos_summary(const MacosInfo& m);
/// A Mac's `gpu` line, from system_profiler: "Radeon RX 5700 XT (AMD 1002:731f, external GPU
/// PCIe x4, 8 GiB VRAM)", or why there is none.
std::string macos_gpu_summary(const MacosInfo& m);

}  // namespace gpudoctor::facts
