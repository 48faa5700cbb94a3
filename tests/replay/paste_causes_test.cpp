// Every pasted fixture through the checks: the finding the cause its thread established implies
// (none on the healthy ones), its quoted lines, the same dumps decorated and truncated as tickets
// decorate and truncate them, and `check --from` as a command.
#include <unistd.h>

#include <cstdio>

#include "paste_support.hpp"

namespace gpudoctor {
namespace {

using namespace paste_test;

// --- every fixture through the checks -------------------------------------------------------

struct Case {
  const char* file;
  std::vector<std::string> expect;  ///< finding ids the thread's cause implies; empty: healthy
  std::string ask = "";             ///< where the paste cannot decide: what it asks for
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"collect_env/pytorch-150733-rtx5090d-sm120.txt", {"python.torch_arch"}},
      {"collect_env/lhotse-793-torch-cu102-driver-9010.txt", {"python.torch_cuda_driver"}},
      {"collect_env/pytorch-43058-torch16-driver-418-v100.txt", {"python.torch_cuda_driver"}},
      {"collect_env/pytorch-122924-windows-cpu-wheel-rtx4080.txt", {"python.torch_cpu_only"}},
      {"collect_env/pytorch-49325-windows-cpu-build-nvcc.txt", {"python.torch_cpu_only"}},
      {"collect_env/pytorch-88639-cuda-unknown-error-suspend.txt", {"cuda.init"}},
      {"collect_env/pytorch-44106-rocm-1.7-sample.txt", {}},
      {"collect_env/pytorch-40682-windows-quoted.txt", {}},
      {"collect_env/pytorch-51858-windows-gtx1050ti-healthy.txt", {}},
      {"collect_env/vllm-18272-a100-cu128-details.txt", {}},
      {"collect_env/groundingdino-328-rocm60-rx6800xt.txt", {}},
      {"vllm/vllm-9293-wsl2-rtx4070-laptop.txt", {}},
      {"vllm/vllm-13497-rtx4090-driver-535.txt", {}},
      {"vllm/vllm-15592-a100x8-driver-525.txt", {}},
      {"vllm/vllm-21310-banner-rhel8.txt", {}},
      {"nvidia-smi/compute-gpu-installation-18-kernel-upgrade.txt", {"nvidia.module_not_loaded"}},
      {"nvidia-smi/shine-cluster-30-mismatch-unattended-upgrade.txt", {"nvidia.driver_library_mismatch"}},
      {"nvidia-smi/open-gpu-kernel-modules-47-mismatch-nvml-version.txt", {"nvidia.driver_library_mismatch"}},
      {"nvidia-smi/ollama-11373-container-nvml-unknown-error.txt", {"nvidia.nvml_unknown_error"}},
      {"nvidia-smi/fooocus-1313-driver-470-cuda-11.4.txt", {"python.torch_cuda_driver"}},
      {"nvidia-smi/nvitop-8-a100-mig-79col.txt", {}},
      {"nvidia-smi/datadog-33120-a100-mig-list.txt", {}},
      {"nvidia-smi-q/nvidia-docker-954-gtx1080.txt", {}},
      {"nvidia-smi-q/nvidia-docker-688-quadro-m1000m-375.txt", {}},
      {"nvidia-smi-q/nvidia-docker-816-tesla-k80-azure.txt", {}},
      {"jax/conda-forge-jaxlib-285-cpu-fallback.txt", {"python.jax_cpu_only"}},
      {"jax/jax-12213-colab-cpu-and-t4.txt", {}},
      {"jax/jax-12213-colab-gpu-t4.txt", {}},
      {"jax/jax-21295-a10g-x8.txt", {}},
      {"tensorflow/tensorflow-62375-windows10-tf214.txt", {"python.tensorflow_windows_gpu"}},
      {"tensorflow/tensorflow-73368-windows11-tf217-wddm.txt", {"python.tensorflow_windows_gpu"}},
      {"tensorflow/tensorflow-60830-windows10-tf212-details.txt", {"python.tensorflow_windows_gpu"}},
      {"rocminfo/legacy-rocm-build-2232-kfd-enomem-pitcairn.txt", {"rocm.kfd_open_failed"}},
      {"rocminfo/legacy-rocm-build-1797-gfx1032-no-binary.txt", {"rocm.gfx_unsupported"}},
      {"rocminfo/pytorch-179865-gfx900-tensile-missing.txt", {"rocm.gfx_unsupported"}},
      {"rocminfo/rocm-docker-116-container-permission-denied.txt", {"rocm.not_in_group"}},
      {"tensorflow/nvidia-tensorflow-110-cusolver-nvjitlink.txt", {"python.tensorflow_cudnn"}},
      {"collect_env/voice-changer-447-gt720-too-old.txt", {"python.torch_arch"}},
      {"collect_env/sd-webui-3003-titan-black-too-old.txt", {"python.torch_arch"}},
      {"rocm-smi/legacy-rocm-build-2767-amdgpu-not-loaded.txt", {"rocm.amdgpu_not_loaded"}},
      {"rocm-smi/roc-smi-86-rocm33-concise.txt", {}},
      {"rocm-smi/tensorflow-upstream-156-rocm18.txt", {}},
      {"rocm-smi/rocm-smi-lib-77-showall-rx5700xt.txt", {}},
      {"ollama/ollama-4099-gfx1103-rocm-docker.txt", {"ollama.gfx_unsupported"}},
      {"ollama/ollama-for-amd-14-gfx1031-windows.txt", {"ollama.gfx_unsupported"}},
      {"ollama/ollama-12071-windows-gfx1103-empty-list.txt", {"ollama.gfx_unsupported"}},
      {"ollama/ollama-8638-cuda-init-999-p104.txt", {"cuda.init"}},
      {"ollama/ollama-10569-windows-rtx2080ti-healthy.txt", {}},
      {"ollama/ollama-9415-journalctl-rtx5090.txt", {}},
      {"system_profiler/imacpro-vega64-cpu_info-17.txt", {}},
      {"system_profiler/m3-smctemp-26.txt", {}},
      {"system_profiler/seed-001-egpu-rx5700xt.txt", {}},
      {"clinfo/kristforge-11-clover-no-devices.txt", {"opencl.no_device"}},
      {"clinfo/deconwolf-75-amd-gfx1031.txt", {}},
      {"clinfo/clinfo-10-nvidia-geforce-310.txt", {}},
      {"clinfo/plaidml-275-amd-app-vega-colons.txt", {}},
      {"vulkaninfo/clvk-537-raspberry-pi-llvmpipe.txt", {"vulkan.software_only"}},
      {"vulkaninfo/vulkan-loader-979-llvmpipe-surfaces.txt", {"vulkan.software_only"}},
      {"vulkaninfo/gpt4all-1557-rtx2060-and-llvmpipe.txt", {}},
      {"vulkaninfo/nixgl-153-amdgpu-pro-rx6600xt.txt", {}},
      {"packages/pixi-4392-conda-forge-pytorch-cuda126.txt", {}},
      {"packages/autogptq-598-ngc-pip-list.txt", {}},
      {"packages/uv-2928-pip-freeze-pytorch-image.txt", {}},
      // torch 2.6.0+cu126's arch list is in the tables (data/compat/pytorch.json, read from the
      // wheel): no sm_120, the thread's "no kernel image" cause.
      {"apps/comfyui-7126-rtx5070ti-torch26-cu126.txt", {"python.torch_arch"}},
      {"apps/substratusai-vllm-docker-37-t4-bfloat16.txt", {"python.vllm_dtype"}},
      {"apps/pascal-pkgs-ci-21-p40-bfloat16.txt", {"python.vllm_dtype"}},
      {"apps/comfyui-catvton-24-xpu-startup.txt", {}},
      {"deviceQuery/tensorflow-990-returned-35.txt", {"cuda.driver_too_old"}},
      {"deviceQuery/jetpack-nixos-328-orin-returned-35.txt", {"cuda.driver_too_old"}},
      {"deviceQuery/rpg-open-remode-9-gtx770-healthy.txt", {}},
      {"kernel/stackhpc-slurm-appliance-287-api-mismatch-journal.txt",
       {"nvidia.driver_library_mismatch"}},
      {"kernel/dalle-playground-104-api-mismatch-dmesg.txt", {"nvidia.driver_library_mismatch"}},
      {"kernel/nvidia-all-394-kwin-client-mismatch.txt", {"nvidia.driver_library_mismatch"}},
      // The firmware and RmInitAdapter lines follow from the mismatch: one cause, one finding.
      {"kernel/bazzite-2668-api-mismatch-gsp-firmware.txt", {"nvidia.driver_library_mismatch"}},
      {"kernel/bigdata-133-probe-not-called-nouveau.txt", {"nvidia.nouveau_bound"}},
      {"kernel/negativo17-nvidia-driver-73-lspci-nouveau.txt", {"nvidia.nouveau_bound"}},
      // The only fixtures of their ids (tests/replay/paste_finding_ids_test.cpp asserts more).
      {"nvidia-smi/open-gpu-kernel-modules-862-rtx5090-no-devices.txt", {"nvidia.no_devices"}},
      {"nvidia-smi/owod-81-gpu-lost.txt", {"nvidia.gpu_lost"}},
      {"ollama/ollama-1992-gtx970-cuda-too-old.txt", {"ollama.gpu_too_old"}},
      {"ollama/ollama-ov-6-container-no-gpu.txt", {"ollama.no_gpu"}},
      {"apps/pia-30-xformers-cu121-torch-cpu.txt", {"python.xformers_torch"}},
      {"apps/vllm-5501-c-abi3-undefined-symbol.txt", {"python.vllm_torch"}},
      {"jax/synthpix-119-cusparse-not-found.txt", {"python.jax_cuda"}},
      {"rocminfo/legacy-rocm-build-1080-rx580-hsa-out-of-resources.txt", {"rocm.device_access"}},
      {"apps/colabtools-5329-found-no-nvidia-driver.txt", {"cuda.no_driver"}},
      {"apps/cudakdtree-18-rtx4090-no-kernel-image.txt", {"cuda.arch_unsupported"}},
      {"collect_env/pytorch-146236-rosetta-m2pro-macos-1016.txt",
       {"macos.rosetta_python", "macos.version_compat"}},
      {"vulkaninfo/nvidia-container-toolkit-1732-cdi-no-libglx-nvidia.txt",
       {"vulkan.manifest_broken"}},
      {"kernel/arc-833-lspci-sandy-bridge-igpu-no-driver.txt", {"gpu.no_driver"}},
      {"clinfo/opencl-amd-fedora-18-libamdocl64-not-on-loader-path.txt", {"opencl.icd_broken"}},
      {"tensorflow/tensorflow-17445-quadro-k2000m-cc30-ignored.txt", {"python.tensorflow_arch"}},
      {"tensorflow/tensorflow-85298-tf28-python313.txt", {"python.framework_python"}},
      {"apps/cupy-1048-gtx1080-nvrtc-cuda80-compute61.txt", {"python.cupy_arch"}},
      // No warning: the script hid the GPUs itself; the note rocm.hip_init is asserted in
      // tests/replay/paste_finding_ids_test.cpp.
      {"rocminfo/rocm-tensorflow-14-hip-no-device-cuda-visible-devices-empty.txt", {}},
  };
  return all;
}

