// The arch checks (python.torch_arch and its siblings, python.torch_gfx) on snapshots whose GPU
// code was read from the files, and on snapshots where it was not (a --from report): the rule
// (SASS within a major, PTX upwards), which source was used, and the fix.
#include <gtest/gtest.h>

#include "checks/checks.hpp"
#include "checks/code_targets.hpp"
#include "compat/compat_data.hpp"

namespace gpudoctor {
namespace {

/// The findings with `id` when every check runs on `s`.
std::vector<Finding> checked(const Snapshot& s, const std::string& id) {
  auto devices = merge_devices(s);
  std::vector<Finding> out;
  for (auto& f : run_checks(CheckInput{s, devices, builtin_compat()})) {
    if (f.id == id) out.push_back(std::move(f));
  }
  return out;
}

bool has(const std::optional<std::string>& text, const std::string& part) {
  return text && text->find(part) != std::string::npos;
}
bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// One NVIDIA GPU on PCI (its id in the compute capability table), the driver loaded.
Snapshot machine(std::uint16_t device, const std::string& name, const std::string& driver) {
  Snapshot s;
  s.pci = PciInfo{};
  PciDevice p;
  p.address = "0000:01:00.0";
  p.class_code = 0x030000;
  p.vendor_id = 0x10de;
  p.device_id = device;
  p.device_name = name;
  p.driver = "nvidia";
  s.pci->devices.push_back(p);
  s.nvidia = NvidiaSystem{};
  s.nvidia->kernel.module_version = driver;
  return s;
}

constexpr const char* kSite = "/home/u/venv/lib/python3.11/site-packages";

/// torch `version` (+`local`) in a venv; `sass`/`ptx` as read from libtorch_cuda.so, or no
/// library at all when `read` is false.
PythonPackage torch(const std::string& version, const std::string& local, const std::string& cuda,
                    bool read, std::vector<std::string> sass = {},
                    std::vector<std::string> ptx = {}) {
  PythonPackage p;
  p.name = "torch";
  p.version = version;
  p.location = kSite;
  p.metadata_dir = "torch-" + version + ".dist-info";
  TorchBuildInfo b;
  b.version = version + "+" + local;
  b.local_version = local;
  b.cuda = cuda;
  p.torch = b;
  if (read) {
    GpuCodeLibrary lib;
    lib.path = std::string(kSite) + "/torch/lib/libtorch_cuda.so";
    lib.sass = std::move(sass);
    lib.ptx = std::move(ptx);
    lib.cuda_fatbins = 340;
    p.gpu_code.push_back(lib);
  }
  return p;
}

void add_env(Snapshot& s, PythonPackage pkg) {
  PythonEnv env;
  env.kind = "venv";
  env.prefix = "/home/u/venv";
  env.python_version = "3.11.9";
  env.site_packages = {kSite};
  env.packages.push_back(std::move(pkg));
  s.python = PythonInfo{};
  s.python->envs.push_back(std::move(env));
}

/// The findings of `id` on machine `s` with `pkg` installed in a venv.
std::vector<Finding> findings_of(Snapshot s, PythonPackage pkg,
                                 const std::string& id = "python.torch_arch") {
  add_env(s, std::move(pkg));
  return checked(s, id);
}

TEST(CudaFit, CubinsRunWithinTheirMajorAndPtxRunsUpwards) {
  const ComputeCapability ada{8, 9, ""}, hopper{9, 0, ""}, blackwell{12, 0, ""};
  EXPECT_EQ(cuda_fit(ada, {"sm_80", "sm_86"}, {}).via, "sm_86");
  EXPECT_EQ(cuda_fit(ada, {"sm_80", "sm_86"}, {}).fit, CudaFit::native);
  EXPECT_EQ(cuda_fit(hopper, {"sm_80", "sm_86"}, {}).fit, CudaFit::none);
  EXPECT_EQ(cuda_fit(hopper, {"sm_80"}, {"compute_80"}).fit, CudaFit::ptx_jit);
  EXPECT_EQ(cuda_fit(blackwell, {"sm_90"}, {"compute_90"}).via, "compute_90");
  // "a" targets run only on their own capability; "f" PTX only within its major.
  EXPECT_EQ(cuda_fit(ComputeCapability{10, 3, ""}, {"sm_100a"}, {}).fit, CudaFit::none);
  EXPECT_EQ(cuda_fit(ComputeCapability{10, 3, ""}, {"sm_100f"}, {}).fit, CudaFit::native);
  EXPECT_EQ(cuda_fit(blackwell, {}, {"compute_100f"}).fit, CudaFit::none);
  EXPECT_EQ(cuda_fit(blackwell, {}, {"compute_100"}).fit, CudaFit::ptx_jit);
  // No PTX runs downwards.
  EXPECT_EQ(cuda_fit(ComputeCapability{7, 0, ""}, {"sm_75"}, {"compute_75"}).fit, CudaFit::none);
}

TEST(FrameworkArch, RtxFiftyNinetyWithACu124TorchReadFromTheFileFails) {
  // The list read from the 2.5.1 wheel's libtorch_cuda.so: sm_50 … sm_90 (and sm_90a), no PTX.
  auto fs = findings_of(machine(0x2b85, "GB202 [GeForce RTX 5090]", "570.124.06"),
                        torch("2.5.1", "cu124", "12.4", true,
                   {"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_90a"}));
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].severity, Severity::fail);
  EXPECT_TRUE(has(fs[0].title, "no kernel image is available for execution on the device"));
  EXPECT_TRUE(has(fs[0].title, "read from torch/lib/libtorch_cuda.so"));
  EXPECT_TRUE(has(fs[0].fix, "sm_120")) << *fs[0].fix;
  EXPECT_TRUE(has(fs[0].fix, "--index-url https://download.pytorch.org/whl/cu1")) << *fs[0].fix;
  EXPECT_TRUE(has(fs[0].evidence.front(), "torch/lib/libtorch_cuda.so (read from the file)"));
}

