#pragma once
#include <sstream>

#include "model/snapshot.hpp"
#include "render/style.hpp"
#include "render/text_blocks.hpp"

namespace gpudoctor {

/// deviceQuery's facts about one CUDA device, as lines of a device block.
void render_cuda_device(Block& b, const CudaDevice& d);
/// What nvidia-smi / cuda-smi show about one device.
void render_nvml_device(Block& b, const NvmlDevice& d);
/// The NVIDIA driver (kernel and userspace), the CUDA driver API and NVML as a whole, toolkits.
void render_nvidia_sections(std::ostringstream& os, const Snapshot& snap, const Style& style);

/// 13000 → "13.0", 12040 → "12.4"
std::string cuda_version_text(int v);

}  // namespace gpudoctor
