// Pastes of round 9 (tests/fixtures/pastes/holdout-9/, in-sample files only) and the machines of
// corpus batch 7 whose causes were written from them: each names its cause, and what is only a
// notice stays a notice.
#include "paste_support.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace paste_round9_test {

using namespace paste_test;
using test::find_finding;

TEST(PasteRound9, FabricManagerOfAnotherVersionIsNamedFromItsCutLine) {
  // https://github.com/dstackai/dstack/issues/2348: journalctl cut the line after "don'".
  const auto c = check_text(paste_fixture("holdout-9/dstack-2348-fabricmanager-version-mismatch-error-802.txt"));
  const Finding* f = find_finding(c.findings, "nvidia.fabricmanager");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->title.find("535.183.01"), std::string::npos) << f->title;
}

TEST(PasteRound9, DockerWithoutItsCdiFeatureIsNamed) {
  // https://github.com/NixOS/nixpkgs/issues/305312: --device nvidia.com/gpu=all on Docker 25.
  const auto c = check_text(paste_fixture("holdout-9/nixpkgs-305312-docker25-cdi-feature-not-enabled.txt"));
  const Finding* f = find_finding(c.findings, "nvidia.container_toolkit");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_NE(f->fix.value_or("").find("\"features\""), std::string::npos) << f->fix.value_or("");
}

TEST(PasteRound9, DkmsWithoutTheKernelsHeadersIsNamed) {
  // https://github.com/zen-kernel/zen-kernel/issues/305.
  const auto c = check_text(paste_fixture("holdout-9/zen-kernel-305-dkms-missing-kernel-headers.txt"));
  const Finding* f = find_finding(c.findings, "gpu.kernel_headers_missing");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_NE(f->fix.value_or("").find("zen"), std::string::npos) << f->fix.value_or("");
}

TEST(PasteRound9, PipWithNoVersionAtAllIsAPythonWithoutWheels) {
  // https://github.com/pytorch/pytorch/issues/112478: the one line, without "No matching
  // distribution found".
  const auto c = check_text(paste_fixture("holdout-9/pytorch-112478-pip-no-torch-wheels-python312.txt"));
  EXPECT_NE(find_finding(c.findings, "python.framework_python"), nullptr) << describe(c.findings);
  // Versions exist, just not the one asked for: not this message.
  const auto other = check_text(
      "ERROR: Could not find a version that satisfies the requirement torch==9.9 (from versions: "
      "2.2.0, 2.2.1)\n");
  EXPECT_EQ(find_finding(other.findings, "python.framework_python"), nullptr)
      << describe(other.findings);
}

TEST(PasteRound9, NcclsSystemErrorNamesSharedMemoryFirst) {
  // https://github.com/NVIDIA/nccl/issues/473: only "unhandled system error" was pasted.
  const auto c = check_text(paste_fixture("holdout-9/nccl-473-docker-shm-unhandled-system-error.txt"));
  const Finding* f = find_finding(c.findings, "nccl.system_error");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_EQ(f->severity, Severity::warn);
  EXPECT_NE(f->fix.value_or("").find("--shm-size"), std::string::npos) << f->fix.value_or("");
}

TEST(PasteRound9, EveryGpuASentenceNamesIsJudgedAgainstTheListedToolkit) {
  // https://github.com/AlexeyAB/darknet/issues/2836: works on the GTX 1050 Ti, fails on the RTX
  // 2070; "- CUDA 9.0.176" in the list of versions. CUDA 9.0 builds up to sm_72.
  const auto c = check_text(paste_fixture("holdout-9/darknet-2836-rtx2070-cuda90-cudnn-execution-failed.txt"));
  const Finding* f = find_finding(c.findings, "cuda.arch_unsupported");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_EQ(f->severity, Severity::warn);
  EXPECT_NE(f->title.find("RTX 2070"), std::string::npos) << f->title;
  EXPECT_EQ(f->title.find("1050"), std::string::npos) << f->title;
  // A bare "CUDA 12.2" (nvidia-smi's header, or torch's build) is not a toolkit.
  const auto bare = check_text("I use an RTX 2070 with CUDA 12.2 and it fails\n");
  EXPECT_EQ(find_finding(bare.findings, "cuda.arch_unsupported"), nullptr) << describe(bare.findings);
}

TEST(PasteRound9, AnUnsignedModulesTaintIsANoteNotAStatedFailure) {
  // https://github.com/staralt/dxgkrnl-dkms/issues/7 (maintainer: "You can ignore it").
  const auto c = check_text(
      "[    2.829492] nvidia: loading out-of-tree module taints kernel.\n"
      "[    2.846803] nvidia: module verification failed: signature and/or required key missing - "
      "tainting kernel\n");
  const Finding* f = find_finding(c.findings, "gpu.module_unsigned");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_EQ(f->severity, Severity::info);
  EXPECT_TRUE(ids(c.findings, Severity::warn).empty()) << describe(c.findings);
}

