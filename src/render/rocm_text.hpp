#pragma once
#include <sstream>
#include <string>

#include "model/rocm.hpp"
#include "render/style.hpp"
#include "render/text_blocks.hpp"

namespace gpudoctor {

/// What the KFD topology says about one GPU, as lines of a device block.
void render_kfd_node(Block& b, const KfdNode& n);

/// What HIP says about one device, as lines of a device block.
void render_hip_device(Block& b, const HipDevice& d);

/// The check's one-line view of ROCm: "ROCm 6.3.0 · 1 GPU (gfx90a) · amdgpu loaded".
std::string rocm_summary(const RocmInfo& r);

/// The ROCm section: installs, the amdgpu module, /dev/kfd and render nodes, this process's
/// groups, the environment variables ROCm reads, HIP's versions.
void render_rocm_section(std::ostringstream& os, const RocmInfo& r, const Style& style);

}  // namespace gpudoctor