TEST(PasteCauses, EachFixtureGetsTheFindingItsThreadEstablished) {
  for (const auto& c : cases()) {
    SCOPED_TRACE(c.file);
    const auto checked = check_text(paste_fixture(c.file));
    EXPECT_FALSE(checked.reading.parts.empty());
    const auto found = ids(checked.findings, Severity::warn);
    if (!c.ask.empty()) {
      // Undecided from the paste: no verdict, and the output says what to ask for.
      EXPECT_TRUE(found.empty()) << describe(checked.findings);
      const auto asks = what_would_decide(checked.reading, checked.findings);
      EXPECT_TRUE(std::any_of(asks.begin(), asks.end(), [&](const PasteAsk& a) {
        return a.ask.find(c.ask) != std::string::npos;
      }));
      continue;
    }
    if (c.expect.empty()) {
      // Healthy (or a thread whose cause is not the GPU stack): no failure and no warning.
      EXPECT_TRUE(found.empty()) << describe(checked.findings);
      continue;
    }
    for (const auto& id : c.expect) {
      EXPECT_TRUE(found.count(id)) << "want " << id << "\n" << describe(checked.findings);
    }
  }
}

TEST(PasteCauses, EveryFindingQuotesALineOfThePaste) {
  for (const auto& c : cases()) {
    if (c.expect.empty()) continue;
    SCOPED_TRACE(c.file);
    const auto checked = check_text(paste_fixture(c.file));
    for (const auto& f : checked.findings) {
      if (f.severity < Severity::warn) continue;
      EXPECT_FALSE(f.quotes.empty()) << f.id << ": " << f.title;
      for (const auto& q : f.quotes) {
        ASSERT_GE(q.line, 1);
        ASSERT_LE(static_cast<std::size_t>(q.line), checked.reading.lines.size());
      }
    }
  }
}