TEST(PasteRound9, Xid154SaysTheRecoveryTheGpuNeeds) {
  // https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1045: after an Xid 13 (a note)
  // the driver asks for a reset; alone, 154 is what to do.
  const auto c = check_text(
      "NVRM: Xid (PCI:0000:01:00): 13, pid='<unknown>', name=<unknown>, Graphics Exception\n"
      "NVRM: Xid (PCI:0000:01:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU "
      "Reset Required)\n");
  const Finding* f = find_finding(c.findings, "nvidia.xid");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_EQ(f->severity, Severity::warn);
  EXPECT_NE(f->title.find("154"), std::string::npos) << f->title;
}

TEST(CorpusBatch7, SlurmsOwnLogsNameTheNodesGpuProblem) {
  // https://github.com/ComputeCanada/puppet-magic_castle/pull/276 and issues/361: slurmd.log and
  // slurmctld.log on the node, read like its kernel log; the finding is shown under host.
  for (const auto& [tree, id] : std::vector<std::pair<std::string, std::string>>{
           {"corpus-cluster-slurm-mig-enabled-no-instances", "slurm.mig_without_instances"},
           {"corpus-cluster-slurm-mig-4-to-3-gres-count", "slurm.gres_count_lower"}}) {
    const auto found = test::area_findings(test::fixture_path(tree), "host");
    const Json* f = find_finding(found, id);
    ASSERT_NE(f, nullptr) << tree;
    EXPECT_EQ((*f)["severity"], "fail") << tree;
  }
}

TEST(CorpusBatch7, TwoStackedAmdVisibilityListsThatLeaveNoGpuFail) {
  // https://github.com/mcmonkeyprojects/SwarmUI/issues/565: ROCR keeps GPU 1 as HIP's 0, so
  // HIP_VISIBLE_DEVICES=1 asks for a GPU that is not there.
  const std::string tree = test::fixture_path("corpus-rocm-gfx908-gfx1030-rocr-and-hip-visible");
  const auto both = test::area_findings(tree, "rocm",
                                        {"ROCR_VISIBLE_DEVICES=1", "HIP_VISIBLE_DEVICES=1"});
  ASSERT_NE(find_finding(both, "rocm.visible_devices"), nullptr);
  // Either list alone, or a second list counting what the first kept, leaves a GPU.
  for (const auto& env : std::vector<std::vector<std::string>>{
           {"ROCR_VISIBLE_DEVICES=1"}, {"HIP_VISIBLE_DEVICES=1"},
           {"ROCR_VISIBLE_DEVICES=1", "HIP_VISIBLE_DEVICES=0"},
           {"ROCR_VISIBLE_DEVICES=0,1", "HIP_VISIBLE_DEVICES=1"}}) {
    EXPECT_EQ(find_finding(test::area_findings(tree, "rocm", env), "rocm.visible_devices"),
              nullptr)
        << env.front();
  }
  // A ROCR list naming no GPU of the machine (it has two).
  EXPECT_NE(find_finding(test::area_findings(tree, "rocm", {"ROCR_VISIBLE_DEVICES=2"}),
                         "rocm.visible_devices"),
            nullptr);
}

TEST(CorpusBatch7, AnOpenClVendorsVariableThatHidesTheRegisteredDriversFails) {
  // https://github.com/pocl/pocl/issues/645: OCL_ICD_VENDORS=/usr/lib, pocl.icd in
  // /etc/OpenCL/vendors.
  const std::string tree = test::fixture_path("corpus-opencl-ocl-icd-vendors-usr-lib-pocl-arm");
  const auto hidden = test::area_findings(tree, "opencl", {"OCL_ICD_VENDORS=/usr/lib"});
  const Json* f = find_finding(hidden, "opencl.icd_broken");
  ASSERT_NE(f, nullptr);
  EXPECT_NE((*f)["title"].get<std::string>().find("/etc/OpenCL/vendors/pocl.icd"),
            std::string::npos);
  // Unset, the driver is found: no such failure.
  EXPECT_EQ(find_finding(test::area_findings(tree, "opencl"), "opencl.icd_broken"), nullptr);
}

TEST(CorpusBatch7, ACdiSpecWithAnotherBootsDeviceNumberFails) {
  // https://github.com/NVIDIA/nvidia-container-toolkit/issues/1934: major 510 in the spec, 509
  // in /proc/devices.
  const auto found = test::area_findings(
      test::fixture_path("corpus-cdi-spec-uvm-major-510-vs-509"), "nvidia");
  const Json* f = find_finding(found, "nvidia.cdi_spec_stale");
  ASSERT_NE(f, nullptr);
  bool names = false;
  for (const auto& e : (*f)["evidence"]) {
    names = names || e.get<std::string>().find("major 510 in the spec, 509") != std::string::npos;
  }
  EXPECT_TRUE(names) << f->dump();
}

}  // namespace paste_round9_test
}  // namespace gpudoctor
