// The checks as pure functions over snapshots. The values are those of the real reports named
// in each test; the full machines replay through --sysroot in the scenario tests.
#include <gtest/gtest.h>

#include <algorithm>

#include "checks/checks.hpp"
#include "test_support.hpp"
#include "compat/compat_data.hpp"

namespace gpudoctor {
namespace {

std::vector<Finding> run(const Snapshot& s) {
  auto devices = merge_devices(s);
  return run_checks(CheckInput{s, devices, builtin_compat()});
}

PciDevice nvidia_gpu(std::uint16_t device, std::string name, std::optional<std::string> driver) {
  PciDevice p;
  p.address = "0000:01:00.0";
  p.class_code = 0x030000;
  p.vendor_id = 0x10de;
  p.device_id = device;
  p.device_name = std::move(name);
  p.driver = std::move(driver);
  return p;
}

Snapshot machine_with(PciDevice gpu, std::optional<std::string> module_version) {
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(std::move(gpu));
  s.nvidia = NvidiaSystem{};
  s.nvidia->kernel.module_version = std::move(module_version);
  if (s.nvidia->kernel.module_version) {
    s.nvidia->kernel.loaded_modules = {"nvidia", "nvidia_uvm"};
    for (const char* n : {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia0"}) {
      s.nvidia->kernel.device_nodes.push_back(DeviceNode{n, "crw-rw-rw-"});
    }
  }
  return s;
}

CudaToolkit toolkit(std::string path, std::string version) {
  CudaToolkit t;
  t.path = std::move(path);
  t.source = "/usr/local";
  t.version = std::move(version);
  return t;
}

TEST(Checks, EveryFindingIdIsExplainable) {
  for (const auto& c : all_checks()) {
    EXPECT_EQ(find_check(c.id), &c);
    EXPECT_FALSE(c.looks_at.empty());
    EXPECT_FALSE(c.why.empty());
    if (!c.source.empty()) {
      EXPECT_EQ(c.source.substr(0, 8), "https://") << c.id;
    }
  }
  EXPECT_NE(find_check("nvidia.container_without_gpu"), nullptr);
  EXPECT_EQ(find_check("nvidia"), nullptr);
}

TEST(Checks, Gtx750TiUnderCuda13HasNoKernelImage) {
  // The example: sm_50 (GTX 750 Ti, PCI 10de:1380) with a CUDA 13.0 toolkit.
  Snapshot s = machine_with(nvidia_gpu(0x1380, "GM107 [GeForce GTX 750 Ti]", "nvidia"),
                            "580.65.06");
  s.nvidia->toolkits.push_back(toolkit("/usr/local/cuda-13.0", "13.0.88"));
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "cuda.arch_unsupported");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->title.find("5.0"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("sm_75"), std::string::npos) << f->title;  // CUDA 13's oldest target
  EXPECT_EQ(test::find_finding(fs, "cuda.driver_too_old"), nullptr);  // 580 is new enough for 13.0
}

TEST(Checks, CudnnBuildThatDoesNotSupportTheGpu) {
  // cuDNN 9.17 lists compute capability 7.5 and up (Maxwell, Pascal and Volta no longer listed,
  // data/compat/cudnn.json): a V100 (7.0) is left out, while
  // an RTX 3090 (8.6) on the same machine is fine.
  Snapshot s = machine_with(nvidia_gpu(0x1db4, "GV100GL [Tesla V100 PCIe 16GB]", "nvidia"),
                            "580.65.06");
  CudaToolkit t = toolkit("/usr/local/cuda-13.0", "13.0.88");
  t.cudnn_version = "9.17.0";
  s.nvidia->toolkits.push_back(t);
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "cudnn.gpu_unsupported");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->title.find("7.0"), std::string::npos) << f->title;
  ASSERT_TRUE(f->fix);
  // Its cuda12 build lists 7.5 and up too: no build of this release will do.
  EXPECT_NE(f->fix->find("lists compute capability 7.0"), std::string::npos) << *f->fix;
  Snapshot fine = machine_with(nvidia_gpu(0x2204, "GA102 [GeForce RTX 3090]", "nvidia"),
                               "580.65.06");
  fine.nvidia->toolkits.push_back(t);
  EXPECT_EQ(test::find_finding(run(fine), "cudnn.gpu_unsupported"), nullptr);
}