TEST(FrameworkArch, PtxOnlyIsAWarningThatNamesTheJitCost) {
  auto fs = findings_of(machine(0x2b85, "GB202 [GeForce RTX 5090]", "570.124.06"),
                        torch("2.8.0", "cu129", "12.9", true, {"sm_90", "sm_100"}, {"compute_100"}));
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].severity, Severity::warn);
  EXPECT_TRUE(has(fs[0].title, "JIT")) << fs[0].title;
  EXPECT_TRUE(has(fs[0].title, "compute_100"));
}

TEST(FrameworkArch, ALibraryWithFewerArchsThanTheMainOneIsAWarningNamingIt) {
  // torch 2.12.1+cu130 from PyPI, as read: libtorch_cuda.so (448 containers) from sm_75,
  // libtorch_cuda_linalg.so (65) from sm_80. A T4 (7.5) runs the first, not the second.
  PythonPackage p = torch("2.12.1", "cu130", "13.0", true,
                          {"sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"});
  p.gpu_code[0].cuda_fatbins = 448;
  GpuCodeLibrary linalg;
  linalg.path = std::string(kSite) + "/torch/lib/libtorch_cuda_linalg.so";
  linalg.sass = {"sm_80", "sm_86", "sm_90", "sm_100", "sm_120"};
  linalg.cuda_fatbins = 65;
  p.gpu_code.push_back(linalg);
  auto fs = findings_of(machine(0x1eb8, "TU104GL [Tesla T4]", "580.95.05"), p);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].severity, Severity::warn);
  EXPECT_TRUE(has(fs[0].title, "libtorch_cuda_linalg.so")) << fs[0].title;
  EXPECT_TRUE(has(fs[0].title, "the operations that library holds fail")) << fs[0].title;
  // A Pascal GPU runs neither: the main library decides, and it is a failure.
  auto p100 = findings_of(machine(0x15f8, "GP100GL [Tesla P100 PCIe 16GB]", "580.95.05"), p);
  ASSERT_EQ(p100.size(), 1u);
  EXPECT_EQ(p100[0].severity, Severity::fail);
  EXPECT_TRUE(has(p100[0].title, "read from torch/lib/libtorch_cuda.so)")) << p100[0].title;
}

TEST(FrameworkArch, NativeCodeAnywhereInTheMajorIsFine) {
  // An L4 (8.9) runs sm_86 cubins; nothing to say.
  Snapshot s = machine(0x27b8, "AD104GL [L4]", "550.54.15");
  add_env(s, torch("2.5.1", "cu124", "12.4", true, {"sm_80", "sm_86", "sm_90"}));
  EXPECT_TRUE(checked(s, "python.torch_arch").empty());
}

TEST(FrameworkArch, FilesWinOverTheTable) {
  // The table says 2.5 cu124 carries sm_50: a library read without it is what counts.
  auto fs = findings_of(machine(0x1380, "GM107 [GeForce GTX 750 Ti]", "550.54.15"),
                        torch("2.5.1", "cu124", "12.4", true, {"sm_75", "sm_80"}));
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_TRUE(has(fs[0].title, "read from"));
}

TEST(FrameworkArch, WithoutTheLibraryTheBuildTableIsUsedAndCited) {
  // A --from report of an older gpudoctor: version.py only. PyTorch 2.5's cu121 build (the
  // release/2.5 build script) carries sm_50 … sm_90.
  auto fs = findings_of(machine(0x2b85, "GB202 [GeForce RTX 5090]", "590.48.01"),
                        torch("2.5.1", "cu121", "12.1", false));
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].severity, Severity::fail);
  EXPECT_TRUE(has(fs[0].title, "from PyTorch's build table")) << fs[0].title;
  EXPECT_TRUE(has(fs[0].source, "github.com/pytorch/builder")) << *fs[0].source;
  // The same release has no build with sm_120: the newest one that has, on a driver that runs it.
  EXPECT_TRUE(has(fs[0].fix, "--index-url https://download.pytorch.org/whl/cu1")) << *fs[0].fix;
  EXPECT_FALSE(has(fs[0].fix, "needs NVIDIA driver")) << *fs[0].fix;
}

