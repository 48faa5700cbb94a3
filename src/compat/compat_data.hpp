#pragma once
// The compatibility matrices of data/compat/*.json as typed rows. data/compat/README.md is the
// schema; every row keeps where it comes from, so a finding can cite the document.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compat/version.hpp"

namespace gpudoctor {

enum class SourceStatus { kVerified, kVerifiedCopy, kDerived };

/// One entry of a file's "sources".
struct CompatSource {
  std::string id;
  std::string url;  ///< the document that states the facts
  std::string title;
  SourceStatus status = SourceStatus::kVerified;
  std::vector<std::string> read_via;     ///< the copies actually read (verified-copy)
  std::optional<std::string> read_note;  ///< how it was read, where no copy has a URL
  std::optional<std::string> rule;       ///< how a derived row is computed
  std::vector<std::string> from;         ///< what a derived row is computed from
};

/// Where one row comes from.
struct Provenance {
  std::vector<std::string> sources;  ///< source ids, in the row's order
  std::string url;                   ///< the row's own "url", else its first source's
  std::optional<std::string> note;
};

enum class CompatOs { kLinux, kWindows, kMacos };

/// "X.Y" plus an optional family letter: sm_90a is {9, 0, "a"}, sm_100f is {10, 0, "f"}.
struct ComputeCapability {
  int major = 0;
  int minor = 0;
  std::string suffix;
};

/// "86" / "90a" / "sm_120" -> ComputeCapability; nullopt when it is not one.
std::optional<ComputeCapability> parse_sm(std::string_view sm);
/// "8.6" (suffix appended: "9.0a").
std::string to_string(const ComputeCapability& cc);
/// Numeric order, the suffix only breaking ties.
int compare_cc(const ComputeCapability& a, const ComputeCapability& b);

// ---- cuda_driver_minimums.json
enum class DriverBasis { kReleaseNotes, kInstaller };
struct CudaDriverMinimum {
  Version cuda;       ///< the toolkit release, "12.4.0"
  std::string label;  ///< "CUDA 12.4 GA"
  CompatOs os = CompatOs::kLinux;
  Version driver;
  DriverBasis basis = DriverBasis::kReleaseNotes;
  Provenance from;
};

// ---- cuda_minor_version_compat.json
struct MinorCompatMinimum {
  VersionRange cuda;  ///< the CUDA majors the row covers
  CompatOs os = CompatOs::kLinux;
  bool supported = false;  ///< false: that family has no minor version compatibility
  std::optional<Version> min_driver;
  Provenance from;
};

// ---- driver_branch_max_cuda.json
struct DriverBranchMaxCuda {
  int branch = 0;  ///< 535 for R535
  Version max_cuda;
  std::optional<int> max_cuda_major;  ///< every minor of this major runs without the compat package
  Provenance from;
};

// ---- cuda_arch_range.json
struct CudaArch {
  std::string sm;  ///< "90a", as nvcc's sm_90a
  ComputeCapability cc;
  std::optional<Version> first_cuda;
  std::optional<Version> last_cuda;  ///< nullopt: still in the newest toolkit covered
  Provenance from;
};

// ---- gpu_compute_capability.json
struct GpuModel {
  std::string model;  ///< as NVIDIA's page names it: "GeForce RTX 3090", "A100"
  Version cc;
  Provenance from;
};
/// An NVIDIA chip as pci.ids names it before the product ("GA102"), without variant suffixes.
struct GpuChip {
  std::string chip;
  Version cc;
  std::vector<std::string> boards;  ///< model rows on this chip that state the same cc
  Provenance from;
};
struct GpuPciId {
  std::uint16_t vendor_id = 0;
  std::uint16_t device_id = 0;
  std::string pci_name;  ///< pci.ids: "GA100 [A100 SXM4 40GB]"
  std::string model;     ///< the GpuModel row it belongs to
  Provenance from;
};

// ---- cudnn.json
struct CudnnSupport {
  VersionRange cudnn;
  std::string build;  ///< "cuda12"
  VersionRange cuda;
  std::vector<Version> cuda_excluded;  ///< in the range but not supported ("9.1")
  std::optional<Version> linux_driver;
  std::optional<Version> windows_driver;
  std::vector<VersionRange> compute_capability;  ///< empty: not listed in the row
  Provenance from;
};

// ---- tensorflow.json
struct TensorflowBuild {
  CompatOs os = CompatOs::kLinux;
  bool gpu = false;
  std::string package;  ///< "tensorflow" or "tensorflow_gpu"
  Version version;
  std::vector<VersionRange> python;
  std::optional<Version> cuda;  ///< GPU rows only, as the table writes it ("11.2", "9")
  std::optional<Version> cudnn;
  Provenance from;
};

// ---- pytorch.json
struct TorchCudaBuild {
  Version cuda;
  bool stable = true;  ///< false: an "experimental" build of that release
  std::optional<Version> cudnn;
};
struct TorchRelease {
  Version torch;  ///< "2.5"
  VersionRange python;
  std::vector<std::string> python_experimental;  ///< "3.13t"
  std::string cxx;
  std::vector<TorchCudaBuild> cuda;
  std::optional<Version> rocm;
  Provenance from;
};
struct TorchArchs {
  VersionRange torch;
  Version cuda;
  std::string platform;  ///< linux-x86_64, linux-aarch64, windows-x86_64
  std::vector<Version> archs;
  std::vector<Version> ptx;
  Provenance from;
};
struct TorchMps {
  VersionRange torch;
  Version macos_min;
  Provenance from;
};

// ---- jax.json
struct JaxPlugin {
  std::string plugin;  ///< "cuda12", "cuda13"
  std::vector<std::string> packages;
  std::optional<VersionRange> jax;  ///< nullopt: the current documentation
  VersionRange cuda;
  VersionRange cudnn;
  std::optional<Version> linux_driver_min;
  std::optional<Version> min_compute_capability;
  Provenance from;
};

// ---- tensorflow_metal.json
struct TensorflowMetal {
  VersionRange tensorflow;
  std::string base_package;  ///< "tensorflow" or "tensorflow-macos"
  std::string plugin_package;
  std::optional<Version> macos_min;
  std::optional<Version> python_min;
  std::vector<std::string> gpus;
  Provenance from;
};
/// One tensorflow-metal release and the TensorFlow it plugs into (the table on its PyPI page).
struct TensorflowMetalRelease {
  Version plugin;                    ///< "0.1.2"
  VersionRange tensorflow;           ///< {2.5, 2.5}: every 2.5.x
  std::optional<Version> macos_min;  ///< "12.0"
  Provenance from;
};

// ---- rocm.json
struct RocmDistro {
  std::string distro;   ///< as the matrix names it: "Ubuntu", "RHEL", "SLES"
  std::string version;  ///< as the matrix writes it: "22.04.5", "15 SP6"
};
struct RocmRelease {
  Version rocm;
  std::vector<RocmDistro> os;
  std::vector<std::string> architectures;  ///< "CDNA3", "RDNA2"
  std::vector<std::string> gfx;            ///< "gfx942"
  std::vector<Version> pytorch;
  std::vector<Version> tensorflow;
  std::vector<Version> jax;
  Provenance from;
};
struct RocmKernel {
  std::string version;
  std::optional<std::string> flavor;  ///< "GA", "HWE", "UEK"
};
struct RocmDistroKernels {
  std::string distro;
  std::string version;
  std::vector<RocmKernel> kernels;
  Provenance from;
};
struct RocmGpu {
  std::string gpu;  ///< "Radeon RX 7900 XTX"
  std::string architecture;
  std::string gfx;
  Provenance from;
};
/// HSA_OVERRIDE_GFX_VERSION=`value` makes the runtime report these targets as `runs_as`.
/// The gfx targets one range of a runtime's releases carries GPU code for on one OS (ollama's
/// ROCm runner: the AMDGPU_TARGETS of its release build), for where the files cannot be read.
struct RuntimeGfxTargets {
  std::string runtime;  ///< "ollama"
  CompatOs os = CompatOs::kLinux;
  VersionRange version;
  std::vector<std::string> gfx;
  Provenance from;
};

struct RocmOverride {
  std::vector<std::string> gfx;  ///< "gfx1031"
  std::string value;             ///< "10.3.0"
  std::string runs_as;           ///< "gfx1030"
  Provenance from;
};

// ---- cuda_platforms.json
/// An operating system NVIDIA no longer ships CUDA for, and its last release there.
struct CudaPlatformEnd {
  CompatOs os = CompatOs::kMacos;
  Version last_cuda;  ///< "10.2"
  Provenance from;
};

// ---- gpu_fp32_lanes.json
/// FP32 FMA lanes per compute unit of an architecture, for the expected peak.
struct Fp32Lanes {
  std::string vendor;                      ///< "nvidia", "amd", "intel"
  std::optional<ComputeCapability> cc;     ///< nvidia rows
  std::optional<VersionRange> gfx_major;   ///< amd rows: the gfx majors it covers
  std::optional<std::string> device_type;  ///< "gpu" where the row is only for GPU devices
  std::string unit;                        ///< "SM", "CU", "EU"
  int lanes = 0;
  Provenance from;
};

// ---- framework_cuda_libs.json
/// Where a TensorFlow release's libtensorflow_framework.so.2 (which dlopens the CUDA libraries)
/// asks the loader to look: its dynamic section, read in the release's wheel.
struct FrameworkLibrarySearch {
  std::string framework;  ///< "tensorflow"
  VersionRange version;
  std::string tag;                      ///< "DT_RPATH" or "DT_RUNPATH"
  std::vector<std::string> wheel_dirs;  ///< site-packages-relative: "nvidia/cudnn/lib"
  Provenance from;
};
/// One nvidia-* requirement in a framework release's METADATA.
struct FrameworkWheelPin {
  std::string framework;  ///< "torch", "tensorflow", "jax-cuda12-plugin"
  Version version;        ///< "2.5.1"
  std::string package;    ///< "nvidia-cudnn-cu12"
  std::string requirement;           ///< as METADATA writes it: "==9.1.0.70", ">=9.8,<10.0"
  std::optional<std::string> extra;  ///< "and-cuda"
  Provenance from;
};

/// The CUDA libraries a framework's own CUDA library links (DT_NEEDED, read in the release's
/// wheel): onnxruntime-gpu 1.17's CUDA provider needs libcublasLt.so.11, so PyPI's 1.17 is a
/// CUDA 11 build whatever CUDA the machine has.
struct FrameworkNeeded {
  std::string framework;            ///< the distribution: "onnxruntime-gpu"
  VersionRange version;
  std::string library;              ///< site-packages-relative: "onnxruntime/capi/lib…cuda.so"
  std::vector<std::string> needed;  ///< "libcublasLt.so.11", "libcudnn.so.8", …
  Provenance from;
};

/// An amdgpu ASIC as the kernel names it (CHIP_*) and whether KFD drives it for compute.
struct AmdgpuKfdChip {
  std::string chip;                       ///< "POLARIS10"
  std::string family;                     ///< "Polaris (GCN 4, gfx803)"
  std::vector<std::uint16_t> device_ids;  ///< PCI device ids of vendor 0x1002
  std::string kfd;  ///< "unsupported", "experimental" or "needs_pcie_atomics"
  Provenance from;
};

// ---- vulkan_layers.json
/// An implicit layer that hides devices from every Vulkan program, and when it does.
struct VulkanLayerRule {
  std::string layer;  ///< "VK_LAYER_MESA_device_select"; a trailing * matches any suffix
  std::string hides;
  std::optional<std::string> when_driver;    ///< a driver manifest of this library is installed
  std::optional<std::string> when_variable;  ///< this variable …
  std::optional<std::string> equals;         ///< … has this value
  std::optional<std::string> ends_with;      ///< … ends so
  Provenance from;
};

/// gfx targets LLVM's processor table marks APU (integrated with the CPU) rather than dGPU.
struct RocmApuTargets {
  std::vector<std::string> gfx;  ///< "gfx902", "gfx1036"
  Provenance from;
};

struct CompatData {
  std::map<std::string, std::vector<CompatSource>> sources;  ///< by file name
  std::vector<CudaDriverMinimum> cuda_driver_minimums;
  std::vector<MinorCompatMinimum> cuda_minor_version_compat;
  std::vector<DriverBranchMaxCuda> driver_branch_max_cuda;
  std::vector<CudaArch> cuda_arch_range;
  std::vector<GpuModel> gpu_models;
  std::vector<GpuPciId> gpu_pci_ids;
  std::vector<GpuChip> gpu_chips;
  std::vector<CudnnSupport> cudnn;
  std::vector<TensorflowBuild> tensorflow;
  std::vector<TorchRelease> torch_releases;
  std::vector<TorchArchs> torch_archs;
  std::vector<TorchMps> torch_mps;
  std::vector<JaxPlugin> jax;
  std::vector<TensorflowMetal> tensorflow_metal;
  std::vector<TensorflowMetalRelease> tensorflow_metal_releases;
  std::vector<RocmRelease> rocm_releases;
  std::vector<RocmDistroKernels> rocm_kernels;
  std::vector<RocmGpu> rocm_gpus;
  std::vector<RocmOverride> rocm_overrides;
  std::vector<RocmApuTargets> rocm_apu_targets;
  std::vector<RuntimeGfxTargets> runtime_gfx_targets;
  std::vector<Fp32Lanes> fp32_lanes;
  std::vector<CudaPlatformEnd> cuda_platform_ends;
  std::vector<FrameworkLibrarySearch> framework_library_search;
  std::vector<FrameworkWheelPin> framework_wheel_pins;
  std::vector<FrameworkNeeded> framework_needed;
  std::vector<AmdgpuKfdChip> amdgpu_kfd_chips;
  std::vector<VulkanLayerRule> vulkan_layer_rules;
};

struct CompatLoad {
  CompatData data;
  std::vector<std::string> errors;  ///< "cudnn.json: rows[3]: ..."; empty when all is well
  std::size_t rows = 0;             ///< rows read, over all files
};

/// Parses the matrices from their JSON text, keyed by file name ("cudnn.json"). Files with an
/// unknown name are an error; missing ones leave their tables empty.
CompatLoad load_compat(const std::map<std::string, std::string_view>& files);

/// The files of data/compat as compiled into this binary.
const std::map<std::string, std::string_view>& embedded_compat_files();

/// load_compat(embedded_compat_files()), once. The tests keep its errors empty.
const CompatData& builtin_compat();

}  // namespace gpudoctor