TEST(Checks, DriverTooOldForToolkitNamesBothWaysOut) {
  // A 470-branch driver (supports up to CUDA 11.4) with a CUDA 12.4 toolkit.
  Snapshot s = machine_with(nvidia_gpu(0x2204, "GA102 [GeForce RTX 3090]", "nvidia"),
                            "470.256.02");
  s.nvidia->toolkits.push_back(toolkit("/usr/local/cuda-12.4", "12.4.1"));
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "cuda.driver_too_old");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);  // below 12.x's minor-compat minimum too
  ASSERT_TRUE(f->fix);
  EXPECT_NE(f->fix->find("525.60.13"), std::string::npos) << *f->fix;  // 12.x minor compat
  EXPECT_NE(f->fix->find("CUDA 11.4"), std::string::npos) << *f->fix;
  ASSERT_TRUE(f->source);
  EXPECT_EQ(f->source->substr(0, 8), "https://");
}

TEST(Checks, MinorVersionCompatibilityIsAWarningNotAFailure) {
  // CUDA 11.8 needs 520.61.05 by the release notes; 11.x runs on ≥ 450.80.02 with limits.
  Snapshot s = machine_with(nvidia_gpu(0x20b0, "GA100 [A100 SXM4 40GB]", "nvidia"),
                            "470.256.02");
  s.nvidia->toolkits.push_back(toolkit("/usr/local/cuda-11.8", "11.8.0"));
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "cuda.driver_too_old");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::warn);
  EXPECT_NE(f->fix->find("520.61.05"), std::string::npos) << *f->fix;
  // A 535 driver with CUDA 12.4: same major family, nothing to say.
  Snapshot fine = machine_with(nvidia_gpu(0x2330, "GH100 [H100 SXM5 80GB]", "nvidia"),
                               "535.104.05");
  fine.nvidia->toolkits.push_back(toolkit("/usr/local/cuda-12.4", "12.4.1"));
  EXPECT_EQ(test::find_finding(run(fine), "cuda.driver_too_old"), nullptr);
  EXPECT_NE(f->title.find("minor version compatibility"), std::string::npos);
}

TEST(Checks, NouveauBoundIsAFailureWithTheBlacklistFix) {
  Snapshot s = machine_with(nvidia_gpu(0x1b80, "GP104 [GeForce GTX 1080]", "nouveau"),
                            std::nullopt);
  s.nvidia->kernel.loaded_modules = {"nouveau"};
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "nvidia.nouveau_bound");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->fix->find("blacklist nouveau"), std::string::npos);
  EXPECT_NE(f->fix->find("update-initramfs"), std::string::npos);
  EXPECT_EQ(test::find_finding(fs, "nvidia.module_not_loaded"), nullptr);  // one cause, one finding
}

TEST(Checks, ModuleNotLoadedWithSecureBootSaysMok) {
  Snapshot s = machine_with(nvidia_gpu(0x2684, "AD102 [GeForce RTX 4090]", std::nullopt),
                            std::nullopt);
  s.nvidia->kernel.secure_boot = true;
  s.nvidia->kernel.dkms = {"nvidia/550.54.14, 6.5.0-21-generic, x86_64: installed"};
  auto fs = run(s);
  // One cause, one finding: the unbound GPU is the module's finding, not also gpu.no_driver.
  EXPECT_EQ(test::find_finding(fs, "gpu.no_driver"), nullptr);
  const Finding* f = test::find_finding(fs, "nvidia.module_not_loaded");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("AD102 [GeForce RTX 4090]"), std::string::npos) << f->title;
  EXPECT_NE(f->fix->find("mokutil"), std::string::npos) << *f->fix;
}