TEST(FrameworkArch, KeplerOnANewCudaBuildIsDerivedFromTheCudaRangeWhenNoTableKnowsIt) {
  // Tesla K80 (3.7) with a torch release newer than every table: CUDA 12.8 cannot build
  // below sm_50, so no torch built with it has code for this GPU.
  auto fs = findings_of(machine(0x102d, "GK210GL [Tesla K80]", "470.256.02"),
                        torch("9.1.0", "cu128", "12.8", false));
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].severity, Severity::fail);
  EXPECT_TRUE(has(fs[0].title, "older than anything CUDA 12.8 compiles for")) << fs[0].title;
}

TEST(FrameworkArch, ANewerReleaseThanTheTablesIsSaidNotSilent) {
  // An H100 (9.0) inside CUDA 12.8's range: nothing certain, and the finding says what was
  // checked instead of the missing table row.
  auto fs = findings_of(machine(0x2330, "GH100 [H100 SXM5 80GB]", "570.124.06"),
                        torch("9.1.0", "cu128", "12.8", false));
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].severity, Severity::info);
  EXPECT_TRUE(has(fs[0].title, "not in gpudoctor's tables")) << fs[0].title;
  EXPECT_TRUE(has(fs[0].title, "CUDA 12.8's range")) << fs[0].title;
}

TEST(FrameworkArch, TensorflowFallsBackToItsBuildInfo) {
  Snapshot s = machine(0x2b85, "GB202 [GeForce RTX 5090]", "570.124.06");
  PythonPackage tf;
  tf.name = "tensorflow";
  tf.version = "2.15.0";
  tf.location = kSite;
  TensorflowBuildInfo b;
  b.file = std::string(kSite) + "/tensorflow/python/platform/build_info.py";
  b.is_cuda_build = true;
  b.cuda_version = "12.2";
  b.cuda_compute_capabilities = {"sm_50", "sm_60", "sm_70", "sm_80", "compute_90"};
  tf.tensorflow = b;
  add_env(s, tf);
  auto fs = checked(s, "python.tensorflow_arch");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].severity, Severity::warn);  // compute_90 PTX JITs for 12.0
  EXPECT_TRUE(has(fs[0].evidence.front(), "build_info.py"));
}

TEST(FrameworkGfx, RocmTorchWithoutTheGpusTargetFailsAndNamesTheOverride) {
  // An RX 6700 XT (gfx1031) and a ROCm torch whose libtorch_hip.so carries gfx1030 but not
  // gfx1031: the override AMD staff name for gfx1031 makes it run as gfx1030.
  Snapshot s;
  s.rocm = RocmInfo{};
  KfdNode n;
  n.node = 1;
  n.gfx_target = "gfx1031";
  s.rocm->nodes.push_back(n);
  PythonPackage p;
  p.name = "torch";
  p.version = "2.5.1";
  p.location = kSite;
  TorchBuildInfo b;
  b.version = "2.5.1+rocm6.2";
  b.local_version = "rocm6.2";
  b.hip = "6.2.41133";
  p.torch = b;
  GpuCodeLibrary lib;
  lib.path = std::string(kSite) + "/torch/lib/libtorch_hip.so";
  lib.amdgpu = {"gfx1030", "gfx1100", "gfx906", "gfx90a:xnack-"};
  lib.offload_bundles = 900;
  lib.compressed_bundles = 0;
  p.gpu_code.push_back(lib);
  add_env(s, p);
  auto gfx = checked(s, "python.torch_gfx");
  ASSERT_EQ(gfx.size(), 1u);
  EXPECT_EQ(gfx[0].severity, Severity::fail);
  EXPECT_TRUE(has(gfx[0].title, "HIP error: invalid device function"));
  EXPECT_TRUE(has(gfx[0].fix, "HSA_OVERRIDE_GFX_VERSION=10.3.0")) << *gfx[0].fix;
  // One cause, one finding: the matrix-based check leaves this torch to the files.
  EXPECT_TRUE(checked(s, "rocm.torch_gfx_unsupported").empty());
  // With the override set, the GPU runs as gfx1030, which the build carries.
  s.rocm->hsa_override_gfx_version = "10.3.0";
  EXPECT_TRUE(checked(s, "python.torch_gfx").empty());
}

}  // namespace
}  // namespace gpudoctor
