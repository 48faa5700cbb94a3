#pragma once
// The readers of pasted dumps, one per format. Each walks the cleaned lines, claims the lines it
// recognises (lines another reader claimed are left alone) and fills the snapshot sections its
// format covers, with each fact's line. read_pasted() runs them in this order.
#include "paste/paste_sink.hpp"

namespace gpudoctor {

/// `python -m torch.utils.collect_env` (torch 1.3 on) and vLLM's fork (both layouts).
void read_collect_env(PasteSink& sink);
/// nvidia-smi's table (79- and 89-column, Linux and Windows), its one-line failures, `-L`.
void read_nvidia_smi(PasteSink& sink);
/// nvidia-smi's table rows without its header line: a slice of GPU rows, the processes box.
void read_nvidia_smi_rows(PasteSink& sink);
/// `nvidia-smi -q`.
void read_nvidia_smi_query(PasteSink& sink);
/// `jax.print_environment_info()`.
void read_jax_info(PasteSink& sink);
/// TensorFlow's tools/tf_env_collect.sh and its issue template's fields.
void read_tensorflow(PasteSink& sink);
/// `rocminfo` (agents and its errors) and `rocm-smi`.
void read_rocminfo(PasteSink& sink);
void read_rocm_smi(PasteSink& sink);
/// `system_profiler SPDisplaysDataType` as text.
void read_system_profiler(PasteSink& sink);
/// `clinfo` and `clinfo -l`.
void read_clinfo(PasteSink& sink);
/// `vulkaninfo --summary` (and the device lines of the full output).
void read_vulkaninfo(PasteSink& sink);
/// ollama server logs, plain or behind journalctl / docker prefixes.
void read_ollama_log(PasteSink& sink);
/// `pip list`, `pip freeze`, `conda list`, `pip show`.
void read_package_lists(PasteSink& sink);
/// Messages printed by torch, JAX, TensorFlow and CUDA anywhere in the paste.
void read_messages(PasteSink& sink);
/// CUDA's deviceQuery sample: its device blocks, or cudaGetDeviceCount's failure.
void read_device_query(PasteSink& sink);
/// `lspci -k` / `-v` / `-nnk`: the GPUs' functions and the driver bound to each.
void read_lspci(PasteSink& sink);
/// dmesg / journalctl: the NVIDIA module's NVRM messages and modprobe's refusals.
void read_kernel_log(PasteSink& sink);
/// llama.cpp / ggml start-up: the GPUs its CUDA or ROCm backend found, the build's CUDA ARCHS.
void read_ggml_log(PasteSink& sink);
/// ComfyUI's start-up log and its error report's system information (before read_tensorflow).
void read_comfyui(PasteSink& sink);
/// `amd-smi static` / `list` / `version` / `monitor`, text or JSON, whole or a slice of it.
void read_amd_smi(PasteSink& sink);
/// CuPy's `cupy.show_config()` rows ("CUDA Driver Version : 12020"), whole or a slice of them.
void read_cupy_config(PasteSink& sink);
/// Julia's `CUDA.versioninfo()` (the CUDA.jl 1.x–5.x layouts), whole or a slice of it.
void read_cuda_jl(PasteSink& sink);
/// Lone conda rows and specs of the packages that decide a build ("pytorch 1.4.0 py3.7_cpu_0",
/// "pytorch=1.9.0=py3.8_cpu_0", pytorch-cpu, cpuonly); after read_package_lists.
void read_conda_rows(PasteSink& sink);
/// `nvcc --version`, `/proc/version`, `uname -a`, a WSL kernel's release, inside prose or not.
void read_system_strings(PasteSink& sink);
/// The Docker / OCI runtime lines around nvidia-container-cli's message (the message itself is
/// a data entry, read by read_messages).
void read_container_lines(PasteSink& sink);
/// `kubectl describe node`'s Capacity and Allocatable blocks: a GPU resource allocatable below
/// its capacity is the symptom `k8s.gpus_unhealthy` (GPUs the device plugin marked unhealthy).
void read_kubectl_node(PasteSink& sink);
/// After every reader: a value stated twice with different numbers becomes the symptom
/// `paste.conflicting_values` (the check of that name shows it), never a silent choice.
void note_stated_conflicts(PasteSink& sink);
/// `sycl-ls`: the SYCL backends' devices; no Level Zero GPU is a symptom.
void read_sycl_ls(PasteSink& sink);
/// `xpu-smi discovery`: each device's cells as facts.
void read_xpu_smi(PasteSink& sink);
void read_xpu_smi_health(PasteSink& sink);
/// Facts stated in free text on lines no other reader took: a torch build, the NVIDIA driver, a
/// GPU's name, nvcc's release, the kernel. Runs last; fills only what is still unknown.
void read_stated_facts(PasteSink& sink);
/// vLLM log lines, numba -s devices, Vulkan device lines, conda info.
void read_startup_lines(PasteSink& sink);
/// Lines that state a GPU-stack failure no entry explains: a "stated.failure" symptom each.
void read_stated_failures(PasteSink& sink);

/// cuInit's failure with this CUresult (cuda.h), once.
void set_cuda_init_error(PasteSink& sink, int code);

/// A GPU named by a dump ("NVIDIA GeForce RTX 3090", "AMD Radeon RX 7900 XTX (gfx1100)"): an
/// NVIDIA GPU of that index, or an AMD one with its gfx target.
void add_named_gpu(PasteSink& sink, int index, std::string_view name, std::size_t i);
/// What follows "cuda:" in torch's device line as ComfyUI prints it ("0 NVIDIA GeForce RTX
/// 4090 : cudaMallocAsync"): the GPU of that index with its name, the allocator left out.
void add_torch_device_gpu(PasteSink& sink, std::string_view after_cuda, std::size_t i);
/// nvidia-smi's table: the cells of a row ("| a | b |" → {"a", "b"}; the outer bars are
/// required), and whether a line is one of its rules ("+-----+", "|=====|").
std::vector<std::string> smi_table_cells(std::string_view t);
bool smi_table_rule(std::string_view t);

/// A package line of pip or conda ("torch", "2.1.0+cu121", conda build "py3.10_cuda12.1_…"):
/// added to the paste's environment; torch's and TensorFlow's build told where the line says.
void add_listed_package(PasteSink& sink, std::string_view name, std::string_view version,
                        std::string_view build, std::size_t i);

/// torch's local version ("cu121", "rocm6.0") as torch.version.cuda / .hip would say it.
void apply_local_version(TorchBuildInfo& build);

/// The AMD GPU (KFD node) of this index, added when absent.
KfdNode& amd_gpu(PasteSink& sink, int index);

}  // namespace gpudoctor