TEST(Checks, NvidiaGpuWithNothingOfTheDriverInstalledIsToldToInstallIt) {
  // An A100 whose kernel's modules.alias offers only nouveau for it: no nvidia module for this
  // kernel, no dkms, no libcuda.
  PciDevice gpu = nvidia_gpu(0x20b0, "GA100 [A100 SXM4 40GB]", std::nullopt);
  gpu.modules = {"nouveau"};
  Snapshot s = machine_with(gpu, std::nullopt);
  s.host = HostInfo{};
  s.host->os_id = "ubuntu";
  // Without modules.alias (a partial capture) nothing says the driver is missing: modprobe.
  Snapshot partial = machine_with(nvidia_gpu(0x20b0, "GA100 [A100 SXM4 40GB]", std::nullopt),
                                  std::nullopt);
  const auto partial_findings = run(partial);
  const Finding* unsure = test::find_finding(partial_findings, "nvidia.module_not_loaded");
  ASSERT_NE(unsure, nullptr);
  EXPECT_EQ(unsure->fix->rfind("sudo modprobe nvidia", 0), 0u) << *unsure->fix;
  auto fs = run(s);
  EXPECT_EQ(test::find_finding(fs, "gpu.no_driver"), nullptr);
  const Finding* f = test::find_finding(fs, "nvidia.module_not_loaded");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_EQ(*f->fix, "sudo ubuntu-drivers install, then reboot");
  // Without the NVIDIA section (--backend pci) the PCI check still names it.
  s.nvidia.reset();
  EXPECT_NE(test::find_finding(run(s), "gpu.no_driver"), nullptr);
}

TEST(Checks, DriverLibraryMismatch) {
  // lyulyul/shine-cluster#30-style: module 535.129.03 loaded, libraries upgraded to 535.161.07.
  Snapshot s = machine_with(nvidia_gpu(0x2204, "GA102 [GeForce RTX 3090]", "nvidia"),
                            "535.129.03");
  LibraryFile lib;
  lib.name = "libnvidia-ml.so.1";
  lib.path = "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1";
  lib.real_path = "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.161.07";
  lib.version = "535.161.07";
  s.nvidia->libnvidia_ml.push_back(lib);
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "nvidia.driver_library_mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->fix->find("reboot"), std::string::npos);
}

// VIAME/VIAME#273: an image puts /usr/local/cuda/compat first; the host's driver is newer than
// the compat libcuda. The other way round (compat newer) is the package's purpose: no finding.
TEST(Checks, ForwardCompatLibcudaOlderThanTheDriverIsNamedNewerIsNot) {
  const auto with_compat = [](const std::string& module, const std::string& compat) {
    Snapshot s = machine_with(nvidia_gpu(0x1eb8, "TU104GL [Tesla T4]", "nvidia"), module);
    LibraryFile lib;
    lib.name = "libcuda.so.1";
    lib.path = "/usr/local/cuda/compat/libcuda.so.1";
    lib.real_path = "/usr/local/cuda-12.4/compat/libcuda.so." + compat;
    lib.version = compat;
    s.nvidia->libcuda.push_back(lib);
    return run(s);
  };
  const auto older = with_compat("570.133.20", "550.54.15");
  const Finding* f = test::find_finding(older, "nvidia.driver_library_mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->title.find("forward-compatibility"), std::string::npos) << f->title;
  EXPECT_EQ(f->fix->find("reboot"), std::string::npos) << *f->fix;
  const auto newer = with_compat("535.161.07", "550.54.15");
  EXPECT_EQ(test::find_finding(newer, "nvidia.driver_library_mismatch"), nullptr);
}

TEST(Checks, StubLibcudaOnLdLibraryPathNamesTheCleanPath) {
  Snapshot s;
  s.nvidia = NvidiaSystem{};
  LibraryFile stub;
  stub.name = "libcuda.so";
  stub.path = "/usr/local/cuda/lib64/stubs/libcuda.so";
  stub.stub = true;
  s.nvidia->libcuda.push_back(stub);
  s.nvidia->ld_library_path = "/usr/local/cuda/lib64/stubs:/usr/local/cuda/lib64";
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "cuda.stub_libcuda");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->fix->find("export LD_LIBRARY_PATH=/usr/local/cuda/lib64"), std::string::npos)
      << *f->fix;
  EXPECT_EQ(f->fix->find("stubs:"), std::string::npos);
}

