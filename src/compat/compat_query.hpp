#pragma once
// Questions the checks ask of the matrices. Each answer is a row (with its provenance) or
// nullopt when the tables do not know: unknown is never guessed.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compat/compat_data.hpp"

namespace gpudoctor {

/// The driver CUDA `cuda` needs for its full feature set on `os`: the row of the newest release of
/// the same major.minor that is not newer than `cuda` ("12.4" and "12.4.0" -> 12.4.0's row,
/// "10.1.243" -> 10.1.105's), else that minor's first release. A release-notes row wins over an
/// installer row of the same release.
std::optional<CudaDriverMinimum> min_driver_for_cuda(const CompatData& data, const Version& cuda,
                                                     CompatOs os);

/// The lowest driver that runs CUDA `cuda` applications through minor version compatibility
/// (row.supported false: that family has none).
std::optional<MinorCompatMinimum> minor_compat_for_cuda(const CompatData& data, const Version& cuda,
                                                        CompatOs os);

/// The highest CUDA a driver supports, from its branch (the first number: 535 of 535.104.05).
/// A branch missing from the table answers with the nearest older branch's row.
std::optional<DriverBranchMaxCuda> max_cuda_for_driver(const CompatData& data,
                                                       const Version& driver);

/// What nvcc of toolkit `cuda` compiles for: every target it has, and the lowest and highest
/// compute capability among them (suffixes ignored for min/max).
struct ArchRange {
  ComputeCapability min;
  ComputeCapability max;
  std::vector<std::string> sms;  ///< "75", "90a", ... in table order
};
std::optional<ArchRange> arch_range_for_cuda(const CompatData& data, const Version& cuda);

/// The model row whose name is the longest whole-word match inside `device_name` ("NVIDIA
/// GeForce RTX 3060 Ti", "Tesla V100-SXM2-16GB", "NVIDIA A100-SXM4-80GB").
std::optional<GpuModel> compute_capability_for_model(const CompatData& data,
                                                     std::string_view device_name);

/// The model row a PCI id belongs to (vendor 0x10de).
std::optional<GpuModel> compute_capability_for_pci(const CompatData& data, std::uint16_t vendor_id,
                                                   std::uint16_t device_id);

/// "GA102" from pci.ids' chip name "GA102GL", "GK110B", "TU116M" (family letters and chip
/// number; variant suffixes dropped); empty when the name is not such a code.
std::string nvidia_chip_key(std::string_view chip);

/// The chip row for an NVIDIA chip as pci.ids names it ("GA102GL" → GA102's row).
std::optional<GpuChip> compute_capability_for_chip(const CompatData& data, std::string_view chip);

/// Every cuDNN row covering cuDNN `cudnn` (and, when given, CUDA `cuda`); most specific CUDA
/// range first.
std::vector<CudnnSupport> cudnn_support(const CompatData& data, const Version& cudnn,
                                        const std::optional<Version>& cuda);

/// Whether a cuDNN row lists compute capability `cc`; nullopt when the row lists none.
std::optional<bool> cudnn_supports_cc(const CudnnSupport& row, const Version& cc);

/// The tested build of TensorFlow's release `tf` (matched on major.minor) for `os` and device.
std::optional<TensorflowBuild> tensorflow_tested_build(const CompatData& data, const Version& tf,
                                                       CompatOs os, bool gpu);

/// The Release Compatibility Matrix row of torch `torch` (matched on major.minor).
std::optional<TorchRelease> torch_release(const CompatData& data, const Version& torch);

/// The archs inside torch `torch`'s CUDA `cuda` wheel for `platform` (linux-x86_64,
/// linux-aarch64, windows-x86_64). Torch's own "+cu124" suffix gives `cuda`.
std::optional<TorchArchs> torch_archs(const CompatData& data, const Version& torch,
                                      const Version& cuda, std::string_view platform);

/// The lowest macOS on which torch `torch`'s MPS backend is available.
std::optional<TorchMps> torch_mps_min_macos(const CompatData& data, const Version& torch);

/// What JAX plugin `plugin` ("cuda12", "cuda13") needs, for jax `jax`; without a version, the
/// current documentation's row.
std::optional<JaxPlugin> jax_plugin_requirements(const CompatData& data, std::string_view plugin,
                                                 const std::optional<Version>& jax);

/// The tensorflow-metal row for TensorFlow `tf`: which base package it plugs into, macOS, Python.
std::optional<TensorflowMetal> tensorflow_metal_requirements(const CompatData& data,
                                                             const Version& tf);

/// The tensorflow-metal release row of `plugin` ("0.2.0"; numbers compared).
std::optional<TensorflowMetalRelease> tensorflow_metal_release(const CompatData& data,
                                                               const Version& plugin);

/// The newest tensorflow-metal release built for TensorFlow `tf`.
std::optional<TensorflowMetalRelease> tensorflow_metal_for_tf(const CompatData& data,
                                                              const Version& tf);

/// The compatibility matrix row of ROCm `rocm` (numbers compared; "6.3.0-39" is 6.3.0).
std::optional<RocmRelease> rocm_release(const CompatData& data, const Version& rocm);

/// The HSA_OVERRIDE_GFX_VERSION row that names target `gfx` ("gfx1031").
std::optional<RocmOverride> rocm_override(const CompatData& data, std::string_view gfx);

/// Every HSA_OVERRIDE_GFX_VERSION row that names `gfx`, in table order (the first is the one a
/// fix proposes).
std::vector<RocmOverride> rocm_overrides(const CompatData& data, std::string_view gfx);

/// The row that marks `gfx` an APU (a GPU integrated with the CPU); nothing for a dGPU or a
/// target the table does not name.
std::optional<RocmApuTargets> rocm_apu(const CompatData& data, std::string_view gfx);

/// The rows of `runtime`'s release gfx targets on `os`, in table order (oldest releases first).
std::vector<RuntimeGfxTargets> runtime_gfx_targets(const CompatData& data, std::string_view runtime,
                                                   CompatOs os);

/// The amdgpu ASIC with this PCI device id (vendor 0x1002) among the pre-GFX9 ones KFD treats
/// specially; nullopt for the others.
std::optional<AmdgpuKfdChip> amdgpu_kfd_chip(const CompatData& data, std::uint16_t device_id);

/// FP32 FMA lanes per SM of an NVIDIA GPU of this compute capability.
/// The last CUDA release for an operating system NVIDIA stopped shipping CUDA for; nullopt
/// while it still ships (cuda_platforms.json).
const CudaPlatformEnd* last_cuda_for(const CompatData& data, CompatOs os);

std::optional<Fp32Lanes> nvidia_fp32_lanes(const CompatData& data, int major, int minor);
/// FP32 FMA lanes per compute unit for an AMD gfx major or an Intel GPU ("amd", "intel").
std::optional<Fp32Lanes> vendor_fp32_lanes(const CompatData& data, std::string_view vendor,
                                           std::optional<int> gfx_major, bool gpu);

}  // namespace gpudoctor
