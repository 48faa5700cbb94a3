// `check --from` with what people paste into tickets: the line cleaning and each format's reader
// on real dumps from public issues (tests/fixtures/pastes/README.md names each one's source).
// paste_causes_test.cpp puts every fixture through the checks.
#include "paste_support.hpp"

namespace gpudoctor {
namespace paste_test {

using namespace paste_test;

// --- cleaning ------------------------------------------------------------------------------

TEST(PasteLines, QuoteMarkersFencesIndentationAndCrlfComeOff) {
  const auto lines = clean_paste("> ```\r\n>  PyTorch version: 2.1.0\r\n>  Is debug build: False\r\n> ```\r\n");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_TRUE(lines[0].fence);
  EXPECT_EQ(lines[1].text, "PyTorch version: 2.1.0");
  EXPECT_EQ(lines[1].number, 2);
  EXPECT_EQ(lines[2].text, "Is debug build: False");
  EXPECT_TRUE(lines[3].fence);
}

TEST(PasteLines, RelativeIndentationStays) {
  const auto lines = clean_paste("    Agent 2\n      Name: gfx1031\n");
  EXPECT_EQ(lines[0].text, "Agent 2");
  EXPECT_EQ(lines[1].text, "  Name: gfx1031");
}

TEST(PasteLines, TokensMatchWholeVersions) {
  EXPECT_TRUE(contains_token("driver 470.82.01 is old", "470.82.01"));
  EXPECT_FALSE(contains_token("driver 470.82.01", "470.82"));
  EXPECT_TRUE(contains_token("needs driver 470.82.", "470.82"));
  EXPECT_FALSE(contains_token("CUDA 12.1.105", "12.1"));
}

// --- readers, one format at a time ----------------------------------------------------------

TEST(PasteReaders, CollectEnvTorch2WithItsSmWarning) {
  const auto r = read_pasted(paste_fixture("collect_env/pytorch-150733-rtx5090d-sm120.txt"));
  EXPECT_TRUE(has_part(r, "collect_env"));
  const Snapshot& s = r.snapshot;
  const PythonPackage* torch = package(s, "torch");
  ASSERT_NE(torch, nullptr);
  ASSERT_TRUE(torch->torch);
  EXPECT_EQ(torch->torch->version, "2.6.0+cu126");
  EXPECT_EQ(torch->torch->cuda, "12.6");
  ASSERT_TRUE(s.nvml);
  EXPECT_EQ(s.nvml->driver_version, "570.124.04");
  ASSERT_EQ(s.nvml->devices.size(), 1u);
  EXPECT_EQ(s.nvml->devices[0].name, "NVIDIA GeForce RTX 5090 D");
  ASSERT_EQ(s.python->envs.size(), 1u);
  EXPECT_EQ(s.python->envs[0].python_version, "3.12.9");
  // "CUDA runtime version: Could not collect": no nvcc, so no toolkit.
  EXPECT_FALSE(s.nvidia && !s.nvidia->toolkits.empty());
  ASSERT_FALSE(s.symptoms.empty());
  EXPECT_EQ(s.symptoms[0].id, "torch.arch_unsupported");
  EXPECT_EQ(s.symptoms[0].values.at("sm"), "120");
  EXPECT_EQ(s.symptoms[0].values.at("supported"), "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90");
}

TEST(PasteReaders, CollectEnvTorch1YesNoQuotedWindows) {
  const auto r = read_pasted(paste_fixture("collect_env/pytorch-40682-windows-quoted.txt"));
  const Snapshot& s = r.snapshot;
  ASSERT_TRUE(s.host);
  EXPECT_EQ(s.host->os_id, "windows");
  ASSERT_TRUE(s.nvml);
  ASSERT_EQ(s.nvml->devices.size(), 2u);
  EXPECT_EQ(s.nvml->devices[1].name, "TITAN RTX");
  EXPECT_EQ(s.nvml->driver_version, "442.92");
  // The nvcc on PATH is a toolkit, not torch's CUDA.
  ASSERT_TRUE(s.nvidia);
  ASSERT_EQ(s.nvidia->toolkits.size(), 1u);
  EXPECT_EQ(s.nvidia->toolkits[0].version, "10.1.243");
  EXPECT_EQ(package(s, "torch")->torch->cuda, "10.1");
  EXPECT_EQ(s.python->envs[0].python_version, "3.7");
}

TEST(PasteReaders, CollectEnvRocmBuildNamesAnAmdGpu) {
  const auto r = read_pasted(paste_fixture("collect_env/pytorch-44106-rocm-1.7-sample.txt"));
  const Snapshot& s = r.snapshot;
  const PythonPackage* torch = package(s, "torch");
  ASSERT_TRUE(torch && torch->torch);
  EXPECT_EQ(torch->torch->hip, "3.7.20315-077bcfa0");
  EXPECT_FALSE(torch->torch->cuda);
  ASSERT_TRUE(s.rocm);
  ASSERT_EQ(s.rocm->nodes.size(), 1u);
  EXPECT_FALSE(s.nvml && !s.nvml->devices.empty());
}

TEST(PasteReaders, CollectEnvTruncatedBeforeTheBuildLineLeavesTheBuildUnknown) {
  const auto r = read_pasted("Collecting environment information...\nPyTorch version: 2.1.0\nIs debug bu");
  const PythonPackage* torch = package(r.snapshot, "torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->version, "2.1.0");
  EXPECT_FALSE(torch->torch) << "a CPU-only verdict needs the \"CUDA used to build\" line";
}

TEST(PasteReaders, VllmBannerLayout) {
  const auto r = read_pasted(paste_fixture("vllm/vllm-21310-banner-rhel8.txt"));
  const PythonPackage* torch = package(r.snapshot, "torch");
  ASSERT_TRUE(torch && torch->torch);
  EXPECT_EQ(torch->torch->version, "2.5.1+cu124");
  EXPECT_EQ(torch->torch->cuda, "12.4");
  EXPECT_EQ(r.snapshot.host->os_id, "rhel");
}

TEST(PasteReaders, VllmOldLayoutWithEightGpus) {
  const auto r = read_pasted(paste_fixture("vllm/vllm-15592-a100x8-driver-525.txt"));
  ASSERT_TRUE(r.snapshot.nvml);
  EXPECT_EQ(r.snapshot.nvml->devices.size(), 8u);
  EXPECT_EQ(r.snapshot.nvml->driver_version, "525.60.13");
}

TEST(PasteReaders, NvidiaSmiTables) {
  {  // 79 columns, two A100s, one in MIG mode; names truncated by nvidia-smi
    const auto r = read_pasted(paste_fixture("nvidia-smi/nvitop-8-a100-mig-79col.txt"));
    const auto& n = *r.snapshot.nvml;
    EXPECT_EQ(n.driver_version, "510.47.03");
    EXPECT_EQ(n.cuda_driver_version, 11060);
    ASSERT_EQ(n.devices.size(), 2u);
    EXPECT_EQ(n.devices[1].pci_bus_id, "00000000:41:00.0");
    EXPECT_EQ(n.devices[0].mig_enabled, false);
    EXPECT_EQ(n.devices[1].mig_enabled, true);
    EXPECT_EQ(n.devices[0].memory_total_bytes, 81920ull * 1024 * 1024);
  }
  {  // 89 columns, Windows "Driver-Model" and WDDM
    const auto r = read_pasted(paste_fixture("tensorflow/tensorflow-73368-windows11-tf217-wddm.txt"));
    const auto& n = *r.snapshot.nvml;
    EXPECT_EQ(n.driver_version, "555.99");
    ASSERT_EQ(n.devices.size(), 1u);
    EXPECT_EQ(r.snapshot.host->os_id, "windows");
  }
}

TEST(PasteReaders, NvidiaSmiOneLineFailures) {
  const auto mismatch = read_pasted(paste_fixture("nvidia-smi/shine-cluster-30-mismatch-unattended-upgrade.txt"));
  EXPECT_EQ(mismatch.snapshot.nvml->init_code, 18);
  const auto no_driver = read_pasted(paste_fixture("nvidia-smi/compute-gpu-installation-18-kernel-upgrade.txt"));
  ASSERT_EQ(no_driver.snapshot.symptoms.size(), 1u);
  EXPECT_EQ(no_driver.snapshot.symptoms[0].id, "nvidia_smi.no_driver");
  EXPECT_EQ(no_driver.snapshot.symptoms[0].line, 3);
}

TEST(PasteReaders, NvidiaSmiQuery) {
  const auto r = read_pasted(paste_fixture("nvidia-smi-q/nvidia-docker-816-tesla-k80-azure.txt"));
  EXPECT_TRUE(has_part(r, "nvidia-smi -q"));
  const auto& n = *r.snapshot.nvml;
  EXPECT_EQ(n.driver_version, "396.37");
  ASSERT_EQ(n.devices.size(), 1u);
  EXPECT_EQ(n.devices[0].name, "Tesla K80");
  EXPECT_EQ(n.devices[0].uuid, "GPU-daade63e-6b82-4c36-32c5-8929377b9e2b");
  EXPECT_EQ(n.devices[0].persistence_mode, false);
}

TEST(PasteReaders, NvidiaSmiList) {
  const auto r = read_pasted(paste_fixture("nvidia-smi/datadog-33120-a100-mig-list.txt"));
  const auto& n = *r.snapshot.nvml;
  ASSERT_EQ(n.devices.size(), 1u);
  EXPECT_EQ(n.devices[0].name, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(n.devices[0].uuid, "GPU-7fdaf0a5-179b-f636-d15d-daf243e3ff16");
}

TEST(PasteReaders, JaxEnvironmentInfo) {
  const auto r = read_pasted(paste_fixture("jax/conda-forge-jaxlib-285-cpu-fallback.txt"));
  EXPECT_TRUE(has_part(r, "jax.print_environment_info"));
  ASSERT_NE(package(r.snapshot, "jaxlib"), nullptr);
  EXPECT_EQ(package(r.snapshot, "jaxlib")->version, "0.4.32");
  EXPECT_EQ(r.snapshot.host->kernel_release, "6.11.0-8-generic");
  EXPECT_EQ(r.snapshot.nvml->driver_version, "560.35.03");
}

TEST(PasteReaders, TensorflowIssueForm) {
  const auto r = read_pasted(paste_fixture("tensorflow/tensorflow-62375-windows10-tf214.txt"));
  const PythonPackage* tf = package(r.snapshot, "tensorflow");
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->version, "2.14");
  EXPECT_EQ(r.snapshot.host->os_id, "windows");
  EXPECT_EQ(r.snapshot.python->envs[0].python_version, "3.11.1");
  ASSERT_TRUE(r.snapshot.nvml);
  EXPECT_EQ(r.snapshot.nvml->devices[0].name, "nvidia GTX 1060");
}

TEST(PasteReaders, TfEnvCollectSections) {
  // The script's own lines, as tools/tf_env_collect.sh prints them (its section headers and the
  // tensorflow import block), around a pip listing.
  const auto r = read_pasted(
      "== check python ===================================================\n"
      "python version: 3.6.9\n"
      "\n"
      "== check pips ===================================================\n"
      "numpy                1.18.1\n"
      "tensorflow-gpu       2.1.0\n"
      "\n"
      "== tensorflow import ============================================\n"
      "tf.version.VERSION = 2.1.0\n"
      "tf.version.GIT_VERSION = v2.1.0-rc2-17-ge5bf8de\n");
  EXPECT_TRUE(has_part(r, "tensorflow"));
  ASSERT_NE(package(r.snapshot, "tensorflow-gpu"), nullptr);
  EXPECT_EQ(package(r.snapshot, "tensorflow-gpu")->version, "2.1.0");
  EXPECT_EQ(package(r.snapshot, "tensorflow")->version, "2.1.0");
  EXPECT_EQ(r.snapshot.python->envs[0].python_version, "3.6.9");
  EXPECT_TRUE(r.unrecognised.empty());
}

TEST(PasteReaders, RocminfoAgentsAndErrors) {
  const auto agent = read_pasted(paste_fixture("ollama/ollama-4099-gfx1103-rocm-docker.txt"));
  ASSERT_TRUE(agent.snapshot.rocm);
  ASSERT_FALSE(agent.snapshot.rocm->nodes.empty());
  EXPECT_EQ(agent.snapshot.rocm->nodes[0].gfx_target, "gfx1103");
  const auto enomem = read_pasted(paste_fixture("rocminfo/legacy-rocm-build-2232-kfd-enomem-pitcairn.txt"));
  std::set<std::string> seen;
  for (const auto& s : enomem.snapshot.symptoms) seen.insert(s.id);
  EXPECT_TRUE(seen.count("rocm.kfd_open_failed"));
  EXPECT_FALSE(seen.count("rocm.kfd_permission")) << "the user is in the render group";
}

TEST(PasteReaders, RocmSmiTablesAndShowAll) {
  const auto concise = read_pasted(paste_fixture("rocm-smi/roc-smi-86-rocm33-concise.txt"));
  EXPECT_TRUE(has_part(concise, "rocm-smi"));
  ASSERT_TRUE(concise.snapshot.rocm);
  EXPECT_EQ(concise.snapshot.rocm->nodes.size(), 1u);
  const auto all = read_pasted(paste_fixture("rocm-smi/rocm-smi-lib-77-showall-rx5700xt.txt"));
  ASSERT_TRUE(all.snapshot.rocm);
  EXPECT_EQ(all.snapshot.rocm->nodes[0].device_id, 0x731fu);
}

TEST(PasteReaders, SystemProfilerText) {
  const auto r = read_pasted(paste_fixture("system_profiler/seed-001-egpu-rx5700xt.txt"));
  ASSERT_TRUE(r.snapshot.macos);
  ASSERT_EQ(r.snapshot.macos->gpus.size(), 1u);
  EXPECT_EQ(r.snapshot.macos->gpus[0].pcie_lane_width, 4);
  EXPECT_TRUE(r.unrecognised.empty());
}

TEST(PasteReaders, ClinfoFullShortAndAmdForms) {
  const auto nv = read_pasted(paste_fixture("clinfo/clinfo-10-nvidia-geforce-310.txt"));
  ASSERT_TRUE(nv.snapshot.opencl);
  ASSERT_EQ(nv.snapshot.opencl->platforms.size(), 1u);
  ASSERT_EQ(nv.snapshot.opencl->platforms[0].devices.size(), 1u);
  EXPECT_EQ(nv.snapshot.opencl->platforms[0].devices[0].name, "GeForce 310");
  EXPECT_EQ(nv.snapshot.opencl->platforms[0].devices[0].vendor_id, 0x10deu);
  const auto amd = read_pasted(paste_fixture("clinfo/plaidml-275-amd-app-vega-colons.txt"));
  ASSERT_TRUE(amd.snapshot.opencl);
  ASSERT_EQ(amd.snapshot.opencl->platforms.size(), 1u);
  ASSERT_EQ(amd.snapshot.opencl->platforms[0].devices.size(), 1u);
  EXPECT_EQ(amd.snapshot.opencl->platforms[0].devices[0].name, "Radeon RX Vega");
  EXPECT_EQ(amd.snapshot.opencl->platforms[0].devices[0].type, "GPU");
  const auto list = read_pasted("Platform #0: NVIDIA CUDA\n `-- Device #0: NVIDIA GeForce RTX 3090\n");
  ASSERT_TRUE(list.snapshot.opencl);
  EXPECT_EQ(list.snapshot.opencl->platforms[0].devices[0].name, "NVIDIA GeForce RTX 3090");
}

TEST(PasteReaders, VulkaninfoSummary) {
  const auto r = read_pasted(paste_fixture("vulkaninfo/gpt4all-1557-rtx2060-and-llvmpipe.txt"));
  ASSERT_TRUE(r.snapshot.vulkan);
  ASSERT_EQ(r.snapshot.vulkan->devices.size(), 2u);
  EXPECT_EQ(r.snapshot.vulkan->devices[0].name, "NVIDIA GeForce RTX 2060");
  EXPECT_EQ(r.snapshot.vulkan->devices[0].type, "discrete_gpu");
  EXPECT_EQ(r.snapshot.vulkan->devices[1].type, "cpu");
}

TEST(PasteReaders, OllamaLogsPlainAndJournal) {
  const auto healthy = read_pasted(paste_fixture("ollama/ollama-10569-windows-rtx2080ti-healthy.txt"));
  ASSERT_TRUE(healthy.snapshot.ollama);
  ASSERT_EQ(healthy.snapshot.ollama->devices.size(), 1u);
  EXPECT_EQ(healthy.snapshot.ollama->devices[0].compute, "7.5");
  EXPECT_EQ(healthy.snapshot.nvml->devices[0].cc_major, 7);
  const auto amd = read_pasted(paste_fixture("ollama/ollama-for-amd-14-gfx1031-windows.txt"));
  EXPECT_EQ(amd.snapshot.ollama->version, "0.3.4");
  EXPECT_EQ(amd.snapshot.ollama->supported_gfx, std::vector<std::string>{"gfx1103"});
  EXPECT_EQ(amd.snapshot.ollama->runners.size(), 4u);
  const auto journal = read_pasted(paste_fixture("ollama/ollama-9415-journalctl-rtx5090.txt"));
  EXPECT_TRUE(has_part(journal, "ollama log"));
}

TEST(PasteReaders, PackageLists) {
  const auto conda = read_pasted(paste_fixture("packages/pixi-4392-conda-forge-pytorch-cuda126.txt"));
  const PythonPackage* torch = package(conda.snapshot, "torch");
  ASSERT_TRUE(torch && torch->torch);
  EXPECT_EQ(torch->torch->cuda, "12.6");
  const auto pip = read_pasted(paste_fixture("packages/autogptq-598-ngc-pip-list.txt"));
  EXPECT_NE(package(pip.snapshot, "cupy-cuda118"), nullptr);
  const auto freeze = read_pasted(paste_fixture("packages/uv-2928-pip-freeze-pytorch-image.txt"));
  EXPECT_EQ(package(freeze.snapshot, "bitsandbytes")->version, "0.41.0");
  const auto wheel = read_pasted("torch==2.1.0+cu121\nnvidia-cudnn-cu12==8.9.2.26\n");
  ASSERT_TRUE(package(wheel.snapshot, "torch")->torch);
  EXPECT_EQ(package(wheel.snapshot, "torch")->torch->cuda, "12.1");
  EXPECT_EQ(package(wheel.snapshot, "nvidia-cudnn-cu12")->cuda_series, "12");
}

TEST(PasteReaders, SeveralDumpsInOnePasteAreEachRecognised) {
  const std::string both = paste_fixture("collect_env/pytorch-43058-torch16-driver-418-v100.txt");
  const auto r = read_pasted(both);
  EXPECT_TRUE(has_part(r, "collect_env"));
  EXPECT_TRUE(has_part(r, "nvidia-smi"));
  EXPECT_FALSE(r.unrecognised.empty()) << "the person's own sentences are not a dump";
}

TEST(PasteReaders, DeviceQueryDevicesAndItsFailure) {
  const auto ok = read_pasted(paste_fixture("deviceQuery/rpg-open-remode-9-gtx770-healthy.txt"));
  ASSERT_TRUE(ok.snapshot.cuda);
  EXPECT_EQ(ok.snapshot.cuda->driver_version, 7000);
  ASSERT_EQ(ok.snapshot.cuda->devices.size(), 1u);
  const CudaDevice& d = ok.snapshot.cuda->devices[0];
  EXPECT_EQ(d.name, "GeForce GTX 770");
  EXPECT_EQ(d.cc_major, 3);
  EXPECT_EQ(d.cc_minor, 0);
  EXPECT_EQ(d.multiprocessors, 8);
  EXPECT_EQ(d.cores_per_multiprocessor, 192);
  EXPECT_EQ(d.total_memory_bytes, 2146762752u);
  EXPECT_TRUE(ok.unrecognised.empty());
  // A runtime error that means what cuInit's does becomes cuInit's (cuda.h and driver_types.h
  // number them alike); 35 has no driver-API twin and stays a symptom.
  const auto none = read_pasted(
      "cudaGetDeviceCount returned 100\n-> no CUDA-capable device is detected\nResult = FAIL\n");
  ASSERT_TRUE(none.snapshot.cuda && none.snapshot.cuda->init_error);
  EXPECT_EQ(none.snapshot.cuda->init_error->code, 100);
  const auto old = read_pasted(paste_fixture("deviceQuery/tensorflow-990-returned-35.txt"));
  ASSERT_FALSE(old.snapshot.symptoms.empty());
  EXPECT_EQ(old.snapshot.symptoms[0].id, "cuda.insufficient_driver");
  EXPECT_FALSE(old.snapshot.cuda && old.snapshot.cuda->init_error);
}

TEST(PasteReaders, NvrmMessagesJoinedOverTheirLines) {
  for (const char* file : {"kernel/stackhpc-slurm-appliance-287-api-mismatch-journal.txt",
                           "kernel/nvidia-all-394-kwin-client-mismatch.txt"}) {
    SCOPED_TRACE(file);
    const auto r = read_pasted(paste_fixture(file));
    ASSERT_TRUE(r.snapshot.nvidia);
    ASSERT_TRUE(r.snapshot.nvidia->kernel.module_version);
    ASSERT_EQ(r.snapshot.nvidia->libnvidia_ml.size(), 1u);
  }
  const auto j = read_pasted(
      paste_fixture("kernel/stackhpc-slurm-appliance-287-api-mismatch-journal.txt"));
  EXPECT_EQ(j.snapshot.nvidia->kernel.module_version, "530.30.02");
  EXPECT_EQ(j.snapshot.nvidia->libnvidia_ml[0].version, "535.54.03");
  const auto k = read_pasted(paste_fixture("kernel/nvidia-all-394-kwin-client-mismatch.txt"));
  EXPECT_EQ(k.snapshot.nvidia->kernel.module_version, "595.80");
  EXPECT_EQ(k.snapshot.nvidia->libnvidia_ml[0].version, "595.84");
}

// The module's and modprobe's own wordings (open-gpu-kernel-modules kernel-open/nvidia/nv.c,
// kmod's modprobe, the kernel's lockdown message).
TEST(PasteReaders, KernelMessagesBecomeSymptoms) {
  auto ids_of = [](const std::string& text) {
    std::vector<std::string> out;
    for (const auto& s : read_pasted(text).snapshot.symptoms) out.push_back(s.id);
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(ids_of("[ 4.2] NVRM: GPU at PCI:0000:01:00: GPU-1234\n"
                   "[ 9.1] NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.\n"),
            V{"nvidia_smi.gpu_lost"});
  EXPECT_EQ(ids_of("[ 5.0] NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:1380)\n"
                   "NVRM: installed in this system is not supported by the\n"
                   "NVRM: NVIDIA 545.29.06 driver release.\n"),
            V{"nvrm.gpu_unsupported"});
  EXPECT_EQ(ids_of("[ 3.1] Lockdown: modprobe: unsigned module loading is restricted; see man "
                   "kernel_lockdown.7\n"),
            V{"kernel.module_signature_refused"});
  EXPECT_EQ(ids_of("modprobe: ERROR: could not insert 'nvidia': Key was rejected by service\n"),
            V{"kernel.module_signature_refused"});
  EXPECT_EQ(ids_of("modprobe: FATAL: Module nvidia not found in directory "
                   "/lib/modules/6.8.0-45-generic\n"),
            V{"kernel.nvidia_module_missing"});
}

// journalctl (and dmesg -T) write their prefix on every line of one message, the time of each
// a few microseconds apart: the lines still make one message. The lines' shape is journalctl's
// short-iso output as a user posted it on Ubuntu's forum (a GTX 1070 after a 24.04 upgrade); the
// message after the prefix is the driver's own (nv.c). A line under one that ended (")") is a
// message of its own.
TEST(PasteReaders, KernelMessageLinesEachWithTheirOwnPrefixAreOneMessage) {
  const auto r = read_pasted(
      "2024-06-02T12:28:05.866240-04:00 demon kernel: NVRM: API mismatch: the client has the version 535.154.05, but\n"
      "2024-06-02T12:28:05.866249-04:00 demon kernel: NVRM: this kernel module has the version 550.78.  Please\n"
      "2024-06-02T12:28:05.866250-04:00 demon kernel: NVRM: make sure that this kernel module and all NVIDIA driver\n"
      "2024-06-02T12:28:05.866251-04:00 demon kernel: NVRM: components have the same version.\n");
  ASSERT_TRUE(r.snapshot.nvidia);
  EXPECT_EQ(r.snapshot.nvidia->kernel.module_version, "550.78");
  ASSERT_FALSE(r.snapshot.nvidia->libnvidia_ml.empty());
  EXPECT_EQ(r.snapshot.nvidia->libnvidia_ml[0].version, "535.154.05");
  std::vector<std::string> ids;
  for (const auto& s : read_pasted("[ 9.1] NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:667)\n"
                                   "[ 9.1] NVRM: GPU 0000:01:00.0: rm_init_adapter failed, device minor number 0\n")
                           .snapshot.symptoms) {
    ids.push_back(s.id);
  }
  EXPECT_EQ(ids, std::vector<std::string>{"nvrm.init_adapter_failed"});
}

TEST(PasteReaders, LspciBlocksOnlyWhenTheyNameTheDriver) {
  const auto r = read_pasted(paste_fixture("kernel/negativo17-nvidia-driver-73-lspci-nouveau.txt"));
  ASSERT_TRUE(r.snapshot.pci);
  ASSERT_EQ(r.snapshot.pci->devices.size(), 1u);
  const PciDevice& d = r.snapshot.pci->devices[0];
  EXPECT_EQ(d.address, "0000:01:00.0");
  EXPECT_EQ(d.vendor_id, 0x10de);
  EXPECT_EQ(d.device_id, 0x13c2);  // GM204 [GeForce GTX 970], by its name in pci.ids
  EXPECT_EQ(d.driver, "nouveau");
  EXPECT_EQ(d.modules, (std::vector<std::string>{"nouveau", "nvidia_drm", "nvidia"}));
  // Without -k or -v lspci does not say which driver is bound: no PCI facts from it.
  const auto plain = read_pasted(
      "0000:5a:00.0 3D controller: NVIDIA Corporation Device 1db6 (rev a1)\n");
  EXPECT_FALSE(plain.snapshot.pci);
  const auto nn = read_pasted(
      "01:00.0 VGA compatible controller [0300]: NVIDIA Corporation Device [10de:13c2] (rev a1)\n"
      "\tKernel driver in use: nvidia\n");
  ASSERT_TRUE(nn.snapshot.pci);
  EXPECT_EQ(nn.snapshot.pci->devices[0].device_id, 0x13c2);
  EXPECT_EQ(nn.snapshot.pci->devices[0].driver, "nvidia");
}

TEST(PasteReaders, NothingRecognisedIsNoPart) {
  EXPECT_TRUE(read_pasted("my GPU does not work, please help\n").parts.empty());
  EXPECT_TRUE(read_pasted("").parts.empty());
}

}  // namespace paste_test
}  // namespace gpudoctor