// A driver library copied into a directory of ld.so.conf without `ldconfig`: the file is there,
// dlopen finds nothing. The fix is the cache, not a driver install.
TEST(Checks, LibcudaMissingFromTheLoaderCacheSaysLdconfig) {
  Snapshot s = machine_with(nvidia_gpu(0x2204, "GA102 [GeForce RTX 3090]", "nvidia"), "550.54.15");
  s.live = true;
  s.cuda = CudaInfo{};
  LibraryFile so1;
  so1.name = "libcuda.so.1";
  so1.path = "/usr/local/nvidia/lib64/libcuda.so.1";
  so1.hidden_from_cache = true;
  so1.on_search_path = false;
  s.nvidia->libcuda.push_back(so1);
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "cuda.no_driver");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->fix->find("sudo ldconfig"), std::string::npos) << *f->fix;
  EXPECT_NE(f->title.find("cache"), std::string::npos) << f->title;
  // Without the file, the driver is missing: install it.
  s.nvidia->libcuda.clear();
  const auto without = run(s);
  const Finding* missing = test::find_finding(without, "cuda.no_driver");
  ASSERT_NE(missing, nullptr);
  EXPECT_EQ(missing->fix->find("ldconfig"), std::string::npos) << *missing->fix;
}

// WSL 2's /usr/lib/wsl/lib holds libcuda.so as a plain file: ldconfig caches it as libcuda.so.1
// only (NVIDIA/cuda-python#17). A note with LD_LIBRARY_PATH; a link missing from the cache is an
// older cache, and ldconfig mends it.
TEST(Checks, UnversionedLibcudaOutsideTheCacheIsANoteWithTheFixForItsKind) {
  Snapshot s;
  s.nvidia = NvidiaSystem{};
  LibraryFile plain;
  plain.name = "libcuda.so";
  plain.path = "/usr/lib/wsl/lib/libcuda.so";
  plain.real_path = plain.path;
  plain.hidden_from_cache = true;
  plain.on_search_path = false;
  LibraryFile so1;
  so1.name = "libcuda.so.1";
  so1.path = "/usr/lib/wsl/lib/libcuda.so.1";
  s.nvidia->libcuda = {plain, so1};
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "cuda.libcuda_unversioned");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::info);
  EXPECT_NE(f->fix->find("export LD_LIBRARY_PATH=/usr/lib/wsl/lib:"), std::string::npos) << *f->fix;

  s.nvidia->libcuda[0].real_path = "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15";
  const auto linked = run(s);
  const Finding* link = test::find_finding(linked, "cuda.libcuda_unversioned");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->fix->rfind("sudo ldconfig", 0), 0u) << *link->fix;

  // Nothing to say where the loader reaches libcuda.so, or where no libcuda.so.1 is reachable.
  s.nvidia->libcuda[0].hidden_from_cache = false;
  EXPECT_EQ(test::find_finding(run(s), "cuda.libcuda_unversioned"), nullptr);
  s.nvidia->libcuda[0].hidden_from_cache = true;
  s.nvidia->libcuda[1].on_search_path = false;
  EXPECT_EQ(test::find_finding(run(s), "cuda.libcuda_unversioned"), nullptr);
}

