// The corpus (issue 26 §5): every machine rebuilt from a public thread, listed in
// tests/fixtures/corpus.md with the cause the thread established, is replayed with
// `gpudoctor check --json --sysroot` (and the first line of its replay.txt):
// - a healthy machine has no failing finding;
// - a broken machine whose cause the code names gets that finding id;
// - a broken machine whose cause the code does not name yet is not "all clear": some failure,
//   warning, or an area said not to be examined (other than the areas a tree leaves
//   unexamined whatever the cause: cuda, host, gpu).
// What the code gets wrong today is listed below, each with why (the lead's list to fix,
// /work/notes/machine-misses.md); these lists may only shrink: a machine that gets right must
// leave them. Holdout rows are run like the others; tools/corpus_table.py reports their rate
// apart.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "json.hpp"
#include "test_support.hpp"
#include "text.hpp"

namespace gpudoctor {
namespace corpus_test {

namespace fs = std::filesystem;

struct Row {
  int n = 0;
  std::string machine;
  std::string finding;  // an id, "none yet" or "healthy"
  bool holdout = false;
};

std::vector<Row> corpus_rows() {
  std::ifstream in(test::fixture_path("corpus.md"));
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::vector<Row> rows;
  const auto start = text.find("## The list");
  if (start == std::string::npos) return rows;
  const auto end = text.find("\n## ", start + 1);
  std::istringstream section(text.substr(start, end == std::string::npos ? std::string::npos
                                                                         : end - start));
  std::string line;
  while (std::getline(section, line)) {
    if (line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream ls(line.substr(1));
    while (std::getline(ls, cell, '|')) cells.emplace_back(trim(cell));
    if (cells.size() < 7 || cells[0].empty() || !std::isdigit(static_cast<unsigned char>(cells[0][0]))) {
      continue;
    }
    rows.push_back({std::stoi(cells[0]), cells[1], cells[5], cells[6] == "HOLDOUT"});
  }
  return rows;
}

// Broken machines whose established cause the code does not name today, and why.
const std::map<std::string, std::string> kMissed = {
    {"corpus-h100-snp-guest-kernel", "no check: the guest kernel (gpu.no_driver says it generically)"},
    {"corpus-tf23-cudnn8-gtx960m-laptop", "python.tensorflow_cuda_libraries now fires (libcudnn.so.7 not on the loader path); the cuDNN 8 behind the .so.7 is not told apart"},
    {"corpus-tf23-cuda102-cudnn8-gt710", "python.tensorflow_cuda_libraries now fires (libcudnn.so.7 not on the loader path); the cuDNN 8 behind the .so.7 is not told apart"},
    {"corpus-tf23-cudnn8-gtx1050-laptop", "python.tensorflow_cudnn_loaded fires: it reads cuDNN 8.0.2 behind the libcudnn.so.7 link against TF's cuDNN 7, under another id than the row's python.tensorflow_cudnn"},
    {"corpus-lxc-kfd-root-group", "a tree cannot carry /dev/kfd's owner"},
    // Rows 47-82 (second batch), as first measured.
    {"corpus-rocm-rx580-gfx803-torch181", "no table of torch's ROCm builds' gfx targets before those the ROCm matrix lists, and no libtorch_hip in the tree"},
    {"corpus-rocm39-rocsparse-no-gfx803", "ROCm 3.9 is older than data/compat/rocm.json's rows; rocSPARSE's code objects are not read"},
    {"corpus-ollama-780m-gfx1103-phoenix", "ollama's release is not read and only 0.18.0-0.31.1 carry gfx1103: the pair's code stage is at risk, behind its unexamined libraries"},
    {"corpus-container-nvml-daemon-reload", "no check: systemd cgroup driver with no /dev/char links for the NVIDIA nodes"},
    {"corpus-cluster-slurm-gres-duplicate", "HOLDOUT: duplicate Name=gpu lines beside AutoDetect=nvml are not judged"},
    // Rows 83-116 (third batch, machines3), as measured after nvidia.cdi_spec_stale and
    // nvidia.slurm_job_without_gpu.
    {"corpus-container-debian11-cgroupv2-nvml", "no check: cgroup v2 with a libnvidia-container that cannot set device access under it (the toolkit's version is not in the tree)"},
    {"corpus-podman-cdi-spec-in-run-cdi", "no check: a CDI spec only in a directory the engine does not search (/run/cdi on NixOS; /var/run is usually /run, so which directories podman searched there is not known from files)"},
    {"corpus-podman-301-without-cdi", "podman's version is not read (CDI needs 4.1.0)"},
    {"corpus-container-run-without-gpus-v100", "nvidia.device_nodes fails (no /dev/nvidia* in a container) instead of naming nvidia.container_without_gpu"},
    {"corpus-cluster-slurm-docker-outside-job-cgroup", "no check: Docker containers started from a Slurm job are outside the job's device cgroup"},
    {"corpus-mig-two-instances-torch-assert", "MIG mode and instances are NVML state a tree does not carry"},
    {"corpus-wsl2-insider-21343-known-issue", "the Windows build is not in a Linux tree"},
    {"corpus-cluster-nccl-tests-system-nccl-2234", "no check: a program's libnccl.so.2 resolving to an older system NCCL than the one built beside it"},
    // Rows 117-150 (machines4's batch), as first measured.
    {"corpus-vulkan-nvidia-icd-libgl", "a manifest naming libGL.so.1 (there, but no Vulkan driver) is not told apart from a driver"},
    {"corpus-llamacpp-hip-no-amdgpu-targets-6700xt", "the code objects of a llama.cpp HIP build are not read"},
    {"corpus-rocm-opal-r7-m265-unsupported", "rocm.amdgpu_not_loaded says radeon holds it; nothing says ROCm never supported this GCN 1 part"},
    {"corpus-rocm30-opencl-no-comgr", "opencl.icd_broken says the ICD's library is not found in the tree; libamd_comgr's absence is not read"},
    {"corpus-ollama-gfx1030-gfx906-dual", "HOLDOUT: ollama installed under a build directory the runtime probe does not search"},
    {"corpus-ollama-0126-no-rocm-runner", "HOLDOUT: a release that embeds its runners in the binary: the binary is not read"},
    {"corpus-torch-rocm70-gfx1151", "HOLDOUT: no libtorch_hip in the tree and no table of torch nightlies' gfx targets"},
    {"corpus-ollama-igpu-780m-igpu-disabled", "HOLDOUT: ollama's version (0.30+ drops iGPUs without OLLAMA_IGPU_ENABLE=1) is not read"},
    // Rows 151-186 (batch 5), as measured after the kernel log was read (rows 163, 164 and
    // 172 named).
    {"corpus-container-debian8-ldconfig-real", "no check: the toolkit's ldconfig path (@/sbin/ldconfig) against what the host has"},
    {"corpus-docker-snap-ubuntu2204-classic", "nvidia.container_toolkit warns; Docker from the snap on a classic Ubuntu is not told apart"},
    {"corpus-k8s-gpu-operator-driver-on-host-aws", "HOLDOUT: silent"},
    {"corpus-cloud-azure-nva10v5-grid535-xid78", "no check: a vGPU guest driver against the host's vGPU manager (the thread's Xid 78 line is a paraphrase, not carried as a log)"},
    {"corpus-container-compat-libcuda-rtx3060-570", "HOLDOUT: silent"},
    {"corpus-wsl2-tesla-p4-tcc-mode", "HOLDOUT: nvidia.wsl_gpu fails"},
    {"corpus-mig-a100-egl-habitat", "HOLDOUT: silent"},
    {"corpus-laptop-bbswitch-d3cold-550", "HOLDOUT: gpu.no_driver fails; the kernel log's D3cold line has no entry"},
    {"corpus-mac-docker-ollama-m1-no-metal", "a Linux container on a Mac is not told apart from a Linux machine without a GPU"},
    {"corpus-mac-jax-metal-011-jax052", "no check: jax-metal's supported jax/jaxlib releases"},
    {"corpus-mac-jax-metal-004-macos13", "HOLDOUT: metal and opencl not examined"},
    {"corpus-ollama-7900xtx-raphael-igpu-crash", "HOLDOUT: ollama.gfx_unsupported fails for the iGPU; the row's cause is listed as none yet"},
    {"corpus-intel-a380-neo-2518-regression", "HOLDOUT: intel.level_zero_missing warns"},
    {"corpus-intel-adls-4690-unknown-to-neo", "no check: the compute runtime's list of device ids"},
    // Rows 187-222 (batch 6), as measured after nvidia.open_module_required and the open
    // module's "Data Center GPUs" line (rows 187, 188, 194 named; 221's fix mended).
    {"corpus-container-nccl-shm-16mb-8xh100", "HOLDOUT: silent (a container's /dev/shm size is not read; nccl.shm_too_small comes from NCCL's own message only)"},
    {"corpus-container-nvenc-driver-capabilities", "no check from files: NVIDIA_DRIVER_CAPABILITIES without video beside a program that uses NVENC (the message entry nvenc.library_missing names it from ffmpeg's line)"},
    {"corpus-docker-rootless-nvidia-devices-cgroup", "HOLDOUT: silent"},
    {"corpus-cluster-opennmt-gpuid1-one-visible", "a program's device ordinal against CUDA_VISIBLE_DEVICES is not in a tree"},
    {"corpus-vm-vgpu-okd-unlicensed", "the vGPU license state (nvidia-smi -q) is not in the tree"},
    {"corpus-rocm-talos-kernel-no-hsa-amd-renoir", "no check: amdgpu bound without /dev/kfd where no host ROCm is installed (the kernel's CONFIG_HSA_AMD is not read)"},
    {"corpus-intel-skl-igc-usr-local-not-found", "intel.level_zero_missing warns; the ICD's own dependencies (libigc) are not resolved"},
    {"corpus-opencl-cvmfs-loader-vendordir-nvidia", "HOLDOUT: an ICD loader built with another vendors directory is not read"},
    {"corpus-mac-gha-macos14-vm-mps", "no check: a macOS virtual machine (no MPS under Apple's Virtualization framework)"},
    {"corpus-intel-lnl-kernel-618-neo-2548", "no table of kernel releases against compute-runtime releases"},
    {"corpus-intel-rkl-uhd750-kernel-54", "gpu.no_driver fails; data/compat/intel.json has no first kernel for Rocket Lake"},
    // Rows 223-258 (batch 7), as measured after nvidia.iommu_p2p, the CDI spec's device numbers,
    // Slurm's daemon logs, rocm.visible_devices and OCL_ICD_VENDORS hiding the vendors directory.
    {"corpus-nccl-acs-amd-bridges-2x-rtx5880ada", "PCIe ACS is in the bridges' config space, which a tree does not carry and no probe reads"},
    {"corpus-nccl-plx-acs-gdr-crash", "PCIe ACS is in the bridges' config space, which a tree does not carry and no probe reads"},
    {"corpus-laptop-kernel518-ibt-nvidia-open-515", "HOLDOUT: nvidia.module_not_loaded fails; the kernel log's \"Missing ENDBR\" (IBT) has no entry"},
    {"corpus-podman-selinux-nvidia0-xserver-misc", "HOLDOUT: silent (SELinux's state and labels are not read)"},
    {"corpus-singularity-nv-libs-ld-library-path-cleared", "no check: Apptainer's /.singularity.d/libs off every loader path"},
    {"corpus-docker-desktop-linux-toolkit-unsupported", "HOLDOUT: silent"},
    {"corpus-vm-kvm-gtx1050-hypervisor-visible", "HOLDOUT: silent"},
    {"corpus-wsl2-docker-no-cgroups-true-gpu-blocked", "HOLDOUT: nvidia not examined"},
    {"corpus-intel-oneapi-spack-load-without-setvars", "oneAPI's environment outside torch +xpu is not judged"},
    {"corpus-rocm-flatpak-kfd-selinux-staff-u", "SELinux's domain and Flatpak's device list are not read"},
    {"corpus-opencl-pyopencl-pocl-wheel-venv", "pyopencl's own ICD and loader inside a venv are not read"},
    {"corpus-rocm-wsl2-oracle-linux-94-unsupported", "HOLDOUT: ROCm on WSL under a distribution AMD does not validate is not judged (nvidia.wsl_gpu no longer reads its /dev/dxg as NVIDIA's)"},
    {"corpus-intel-level-zero-loader-master-uhd630", "a hand-built Level Zero loader on LD_LIBRARY_PATH is not compared with the system's"},
    {"corpus-vulkan-icd-filenames-directory-amber", "the row's cause (VK_ICD_FILENAMES must name a file) is contradicted by the Vulkan loader (commit 4830af39d): a directory works"},
    {"corpus-mac-jax-metal-pjrt-047-vs-051", "no check: jax-metal's supported jax/jaxlib releases"},
    // Rows 259-294 (batch 8), as measured after DKMS's build logs, rocm.igpu_first,
    // python.cupy_packages and macos.tensorflow_metal_missing.
    {"corpus-dkms-nv470-popos-kernel-646", "HOLDOUT: nvidia.module_not_loaded fails; the tree holds no make.log"},
    {"corpus-onnxruntime-gpu-118-cuda11-build-cuda121", "HOLDOUT: listed none yet; python.onnxruntime_cuda names it (PyPI's 1.18 links CUDA 11)"},
    {"corpus-cluster-torch112-cu113-cudnn803-ld-path", "HOLDOUT: silent (cuda.library_shadowed compares nvidia-* wheels, not torch/lib's own cuDNN)"},
    {"corpus-cluster-stardist-exclusive-process-opencl", "the compute mode is NVML's, not a file's"},
    {"corpus-wsl2-docker-daemon-json-not-reloaded", "dockerd's start time is not compared with daemon.json's"},
    {"corpus-dkms-cc-mismatch-clearlinux-390", "HOLDOUT: listed none yet; gpu.dkms_build_failed names it (the compiler check in make.log)"},
    {"corpus-k8s-okd-fcos-kernel-5-14-14-no-headers", "the GPU Operator's driver container on Fedora CoreOS is not modelled (the fix says apt)"},
    {"corpus-conda-cupy-cudatoolkit-not-host-113", "HOLDOUT: silent"},
    {"corpus-xgboost-nccl-p2p-hang-driver-560", "no table of driver branches with NCCL peer-to-peer hangs"},
    {"corpus-opencl-clover-gfx1100-no-libclc-nixos", "HOLDOUT: opencl not examined (clover's libclc targets)"},
    {"corpus-mac-mlx-macos130-needs-135", "no table of MLX's macOS minimum; the tree's libmlx.dylib is empty (no LC_BUILD_VERSION to read)"},
    {"corpus-rocm-gfx1151-rocm71-needs-72", "HOLDOUT: silent (no ROCm installed in the tree to judge gfx1151 against)"},
    {"corpus-intel-haswell-igpu-blocks-a750-opencl", "an unsupported Intel iGPU beside a supported one is not judged"},
    {"corpus-rocm-lumi-miopen-shared-tmp", "MIOpen's cache and database places are not judged"},
    {"corpus-intel-a750-pi5-xe-force-probe", "gpu.no_driver fails; xe's force_probe message has no entry"},
    {"corpus-wsl2-vulkan-llvmpipe-only-4090", "HOLDOUT: WSL's Vulkan (dzn) is not judged"},
    // Rows 295-330 (batch 9), as measured after python.onnxruntime_cuda, python.torch_gpu_vendor,
    // nvidia.peermem_not_loaded, the forward-compatibility libcuda, cuda.glibc_math_headers,
    // rocm.rocminfo_lsmod and RKE2's generated containerd configuration.
    {"corpus-dgx-os-2501-nccl-2223-peermem-gdr-off", "HOLDOUT: silent"},
    {"corpus-docker-build-no-gpu-default-runtime", "`docker build` steps never get the nvidia runtime: no file of the machine shows it"},
    {"corpus-cluster-login-node-conda-no-cuda-virtual", "conda's __cuda virtual package on a host without a GPU (CONDA_OVERRIDE_CUDA) is not modelled"},
    {"corpus-k8s-cpu-node-nvidia-default-runtime", "HOLDOUT: silent"},
    {"corpus-tensorrt-801-engine-built-800", "TensorRT's wheel and libnvinfer releases are not compared"},
    {"corpus-cluster-slurm-gpus-per-task-cuda-ipc", "Slurm's --gpus-per-task binding against CUDA IPC between ranks is not judged"},
    {"corpus-k8s-mig-device-plugin-no-monitor-devices", "HOLDOUT: silent"},
    {"corpus-cloud-gke-l4-nvidia-lib64-not-in-ld-path", "HOLDOUT: silent"},
    {"corpus-podman-rootless-no-hooks-dir", "rootless Podman's hooks_dir is not read"},
    {"corpus-rocm-5700g-sdma-hipmemcpy-hang", "no table of ROCm runtime defects by target and release (gfx90c's SDMA hang)"},
    {"corpus-llamacpp-python-hipblas-flag-renamed", "llama-cpp-python is not read as a GPU runtime (the backends its build carries)"},
    {"corpus-rocm-rootless-podman-no-device-cgroup", "HOLDOUT: silent"},
    {"corpus-vllm-rocm-gfx1100-triton-flash-attn", "vLLM's ROCm release against gfx11 and VLLM_USE_TRITON_FLASH_ATTN is not judged"},
    {"corpus-vulkan-nixos-7900xtx-mesa-too-old", "HOLDOUT: vulkan not examined"},
    {"corpus-intel-i915-hangcheck-long-kernel", "i915's hang check (enable_hangcheck) against long compute kernels is not modelled"},
    {"corpus-intel-b580-small-bar-xe", "HOLDOUT: opencl and level_zero not examined"},
    {"corpus-mac-1013-cuda-driver-for-1012", "no table of the Mac CUDA drivers and the OS X releases each supports"},
    {"corpus-mac-vulkan-sdk-moltenvk-not-global", "the Vulkan checks do not run on macOS (an SDK's MoltenVK manifest nothing names)"},
    {"corpus-mac-egpu-rx6600xt-needs-macos-121", "HOLDOUT: opencl and metal not examined"},
    {"corpus-opencl-plaidml-unversioned-libopencl", "plaidml on Linux and the unversioned libOpenCL.so it opens are not read"},
};

// Of those, the ones whose output is "all clear": a user would stop there.
const std::set<std::string> kSilent = {
    "corpus-rocm-rx580-gfx803-torch181",
    "corpus-rocm39-rocsparse-no-gfx803",
    "corpus-ollama-780m-gfx1103-phoenix",
    "corpus-container-nvml-daemon-reload",
    "corpus-cluster-slurm-gres-duplicate",
    "corpus-container-debian11-cgroupv2-nvml",
    "corpus-podman-cdi-spec-in-run-cdi",
    "corpus-podman-301-without-cdi",
    "corpus-cluster-slurm-docker-outside-job-cgroup",
    "corpus-mig-two-instances-torch-assert",
    "corpus-cluster-nccl-tests-system-nccl-2234",
    "corpus-llamacpp-hip-no-amdgpu-targets-6700xt",
    "corpus-ollama-gfx1030-gfx906-dual",
    "corpus-ollama-0126-no-rocm-runner",
    "corpus-torch-rocm70-gfx1151",
    "corpus-ollama-igpu-780m-igpu-disabled",
    "corpus-container-nccl-shm-16mb-8xh100",
    "corpus-container-nvenc-driver-capabilities",
    "corpus-docker-rootless-nvidia-devices-cgroup",
    "corpus-cluster-opennmt-gpuid1-one-visible",
    "corpus-vm-vgpu-okd-unlicensed",
    "corpus-rocm-talos-kernel-no-hsa-amd-renoir",
    "corpus-container-debian8-ldconfig-real",
    "corpus-k8s-gpu-operator-driver-on-host-aws",
    "corpus-container-compat-libcuda-rtx3060-570",
    "corpus-mig-a100-egl-habitat",
    "corpus-nccl-acs-amd-bridges-2x-rtx5880ada",
    "corpus-nccl-plx-acs-gdr-crash",
    "corpus-podman-selinux-nvidia0-xserver-misc",
    "corpus-singularity-nv-libs-ld-library-path-cleared",
    "corpus-docker-desktop-linux-toolkit-unsupported",
    "corpus-vm-kvm-gtx1050-hypervisor-visible",
    "corpus-intel-oneapi-spack-load-without-setvars",
    "corpus-rocm-flatpak-kfd-selinux-staff-u",
    "corpus-opencl-pyopencl-pocl-wheel-venv",
    "corpus-cluster-torch112-cu113-cudnn803-ld-path",
    "corpus-conda-cupy-cudatoolkit-not-host-113",
    "corpus-xgboost-nccl-p2p-hang-driver-560",
    "corpus-rocm-gfx1151-rocm71-needs-72",
    "corpus-rocm-lumi-miopen-shared-tmp",
    "corpus-dgx-os-2501-nccl-2223-peermem-gdr-off",
    "corpus-docker-build-no-gpu-default-runtime",
    "corpus-cluster-login-node-conda-no-cuda-virtual",
    "corpus-k8s-cpu-node-nvidia-default-runtime",
    "corpus-tensorrt-801-engine-built-800",
    "corpus-cluster-slurm-gpus-per-task-cuda-ipc",
    "corpus-k8s-mig-device-plugin-no-monitor-devices",
    "corpus-cloud-gke-l4-nvidia-lib64-not-in-ld-path",
    "corpus-podman-rootless-no-hooks-dir",
    "corpus-rocm-5700g-sdma-hipmemcpy-hang",
    "corpus-llamacpp-python-hipblas-flag-renamed",
    "corpus-rocm-rootless-podman-no-device-cgroup",
    "corpus-vllm-rocm-gfx1100-triton-flash-attn",
};

// Healthy machines on which a finding fails today, with the finding and why it is false.
const std::map<std::string, std::string> kFalseAlarms = {
    // No /proc/sys/kernel/osrelease in the tree (the thread did not give it) and /dev/dxg
    // present: the check takes "WSL version unknown" for WSL 1, though /dev/dxg exists only
    // under WSL 2.
};

struct Replayed {
  int exit_code = -1;
  Json out;
};

Replayed replay(const std::string& machine) {
  std::vector<std::string> args = {"check", "--json", "--no-smoke", "--sysroot",
                                   test::fixture_path(machine)};
  std::vector<std::string> env;
  std::ifstream in(test::fixture_path(machine) + "/replay.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (trim(line).empty() || line[0] == '#') continue;
    for (auto& word : split_words(line)) {
      const bool is_env = word.find('=') != std::string::npos && word[0] != '-';
      (is_env ? env : args).push_back(word);
    }
    break;  // the first line: the machine as the thread describes it
  }
  auto r = test::run_gpudoctor(args, env);
  Replayed out;
  out.exit_code = r.exit_code;
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << machine << ": " << r.err;
  if (r.exit_code == 0 || r.exit_code == 1) out.out = Json::parse(r.out);
  return out;
}

std::vector<std::string> ids_with(const Json& out, const std::set<std::string>& severities) {
  std::vector<std::string> ids;
  for (const auto& f : out["findings"]) {
    if (severities.count(f["severity"].get<std::string>())) ids.push_back(f["id"].get<std::string>());
  }
  return ids;
}

bool has_id(const Json& out, const std::string& id) {
  for (const auto& f : out["findings"]) {
    if (f["id"] == id) return true;
  }
  return false;
}

/// Some failure or warning, or an area not examined that a tree does not leave unexamined
/// whatever the cause.
bool flagged(const Json& out) {
  if (!ids_with(out, {"fail", "warn"}).empty()) return true;
  for (const auto& a : out["areas"]) {
    const std::string area = a["area"].get<std::string>();
    if (a["state"] == "not_examined" && area != "cuda" && area != "host" && area != "gpu") {
      return true;
    }
  }
  return false;
}

TEST(Corpus, ListHasAHoldoutThirdTwentyHealthyMachinesAndMostRebuilt) {
  const auto rows = corpus_rows();
  ASSERT_GE(rows.size(), 116u);
  std::size_t holdout = 0, healthy = 0, built = 0;
  std::set<std::string> names;
  for (const auto& r : rows) {
    holdout += r.holdout;
    healthy += r.finding == "healthy";
    EXPECT_TRUE(names.insert(r.machine).second) << r.machine << " is listed twice";
    built += fs::is_directory(test::fixture_path(r.machine));
  }
  EXPECT_GE(holdout * 3 + 2, rows.size()) << "a third of the rows are the holdout";
  EXPECT_GE(healthy, 20u);
  EXPECT_GE(built, 103u);
  // The lists above name only corpus machines.
  for (const auto& [m, why] : kMissed) EXPECT_TRUE(names.count(m)) << m;
  for (const auto& m : kSilent) EXPECT_TRUE(kMissed.count(m)) << m << " is silent but not missed";
  for (const auto& [m, id] : kFalseAlarms) EXPECT_TRUE(names.count(m)) << m;
}

// Every machine of one parity of row number: the corpus runs as two tests, so that each stays
// well inside its time limit under the sanitizers (294 machines took 74 s of 120 as one test).
void check_rows(int parity) {
  for (const auto& row : corpus_rows()) {
    if (row.n % 2 != parity) continue;
    if (!fs::is_directory(test::fixture_path(row.machine))) continue;  // "Not rebuilt"
    SCOPED_TRACE(row.machine);
    const Replayed r = replay(row.machine);
    if (r.out.is_null()) continue;
    const auto failing = ids_with(r.out, {"fail"});
    if (row.finding == "healthy") {
      auto alarm = kFalseAlarms.find(row.machine);
      if (alarm == kFalseAlarms.end()) {
        EXPECT_TRUE(failing.empty()) << "false alarm: " << join(failing, ", ");
        EXPECT_EQ(r.exit_code, 0);
      } else {
        EXPECT_EQ(failing, std::vector<std::string>{alarm->second})
            << "the known false alarm changed; if it is gone, take " << row.machine
            << " out of kFalseAlarms";
      }
      continue;
    }
    const bool missed = kMissed.count(row.machine) > 0;
    if (row.finding != "none yet") {
      EXPECT_EQ(has_id(r.out, row.finding), !missed)
          << (missed ? "now named: take it out of kMissed (and kSilent)"
                     : "the established cause " + row.finding + " is not named");
    } else {
      EXPECT_TRUE(missed) << "a `none yet` row belongs in kMissed";
    }
    if (missed) {
      EXPECT_EQ(flagged(r.out), !kSilent.count(row.machine))
          << (kSilent.count(row.machine) ? "no longer all clear: take it out of kSilent"
                                         : "all clear on a broken machine");
    }
  }
}

TEST(Corpus, EvenRowsGetTheirCauseOrAreNotAllClear) { check_rows(0); }

TEST(Corpus, OddRowsGetTheirCauseOrAreNotAllClear) { check_rows(1); }

}  // namespace corpus_test
}  // namespace gpudoctor
