#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "model/device_node.hpp"

namespace gpudoctor {

/// A versioned library file the dynamic loader can see: "libcuda.so.580.65.06".
struct LibraryFile {
  std::string name;                         ///< "libcuda.so.1"
  std::string path;                         ///< where the loader would find it
  std::optional<std::string> real_path;     ///< after following links
  std::optional<std::string> version;       ///< from the real file's name: "580.65.06"
  bool stub = false;                        ///< a toolkit stub (…/stubs/…)
  bool shadowed = false;                    ///< an earlier directory wins
  std::optional<int> elf_bits;              ///< 32 or 64, from the ELF header
  bool on_search_path = true;               ///< false: found only in /usr/lib/wsl/lib, which
                                            ///< the loader's configuration does not name, or
                                            ///< hidden_from_cache
  /// Its directory is one the loader sees only through /etc/ld.so.cache, and the cache lists no
  /// file of this name there: dlopen("name") does not find it (WSL's plain-file libcuda.so; a
  /// library copied in without `ldconfig`).
  bool hidden_from_cache = false;
};
GPUDOCTOR_JSON(LibraryFile, name, path, real_path, version, stub, shadowed, elf_bits,
               on_search_path, hidden_from_cache)

/// The NVIDIA kernel driver as files show it, without loading anything.
struct NvidiaKernel {
  std::optional<std::string> proc_version;        ///< /proc/driver/nvidia/version, first line
  std::optional<std::string> module_version;      ///< loaded module: "580.65.06" (proc, else sys)
  std::optional<std::string> module_flavor;       ///< "open" or "proprietary"
  /// Where the flavour was read when /proc/driver/nvidia/version did not say it:
  /// "/etc/nvidia/kernel.conf: MODULE_VARIANT=kernel-open" (negativo17's and RPM Fusion's
  /// packages build the variant that file names).
  std::optional<std::string> module_flavor_from;
  std::optional<std::string> sys_module_version;  ///< /sys/module/nvidia/version
  std::vector<std::string> loaded_modules;        ///< of nvidia, nvidia_uvm, nvidia_drm, nvidia_modeset, nouveau, nvidia_peermem, nv_peer_mem
  bool modules_listed = false;  ///< /proc/modules or /sys/module could be read (under the root)
  std::vector<DeviceNode> device_nodes;           ///< /dev/nvidia*
  bool dev_listed = false;  ///< /dev could be looked at (always live; a fixture may not hold it)
  std::optional<bool> secure_boot;
  std::vector<std::string> dkms;                  ///< as `dkms status` words it:
                                                  ///< "nvidia/580.65.06, 6.1.0-18-amd64, x86_64: installed"
  std::vector<std::string> nouveau_blacklisted_in; ///< modprobe.d files that blacklist nouveau
  std::vector<std::string> nouveau_cmdline;       ///< /proc/cmdline parameters naming nouveau
  std::vector<std::string> iommu_cmdline;         ///< /proc/cmdline's IOMMU parameters
};
GPUDOCTOR_JSON(NvidiaKernel, proc_version, module_version, module_flavor, module_flavor_from,
               sys_module_version,
               loaded_modules, device_nodes, dev_listed, secure_boot, dkms, nouveau_blacklisted_in,
               nouveau_cmdline, iommu_cmdline, modules_listed)

struct CudaToolkit {
  std::string path;                              ///< "/usr/local/cuda-13.0"
  std::string source;                            ///< "/usr/local", "conda", "pip", "CUDA_HOME", "PATH"
  std::vector<std::string> found_by;             ///< every route that led here, source first
  std::optional<std::string> real_path;          ///< after following links
  std::optional<std::string> version;            ///< "13.0.48" (version.json / version.txt / nvcc)
  std::optional<std::string> version_source;     ///< "version.json", "version.txt", "dist-info", "libcudart",
                                                 ///< "conda-meta", "nvcc", "cuda.h"
  std::optional<std::string> nvcc;              ///< path of nvcc, if present
  std::optional<std::string> cudart_version;
  std::optional<std::string> cublas_version;
  std::optional<std::string> cudnn_version;      ///< cudnn_version.h or libcudnn.so.N
  std::optional<std::string> nccl_version;
  bool default_symlink = false;                  ///< /usr/local/cuda points here
  std::optional<std::string> stub_libcuda;       ///< lib64/stubs/libcuda.so, if present
  /// crt/math_functions.h declares cospi() with an exception specification (CUDA 13.0 does; the
  /// 12.x headers do not, and glibc 2.41 declares it noexcept): null when the header was not read.
  std::optional<bool> cospi_exception_spec;
};
GPUDOCTOR_JSON(CudaToolkit, path, source, found_by, real_path, version, version_source, nvcc,
               cudart_version, cublas_version, cudnn_version, nccl_version, default_symlink,
               stub_libcuda, cospi_exception_spec)

/// One file of a CUDA runtime library (libcudart, libcublas, libcudnn, libnccl, …) where the
/// dynamic loader or a framework would find it: a directory the loader searches, a toolkit, a
/// conda environment's lib/ or a pip nvidia-* wheel.
struct CudaLibrary {
  std::string library;                      ///< "cudnn", "cudart", "cublas", "nccl", …
  std::string name;                         ///< the name a program asks for: "libcudnn.so.8"
  std::string path;                         ///< directory + name
  std::optional<std::string> real_path;     ///< after following links
  std::optional<std::string> soname;        ///< DT_SONAME of the real file
  std::optional<std::string> version;       ///< "8.1.0": header, file name or package record
  std::optional<std::string> version_from;  ///< "cudnn_version.h", "file name", "dist-info",
                                            ///< "conda-meta"
  std::string found_in;                     ///< "loader", "toolkit", "conda", "pip"
  std::optional<std::string> install;       ///< the toolkit, conda prefix or wheel folder
  bool on_loader_path = false;              ///< its directory is one the loader searches
  bool loader_pick = false;  ///< the first file of this name in the loader's order: what a
                             ///< program without its own rpath gets
};
GPUDOCTOR_JSON(CudaLibrary, library, name, path, real_path, soname, version, version_from,
               found_in, install, on_loader_path, loader_pick)

/// An NVSwitch: an NVIDIA PCI function of class 0x0680 (bridge, other), found on HGX/DGX boards.
struct NvSwitch {
  std::string address;                ///< "0000:05:00.0"
  std::uint16_t device_id = 0;        ///< 0x22a3
  std::optional<std::string> driver;  ///< "nvidia-nvswitch"
};
GPUDOCTOR_JSON(NvSwitch, address, device_id, driver)

/// nvidia-fabricmanager as its files show it.
struct FabricManager {
  std::optional<std::string> binary;        ///< "/usr/bin/nv-fabricmanager"
  std::optional<std::string> package;       ///< "nvidia-fabricmanager-535" (dpkg)
  std::optional<std::string> version;       ///< "535.129.03"
  std::optional<std::string> version_from;  ///< "dpkg", "nv-fabricmanager --version"
  std::optional<std::string> service_unit;  ///< the systemd unit file
  std::optional<bool> enabled;              ///< linked from a *.target.wants directory
  std::optional<bool> running;              ///< a process named nv-fabricmanager (live only)
};
GPUDOCTOR_JSON(FabricManager, binary, package, version, version_from, service_unit, enabled,
               running)

/// One row of the installed driver's own GPU table (supported-gpus.json in its documentation
/// directory) that matches a GPU on this machine. Its name is the one the driver uses.
struct DriverGpuEntry {
  std::uint16_t device_id = 0;
  std::optional<std::uint16_t> subsystem_vendor_id;  ///< the row is for this board only
  std::optional<std::uint16_t> subsystem_device_id;
  std::string name;                            ///< "NVIDIA GeForce RTX 5090"
  std::optional<std::string> legacy_branch;    ///< "580.xx": only that branch drives it
  std::vector<std::string> features;           ///< as the file lists them
  bool open_module = false;                    ///< "kernelopen" on a row this driver serves
  /// The proprietary module cannot drive it: "kernelopen" without "gsp_proprietary_supported",
  /// judged only in a file that uses that feature at all (older files lack it everywhere).
  bool needs_open_module = false;
};
GPUDOCTOR_JSON(DriverGpuEntry, device_id, subsystem_vendor_id, subsystem_device_id, name,
               legacy_branch, features, open_module, needs_open_module)

/// The driver's supported-gpus.json: where it was found and its rows for this machine's GPUs.
struct DriverGpuTable {
  std::string file;                    ///< "/usr/share/doc/nvidia-driver-580/supported-gpus.json"
  std::size_t rows = 0;                ///< rows in the whole file
  std::vector<DriverGpuEntry> gpus;    ///< rows matching an NVIDIA GPU on the PCI bus
  std::optional<std::string> error;    ///< why it could not be read ("not JSON: …")
};
GPUDOCTOR_JSON(DriverGpuTable, file, rows, gpus, error)

/// A Slurm job this process runs in, and the node's Slurm configuration for GPUs
/// (https://slurm.schedmd.com/gres.html: a job allocated GPUs gets SLURM_JOB_GPUS, a step
/// SLURM_STEP_GPUS, and CUDA_VISIBLE_DEVICES; https://slurm.schedmd.com/cgroup.conf.html:
/// ConstrainDevices=yes denies a job the devices it was not allocated).
struct SlurmJob {
  std::string job_id;                         ///< SLURM_JOB_ID
  /// The first of SLURM_JOB_GPUS, SLURM_STEP_GPUS, SLURM_GPUS_ON_NODE that is set, as
  /// "NAME=value"; null: the job was allocated no GPU as far as its environment says.
  std::optional<std::string> gpus;
  std::optional<std::string> gres_conf;       ///< "/etc/slurm/gres.conf" where it names a gpu
  std::optional<bool> constrain_devices;      ///< cgroup.conf's ConstrainDevices; null: not read
  std::optional<std::string> cgroup_conf;     ///< the cgroup.conf read
};
GPUDOCTOR_JSON(SlurmJob, job_id, gpus, gres_conf, constrain_devices, cgroup_conf)

/// A Slurm compute node's GPU configuration (slurmd installed, gres.conf read), inside a job or
/// not: what slurmd will look for when it starts.
struct SlurmNode {
  std::string gres_conf;                        ///< "/etc/slurm/gres.conf"
  std::optional<std::string> hostname;          ///< the node's name gres.conf's NodeName= is matched to
  std::optional<std::string> autodetect;        ///< "nvml", "rsmi", "oneapi", "nvidia", "off"
  std::optional<std::string> autodetect_line;
  std::vector<std::string> gpu_files;           ///< File= of its Name=gpu lines, expanded
  std::optional<std::string> files_line;
  std::vector<std::string> missing_files;       ///< of gpu_files, absent under a /dev that was read
  bool dev_listed = false;                      ///< /dev could be looked at
  std::optional<std::string> plugin_dir;        ///< where Slurm's plugins are (gres_gpu.so)
  /// gpu_<autodetect>.so in plugin_dir (AutoDetect=nvml needs gpu_nvml.so, built only where
  /// Slurm's configure found NVML); null: no AutoDetect, or no plugin directory found.
  std::optional<bool> autodetect_plugin;
  std::size_t lines_not_matched = 0;            ///< NodeName= lines not matched to this node
};
GPUDOCTOR_JSON(SlurmNode, gres_conf, hostname, autodetect, autodetect_line, gpu_files, files_line,
               missing_files, dev_listed, plugin_dir, autodetect_plugin, lines_not_matched)

/// NVIDIA files and environment: kernel side, userspace driver libraries, toolkits.
struct NvidiaSystem {
  NvidiaKernel kernel;
  std::vector<LibraryFile> libcuda;               ///< every libcuda.so* the loader can see, in order
  std::vector<LibraryFile> libnvidia_ml;
  std::vector<CudaToolkit> toolkits;
  std::optional<std::string> usr_local_cuda;      ///< where /usr/local/cuda points
  std::optional<std::string> nvcc_on_path;        ///< first nvcc on PATH
  std::optional<std::string> cuda_home;           ///< CUDA_HOME
  std::optional<std::string> cuda_path;           ///< CUDA_PATH
  std::optional<std::string> cuda_visible_devices;
  std::optional<std::string> nvidia_visible_devices;
  std::optional<std::string> ld_library_path;
  std::optional<std::vector<CudaLibrary>> cuda_libraries;  ///< libcudart, libcudnn, … wherever
                                                         ///< found; null: not looked for
  std::vector<NvSwitch> nvswitches;
  std::optional<FabricManager> fabricmanager;     ///< null: none of its files found
  std::optional<bool> dev_dxg;  ///< /dev/dxg (WSL 2's GPU paravirtualization); null when /dev
                                ///< was not looked at
  std::optional<bool> wsl_dxcore;  ///< /usr/lib/wsl/lib/libdxcore.so; null: no such folder
  std::optional<DriverGpuTable> driver_gpu_table;  ///< null: no supported-gpus.json found
  std::optional<SlurmJob> slurm;  ///< null: not in a Slurm job (no SLURM_JOB_ID)
  std::optional<SlurmNode> slurm_node;  ///< null: no slurmd, or no gres.conf
};
GPUDOCTOR_JSON(NvidiaSystem, kernel, libcuda, libnvidia_ml, toolkits, usr_local_cuda,
               nvcc_on_path, cuda_home, cuda_path, cuda_visible_devices, nvidia_visible_devices,
               ld_library_path, cuda_libraries, nvswitches, fabricmanager, dev_dxg,
               wsl_dxcore, driver_gpu_table, slurm, slurm_node)

}  // namespace gpudoctor