// pytorch/pytorch#152783: LD_LIBRARY_PATH names CUDA 12.4's lib64, whose libnvJitLink.so.12 the
// cu128 wheels' cuSPARSE loads before its own wheel's 12.8 (RUNPATH comes after LD_LIBRARY_PATH).
TEST(Checks, AnOlderLibraryOnLdLibraryPathShadowsTheWheels) {
  Snapshot s;
  s.nvidia = NvidiaSystem{};
  s.nvidia->ld_library_path = "/usr/local/cuda-12.4/lib64:/opt/other";
  CudaLibrary toolkit;
  toolkit.library = "nvJitLink";
  toolkit.name = "libnvJitLink.so.12";
  toolkit.path = "/usr/local/cuda-12.4/lib64/libnvJitLink.so.12";
  toolkit.version = "12.4.127";
  toolkit.found_in = "loader";
  CudaLibrary wheel = toolkit;
  wheel.path = "/home/user/venv/lib/python3.12/site-packages/nvidia/nvjitlink/lib/libnvJitLink.so.12";
  wheel.version = "12.8.61";
  wheel.found_in = "pip";
  s.nvidia->cuda_libraries = std::vector<CudaLibrary>{toolkit, wheel};
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "cuda.library_shadowed");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->fix->find("export LD_LIBRARY_PATH=/opt/other;"), std::string::npos) << *f->fix;

  // The same copy outside LD_LIBRARY_PATH (ld.so.conf, the cache) comes after RUNPATH: no harm.
  s.nvidia->ld_library_path = "/opt/other";
  EXPECT_EQ(test::find_finding(run(s), "cuda.library_shadowed"), nullptr);
  // A copy as new as the wheel's carries its symbols.
  s.nvidia->ld_library_path = "/usr/local/cuda-12.4/lib64";
  (*s.nvidia->cuda_libraries)[0].version = "12.8.93";
  EXPECT_EQ(test::find_finding(run(s), "cuda.library_shadowed"), nullptr);
}

TEST(Checks, CudaVisibleDevicesHidingEveryGpu) {
  for (const char* value : {"", "1", "-1,0"}) {
    Snapshot s = machine_with(nvidia_gpu(0x2330, "GH100 [H100 SXM5 80GB]", "nvidia"),
                              "580.65.06");
    s.nvidia->cuda_visible_devices = value;
    auto fs = run(s);
    const Finding* f = test::find_finding(fs, "cuda.visible_devices");
    ASSERT_NE(f, nullptr) << "CUDA_VISIBLE_DEVICES=" << value;
    EXPECT_EQ(f->severity, Severity::fail);
  }
  Snapshot ok = machine_with(nvidia_gpu(0x2330, "GH100 [H100 SXM5 80GB]", "nvidia"), "580.65.06");
  ok.nvidia->cuda_visible_devices = "0";
  EXPECT_EQ(test::find_finding(run(ok), "cuda.visible_devices"), nullptr);
}

// https://github.com/ollama/ollama/issues/11220: Slurm sets ROCR_VISIBLE_DEVICES=0 in jobs on
// a node with only NVIDIA GPUs; ollama then loads no GPU.
TEST(Checks, AmdSelectionVariableWhereOnlyNvidiaGpusAre) {
  Snapshot s = machine_with(nvidia_gpu(0x20b0, "GA100 [A100 SXM4 40GB]", "nvidia"), "570.86.15");
  s.pci->devices_scanned = 1;
  s.rocm = RocmInfo{};
  s.rocm->rocr_visible_devices = "0";
  auto fs = run(s);  // kept: the finding points into it
  const Finding* f = test::find_finding(fs, "gpu.foreign_visible_devices");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::info);  // nothing here reads it
  s.runtimes = RuntimeInstalls{};
  s.runtimes->ollama.push_back(OllamaInstall{});
  s.runtimes->ollama.back().binary = "/usr/local/bin/ollama";
  fs = run(s);
  f = test::find_finding(fs, "gpu.foreign_visible_devices");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::warn);
  EXPECT_NE(f->fix->find("Flags=nvidia_gpu_env"), std::string::npos);
  // An AMD GPU beside the NVIDIA one: the variable selects it.
  PciDevice amd = nvidia_gpu(0x744c, "Navi 31", "amdgpu");
  amd.vendor_id = 0x1002;
  amd.address = "0000:03:00.0";
  s.pci->devices.push_back(amd);
  EXPECT_EQ(test::find_finding(run(s), "gpu.foreign_visible_devices"), nullptr);
}