/// The decorations tickets add: a "> " quote, a leading space, CRLF, a fence around it, a last
/// line cut in half.
std::string decorate(const std::string& text, int how) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  if (how == 3) out += "```text\n";
  while (std::getline(in, line)) {
    switch (how) {
      case 0: out += "> " + line + "\n"; break;
      case 1: out += " " + line + "\n"; break;
      case 2: out += line + "\r\n"; break;
      default: out += line + "\n";
    }
  }
  if (how == 3) out += "```\n";
  return out;
}

TEST(PasteCauses, DecoratedPastesReadTheSame) {
  for (const auto& c : cases()) {
    SCOPED_TRACE(c.file);
    const std::string plain = paste_fixture(c.file);
    const auto want = ids(check_text(plain).findings, Severity::warn);
    for (int how = 0; how < 4; ++how) {
      EXPECT_EQ(ids(check_text(decorate(plain, how)).findings, Severity::warn), want)
          << "decoration " << how;
    }
  }
}

TEST(PasteCauses, ATruncatedPasteNeverInventsAFailure) {
  // Cut every fixture of a healthy machine at each tenth of its length: what remains may say
  // less, never that something failed.
  for (const auto& c : cases()) {
    if (!c.expect.empty() || !c.ask.empty()) continue;
    SCOPED_TRACE(c.file);
    const std::string text = paste_fixture(c.file);
    for (int tenth = 1; tenth < 10; ++tenth) {
      const auto cut = check_text(text.substr(0, text.size() * tenth / 10));
      EXPECT_TRUE(ids(cut.findings, Severity::fail).empty()) << tenth << "/10\n" << describe(cut.findings);
    }
  }
}

