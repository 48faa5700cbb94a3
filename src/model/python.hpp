#pragma once
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "model/gpu_code.hpp"

namespace gpudoctor {

/// torch/version.py, written when the wheel was built. The PyPI wheel's METADATA says "2.5.1"
/// while this file says "2.5.1+cu124", so the build is read from here.
struct TorchBuildInfo {
  std::optional<std::string> version;  ///< __version__: "2.5.1+cu124"
  std::optional<std::string>
      local_version;                ///< after '+': "cu124", "cpu", "rocm6.0"; null for none
  std::optional<std::string> cuda;  ///< torch.version.cuda: "12.4"; null on CPU/ROCm builds
  std::optional<std::string> hip;   ///< torch.version.hip: "6.0.32830-d62f6a171" on ROCm
  std::optional<std::string> rocm;  ///< newer ROCm builds only
  std::optional<std::string> xpu;   ///< 2.6+ only
  std::optional<std::string> git_version;
  std::optional<bool> debug;
};
GPUDOCTOR_JSON(TorchBuildInfo, version, local_version, cuda, hip, rocm, xpu, git_version, debug)

/// tensorflow/python/platform/build_info.py (tensorflow_core/… in 1.15): what
/// tf.sysconfig.get_build_info() returns, read without importing.
struct TensorflowBuildInfo {
  std::string file;                          ///< the build_info.py read
  std::optional<std::string> cuda_version;   ///< "12.2"; Windows "64_112" is given as "11.2"
  std::optional<std::string> cudnn_version;  ///< "8" (major only in most builds)
  std::optional<bool> is_cuda_build;
  std::optional<bool> is_rocm_build;
  std::optional<bool> is_tensorrt_build;
  std::vector<std::string> cuda_compute_capabilities;  ///< "sm_50", …, "compute_80"
};
GPUDOCTOR_JSON(TensorflowBuildInfo, file, cuda_version, cudnn_version, is_cuda_build, is_rocm_build,
               is_tensorrt_build, cuda_compute_capabilities)

/// The backend Keras 3 would pick: KERAS_BACKEND, else "backend" in $KERAS_HOME/keras.json or
/// ~/.keras/keras.json, else its default, "tensorflow" (the only one Keras 2 has).
struct KerasConfig {
  std::string backend;                        ///< the effective one
  std::string backend_from;                   ///< "KERAS_BACKEND", "keras.json" or "default"
  std::optional<std::string> config_file;     ///< the keras.json read, when there is one
  std::optional<std::string> config_backend;  ///< its "backend"
  std::optional<std::string> env_backend;     ///< KERAS_BACKEND
};
GPUDOCTOR_JSON(KerasConfig, backend, backend_from, config_file, config_backend, env_backend)

/// One installed distribution that matters for GPU compute (or numpy).
struct PythonPackage {
  std::string name;                    ///< PEP 503 normalised: "tensorflow-metal"
  std::optional<std::string> version;  ///< METADATA "Version" (the directory name's if unreadable)
  std::string location;                ///< the site-packages directory
  std::string metadata_dir;            ///< "torch-2.5.1.dist-info", "numpy-1.24.2.egg-info"
  std::optional<std::string> installer;    ///< INSTALLER: "pip", "conda", "uv"
  std::vector<std::string> wheel_tags;     ///< WHEEL "Tag": "cp311-cp311-macosx_12_0_arm64"
  std::optional<std::string> direct_url;   ///< direct_url.json "url" (installs from a URL or file)
  std::vector<std::string> requires_dist;  ///< Requires-Dist lines naming GPU-relevant packages
  std::optional<std::string> cuda_series;  ///< from the name: "12" (…-cu12, cupy-cuda12x,
                                           ///< jax-cuda12-…), "10.2" (cupy-cuda102)
  std::optional<TorchBuildInfo> torch;
  std::optional<TensorflowBuildInfo>
      tensorflow;  ///< on the distribution that installs the tensorflow package
  std::optional<KerasConfig> keras;
  std::vector<GpuCodeLibrary> gpu_code;  ///< the libraries carrying its CUDA / HIP kernels
};
GPUDOCTOR_JSON(PythonPackage, name, version, location, metadata_dir, installer, wheel_tags,
               direct_url, requires_dist, cuda_series, torch, tensorflow, keras, gpu_code)

/// One Python environment a user would run: a prefix and the site-packages of one X.Y.
struct PythonEnv {
  std::string kind;    ///< "venv" (pyvenv.cfg), "conda" (conda-meta), "user" (~/.local), "system"
                       ///< (/usr, /usr/local), "path" (any other prefix or directory)
  std::string prefix;  ///< as found, links resolved under the root
  std::vector<std::string> found_by;  ///< "VIRTUAL_ENV", "CONDA_PREFIX", "--python-env", "PATH",
                                      ///< "environments.txt", "user site", "standard location"
  std::optional<std::string> python_executable;
  std::optional<std::vector<std::string>>
      executable_archs;  ///< from its ELF / Mach-O header: ["arm64"], ["x86_64", "arm64"]
                         ///< (universal)
  std::optional<std::string>
      executable_macos_sdk;  ///< Mach-O: the macOS SDK it was built with, "10.9"; below 11 the
                             ///< process is told macOS 10.16 unless SYSTEM_VERSION_COMPAT=0
  std::optional<std::string> python_version;       ///< "3.11.9" or "3.11"
  std::optional<std::string> python_version_from;  ///< "pyvenv.cfg", "conda-meta", "lib directory",
                                                   ///< "libpython", "executable name"
  std::optional<std::string>
      base_home;  ///< pyvenv.cfg "home": the interpreter a venv was made from
  std::optional<bool> include_system_site_packages;  ///< pyvenv.cfg
  std::vector<std::string> site_packages;
  std::vector<PythonPackage> packages;
};
GPUDOCTOR_JSON(PythonEnv, kind, prefix, found_by, python_executable, executable_archs,
               executable_macos_sdk,
               python_version, python_version_from, base_home, include_system_site_packages,
               site_packages, packages)

/// The variables that choose which Intel GPUs SYCL and Level Zero programs (torch XPU, IPEX,
/// llama.cpp SYCL) see, and the library path that decides which oneAPI runtime they load, as
/// the process running the probes saw them (docs/intel.md). Absent: not set.
struct XpuEnvironment {
  std::optional<std::string> oneapi_device_selector;    ///< ONEAPI_DEVICE_SELECTOR
  std::optional<std::string> sycl_device_filter;        ///< SYCL_DEVICE_FILTER (deprecated)
  std::optional<std::string> ze_affinity_mask;          ///< ZE_AFFINITY_MASK
  std::optional<std::string> ze_flat_device_hierarchy;  ///< ZE_FLAT_DEVICE_HIERARCHY
  std::optional<std::string> ld_library_path;           ///< LD_LIBRARY_PATH
};
GPUDOCTOR_JSON(XpuEnvironment, oneapi_device_selector, sycl_device_filter, ze_affinity_mask,
               ze_flat_device_hierarchy, ld_library_path)

struct PythonInfo {
  std::vector<PythonEnv> envs;                 ///< in the order a user would meet them
  std::optional<std::string> conda_envs_file;  ///< ~/.conda/environments.txt, when read
  std::vector<std::string> errors;  ///< "…/METADATA: no Name header", each naming the file
  XpuEnvironment xpu_env;           ///< the XPU device-selection variables (probes/python)
};
GPUDOCTOR_JSON(PythonInfo, envs, conda_envs_file, errors, xpu_env)

}  // namespace gpudoctor