// https://github.com/psygreg/linuxtoys/issues/92: Mesa's rusticl offers no device for radeonsi
// until RUSTICL_ENABLE names it (https://docs.mesa3d.org/rusticl.html).
TEST(Checks, RusticlWithoutItsDriverEnabled) {
  PciDevice gpu = nvidia_gpu(0x1636, "Renoir", "amdgpu");
  gpu.vendor_id = 0x1002;
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(gpu);
  s.live = false;
  s.opencl = OpenClInfo{};
  OpenClIcd icd;
  icd.source = "/etc/OpenCL/vendors";
  icd.file = "/etc/OpenCL/vendors/rusticl.icd";
  icd.library = "libRusticlOpenCL.so.1";
  s.opencl->icds.push_back(icd);
  const auto fs = run(s);  // kept: the finding points into it
  const Finding* f = test::find_finding(fs, "opencl.no_device");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::warn);
  EXPECT_NE(f->fix->find("RUSTICL_ENABLE=radeonsi"), std::string::npos);
  s.opencl->rusticl_enable = "iris,radeonsi";
  EXPECT_EQ(test::find_finding(run(s), "opencl.no_device"), nullptr);
  // A vendor's own driver beside rusticl may serve the GPU: not judged.
  s.opencl->rusticl_enable.reset();
  icd.file = "/etc/OpenCL/vendors/amdocl64.icd";
  icd.library = "libamdocl64.so";
  s.opencl->icds.push_back(icd);
  EXPECT_EQ(test::find_finding(run(s), "opencl.no_device"), nullptr);
}

TEST(Checks, ToolkitSymlinkAndNvccDisagree) {
  Snapshot s;
  s.nvidia = NvidiaSystem{};
  auto a = toolkit("/usr/local/cuda-11.8", "11.8.89");
  a.nvcc = "/usr/local/cuda-11.8/bin/nvcc";
  auto b = toolkit("/usr/local/cuda-12.4", "12.4.131");
  b.nvcc = "/usr/local/cuda-12.4/bin/nvcc";
  b.default_symlink = true;
  s.nvidia->toolkits = {a, b};
  s.nvidia->nvcc_on_path = "/usr/local/cuda-11.8/bin/nvcc";
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "cuda.toolkit_mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::warn);
  EXPECT_NE(f->title.find("11.8.89"), std::string::npos);
  EXPECT_NE(f->title.find("12.4.131"), std::string::npos);
}

TEST(Checks, CrashedProbeIsAFailureNamingTheLibrary) {
  Snapshot s;
  ProbeOutcome p{"opencl", "bad.icd", std::string("/opt/bad/libbadcl.so"), ProbeStatus::crashed,
                 "/opt/bad/libbadcl.so crashed: SIGSEGV (Segmentation fault)"};
  s.probes.push_back(p);
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "probe.crashed");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->area, "opencl");
  EXPECT_NE(f->title.find("/opt/bad/libbadcl.so"), std::string::npos);
}