// The fix for a GPU the torch build has no kernels for is a build the installed driver runs:
// pytorch#150733's RTX 5090 D on driver 570.124.04 gets a CUDA 12.8 wheel (CUDA 12.8 needs 570.26
// on Linux), not the newest one, whose CUDA needs a driver upgrade first.
TEST(PasteCauses, TheFixForMissingKernelsIsAWheelThisDriverRuns) {
  const auto checked = check_text(paste_fixture("collect_env/pytorch-150733-rtx5090d-sm120.txt"));
  const Finding* arch = nullptr;
  for (const auto& f : checked.findings) {
    if (f.id == "python.torch_arch") arch = &f;
  }
  ASSERT_NE(arch, nullptr) << describe(checked.findings);
  ASSERT_TRUE(arch->fix.has_value());
  EXPECT_NE(arch->fix->find("/whl/cu128"), std::string::npos) << *arch->fix;
  EXPECT_EQ(arch->fix->find("needs NVIDIA driver"), std::string::npos) << *arch->fix;
}

TEST(PasteCauses, AMissingDriverIsAskedFor) {
  const auto checked = check_text("PyTorch version: 2.1.0+cu121\nCUDA used to build PyTorch: 12.1\n");
  const auto asks = what_would_decide(checked.reading, checked.findings);
  ASSERT_FALSE(asks.empty());
  EXPECT_EQ(asks[0].ask, "nvidia-smi");
  EXPECT_TRUE(ids(checked.findings, Severity::warn).empty()) << describe(checked.findings);
}

// --- the command ----------------------------------------------------------------------------

TEST(PasteCli, CheckFromTextQuotesItsLinesAndExitsOne) {
  const std::string file =
      test::fixture_path("pastes") + "/collect_env/lhotse-793-torch-cu102-driver-9010.txt";
  // The id and the quoted lines are -v's; the default shows the cause and the fix.
  auto r = test::run_gpudoctor({"check", "-v", "--from", file, "--color", "never"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("python.torch_cuda_driver"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("line 4: PyTorch version: 1.12.1+cu102"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Read from the paste: "), std::string::npos) << r.out;
  auto j = test::run_gpudoctor({"check", "--json", "--from", file});
  EXPECT_EQ(j.exit_code, 1);
  const Json doc = Json::parse(j.out);
  EXPECT_FALSE(doc["paste"]["parts"].empty());
  bool quoted = false;
  for (const auto& f : doc["findings"]) quoted = quoted || !f["quotes"].empty();
  EXPECT_TRUE(quoted);
}

TEST(PasteCli, HealthyPasteExitsZero) {
  const std::string file = test::fixture_path("pastes") + "/vllm/vllm-13497-rtx4090-driver-535.txt";
  auto r = test::run_gpudoctor({"check", "--from", file, "--color", "never"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(PasteCli, TextNothingReadsIsSaidAndAsksForTheCommandThatWouldDecide) {
  // Never refused (issue 27): one line, what gpudoctor reads, and what to run; no verdict.
  char path[] = "/tmp/gpudoctor-paste-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  std::ofstream(path) << "hello, my GPU is slow\n";
  auto r = test::run_gpudoctor({"check", "--from", path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("was recognised"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nvidia-smi"), std::string::npos) << r.out;
  std::remove(path);
}

}  // namespace
}  // namespace gpudoctor
