// Pastes of round 11 (tests/fixtures/pastes/holdout-11/, in-sample files only) and the machines
// of corpus batch 9 whose causes were written from them: each names its cause, and what only
// looks like it (a paging file, not a missing DLL) gets its own.
#include "paste_support.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace paste_round11_test {

using namespace paste_test;
using test::find_finding;

TEST(PasteRound11, MessagesNameTheirCauses) {
  struct Row {
    std::string file, id;
  };
  for (const auto& row : std::vector<Row>{
           // LaurentMazare/tch-rs#201: the CPU libtorch tch downloads.
           {"holdout-11/tch-rs-201-aten-cuda-missing-cpu-libtorch-downloaded.txt", "python.torch_cpu_only"},
           // PaddlePaddle/PaddleDetection#3766: cudnn64_7.dll, error 126.
           {"holdout-11/paddledetection-3766-cudnn64-7-dll-error-126-windows.txt", "cudnn.load_failed"},
           // xinzhuma/monodle#23: numba finds no nvvm.dll.
           {"holdout-11/monodle-23-numba-nvvm-dll-not-found-no-cuda-toolkit-windows.txt", "python.numba_nvvm"},
           // oatsu-gh/enunu_training_kit#8: WinError 1455 while loading cuDNN's DLL.
           {"holdout-11/enunu-training-kit-8-winerror-1455-paging-file-too-small-cudnn-dll.txt", "python.windows_pagefile"}}) {
    const auto c = check_text(paste_fixture(row.file));
    const Finding* f = find_finding(c.findings, row.id);
    ASSERT_NE(f, nullptr) << row.file << "\n" << describe(c.findings);
    EXPECT_EQ(f->severity, Severity::fail) << row.file;
  }
}

TEST(PasteRound11, APagingFileTooSmallIsNotAMissingDll) {
  const auto c = check_text(paste_fixture(
      "holdout-11/enunu-training-kit-8-winerror-1455-paging-file-too-small-cudnn-dll.txt"));
  EXPECT_EQ(find_finding(c.findings, "python.torch_windows_dll"), nullptr) << describe(c.findings);
  // WinError 126 on the same words is still the missing DLL.
  const auto dll = check_text(
      "OSError: [WinError 126] The specified module could not be found. Error loading "
      "\"C:\\Python311\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its dependencies.\n");
  EXPECT_NE(find_finding(dll.findings, "python.torch_windows_dll"), nullptr) << describe(dll.findings);
}

TEST(PasteRound11, KubectlNodeWithFewerAllocatableGpusThanRegistered) {
  // NVIDIA/k8s-device-plugin#234: Capacity 8, Allocatable 6 until the plugin's pod was deleted.
  const auto c = check_text(paste_fixture(
      "holdout-11/k8s-device-plugin-234-allocatable-6-of-8-gpus-unhealthy-until-plugin-restart.txt"));
  const Finding* f = find_finding(c.findings, "k8s.gpus_unhealthy");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_EQ(f->severity, Severity::warn);
  EXPECT_NE(f->title.find("registered 8 nvidia.com/gpu but only 6"), std::string::npos) << f->title;
  // All of them allocatable: nothing to say.
  const auto healthy = check_text(
      "Capacity:\n  cpu:                104\n  nvidia.com/gpu:     8\n  pods:               110\n"
      "Allocatable:\n  cpu:                104\n  nvidia.com/gpu:     8\n  pods:               110\n");
  EXPECT_EQ(find_finding(healthy.findings, "k8s.gpus_unhealthy"), nullptr) << describe(healthy.findings);
  // The same in `kubectl get node -o yaml` (NVIDIA/k8s-device-plugin#58: 0 of 16 allocatable).
  const auto yaml = check_text(
      "  status:\n      allocatable:\n        cpu: \"48\"\n        memory: 263412492Ki\n"
      "        nvidia.com/gpu: \"0\"\n        pods: \"110\"\n      capacity:\n        cpu: \"48\"\n"
      "        memory: 263514892Ki\n        nvidia.com/gpu: \"16\"\n        pods: \"110\"\n");
  const Finding* y = find_finding(yaml.findings, "k8s.gpus_unhealthy");
  ASSERT_NE(y, nullptr) << describe(yaml.findings);
  EXPECT_NE(y->title.find("registered 16 nvidia.com/gpu but only 0"), std::string::npos) << y->title;
}

TEST(CorpusBatch9, MachinesNameTheirCauses) {
  struct Row {
    std::string tree, area, id, severity, says;
    std::vector<std::string> env = {};  // as the first line of the tree's replay.txt
  };
  for (const auto& row : std::vector<Row>{
           // Row 317: ComfyUI through Stability Matrix, a CUDA torch on an RX 7900 XT.
           {"corpus-comfyui-rx7900xt-cuda-torch-wheel", "python", "python.torch_gpu_vendor", "fail", "ROCm build",
            {"HOME=/home/dev", "VIRTUAL_ENV=/home/dev/stabilitymatrix/Packages/ComfyUI/venv"}},
           // VIAME/VIAME#273 (row 307): cuda-compat first, an older libcuda than the injected driver.
           {"corpus-cloud-vertex-cuda-compat-first-ld-path", "nvidia", "nvidia.driver_library_mismatch", "fail", "forward-compatibility"},
           // Row 296: ConnectX-7 NICs beside A40s, nvidia_peermem not loaded.
           {"corpus-cluster-a40-cx7-nvidia-peermem-not-loaded", "nvidia", "nvidia.peermem_not_loaded", "warn", "GPUDirect RDMA is off"},
           // opencv/opencv#27111 (row 301): CUDA 12.8's math_functions.h under glibc 2.41.
           {"corpus-nvcc-cuda128-glibc241-cospi", "cuda", "cuda.glibc_math_headers", "warn", "cospi"},
           // Row 313: ROCm 4.1's rocminfo in an image without kmod.
           {"corpus-rocm-container-no-kmod-rocminfo", "rocm", "rocm.rocminfo_lsmod", "warn", "kmod"},
           // Row 302: RKE2 regenerates the config.toml the toolkit edited.
           {"corpus-k8s-rke2-toolkit-config-toml-not-tmpl", "nvidia", "nvidia.container_toolkit", "fail", "config.toml.tmpl"},
           // stepfun-ai/Step-Audio-EditX#3 (row 262): PyPI's onnxruntime-gpu 1.17 links CUDA 11.
           {"corpus-onnxruntime-gpu-117-cublaslt11-missing", "python", "python.onnxruntime_cuda", "warn", "CUDA 11 build"},
           // ollama/ollama#3547: gfx1031 with no ROCm installed yet.
           {"corpus-ollama-rx6700-gfx1031", "rocm", "rocm.gfx_unsupported", "info", "gfx1031"}}) {
    const auto found = test::area_findings(test::fixture_path(row.tree), row.area, row.env);
    const Json* f = find_finding(found, row.id);
    ASSERT_NE(f, nullptr) << row.tree;
    EXPECT_EQ((*f)["severity"], row.severity) << row.tree;
    const std::string title = (*f)["title"].get<std::string>();
    const std::string fix = (*f)["fix"].is_string() ? (*f)["fix"].get<std::string>() : "";
    EXPECT_TRUE(title.find(row.says) != std::string::npos || fix.find(row.says) != std::string::npos)
        << row.tree << ": " << title << " / " << fix;
  }
}

}  // namespace paste_round11_test
}  // namespace gpudoctor