PythonEnv venv_with_torch(std::string version, std::string local, std::optional<std::string> cuda) {
  // As tests/fixtures/python-venv-torch-cu124 and python-wsl-windows-venv-cpu-torch record them.
  PythonEnv env;
  env.kind = "venv";
  env.prefix = "/home/dev/venvs/llm";
  env.python_version = "3.11.2";
  PythonPackage torch;
  torch.name = "torch";
  torch.version = version;
  torch.torch = TorchBuildInfo{};
  torch.torch->version = version + "+" + local;
  torch.torch->local_version = local;
  torch.torch->cuda = std::move(cuda);
  env.packages.push_back(torch);
  return env;
}

TEST(Checks, TorchCu124OnA470DriverSaysWhichBuildFits) {
  // The case: a CUDA 12 torch on a driver whose newest CUDA is 11.4.
  Snapshot s = machine_with(nvidia_gpu(0x2204, "GA102 [GeForce RTX 3090]", "nvidia"),
                            "470.256.02");
  s.python = PythonInfo{};
  s.python->envs.push_back(venv_with_torch("2.5.1", "cu124", "12.4"));
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "python.torch_cuda_driver");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->title.find("525.60.13"), std::string::npos) << f->title;
  EXPECT_NE(f->fix->find("torch==2.5.1 --index-url https://download.pytorch.org/whl/cu118"),
            std::string::npos)
      << *f->fix;
}

TEST(Checks, CpuTorchOnAGpuMachine) {
  Snapshot s = machine_with(nvidia_gpu(0x2204, "GA102 [GeForce RTX 3090]", "nvidia"),
                            "550.90.07");
  s.python = PythonInfo{};
  s.python->envs.push_back(venv_with_torch("2.6.0", "cpu", std::nullopt));
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "python.torch_cpu_only");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->fix->find("--index-url https://download.pytorch.org/whl/cu"), std::string::npos)
      << *f->fix;
  // The same torch on a machine without an NVIDIA GPU is simply right.
  Snapshot cpu_box;
  cpu_box.python = s.python;
  EXPECT_EQ(test::find_finding(run(cpu_box), "python.torch_cpu_only"), nullptr);
}

// NVIDIA's README (560.35.03, kernel_open.html): "Blackwell and later are only supported by the
// open kernel modules". The RTX 5090 (10de:2b85, as in tests/fixtures/corpus-rtx5090-*) under the
// proprietary flavour, as /proc/driver/nvidia/version names it, gets no driver; under the open
// one it is fine.
TEST(Checks, BlackwellUnderTheProprietaryModuleNeedsTheOpenOne) {
  Snapshot s = machine_with(nvidia_gpu(0x2b85, "GB202 [GeForce RTX 5090]", std::nullopt), "580.65.06");
  s.nvidia->kernel.module_flavor = "proprietary";
  s.nvidia->kernel.proc_version =
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06";
  auto fs = run(s);
  const Finding* f = test::find_finding(fs, "nvidia.open_module_required");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_NE(f->title.find("compute capability 12.0"), std::string::npos) << f->title;
  s.nvidia->kernel.module_flavor = "open";
  EXPECT_EQ(test::find_finding(run(s), "nvidia.open_module_required"), nullptr);
  // An Ampere GPU under the proprietary module is one it drives.
  Snapshot a = machine_with(nvidia_gpu(0x2204, "GA102 [GeForce RTX 3090]", "nvidia"), "580.65.06");
  a.nvidia->kernel.module_flavor = "proprietary";
  EXPECT_EQ(test::find_finding(run(a), "nvidia.open_module_required"), nullptr);
}

TEST(Checks, HealthyH100HasNothingToSay) {
  Snapshot s = machine_with(nvidia_gpu(0x2330, "GH100 [H100 SXM5 80GB]", "nvidia"),
                            "580.65.06");
  s.nvidia->toolkits.push_back(toolkit("/usr/local/cuda-13.0", "13.0.88"));
  for (const auto& f : run(s)) {
    EXPECT_TRUE(f.severity == Severity::ok || f.severity == Severity::info) << f.id << ": " << f.title;
  }
}

}  // namespace
}  // namespace gpudoctor
