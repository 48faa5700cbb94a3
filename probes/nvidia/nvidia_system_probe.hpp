#pragma once
#include "model/nvidia_system.hpp"
#include "probe_context.hpp"

namespace gpudoctor {

/// The NVIDIA stack as files and the environment show it: kernel module, /dev nodes, Secure
/// Boot, dkms, the libcuda / libnvidia-ml files the loader would pick, CUDA toolkits. Loads
/// nothing.
NvidiaSystem probe_nvidia_system(const ProbeContext& ctx);

}  // namespace gpudoctor
