// The fabric manager, WSL, CUDA library, nvcc and wheel-pin checks on snapshots that state the
// facts of the reports named in each test, one fact changed at a time; the fixture machines of
// tests/nvlibs_scenarios_test.cpp run the same checks end to end.
#include <gtest/gtest.h>

#include <algorithm>

#include "checks/checks.hpp"
#include "compat/compat_data.hpp"

namespace gpudoctor {
namespace nvlibs_checks_test {

std::vector<Finding> run(const Snapshot& s) {
  auto devices = merge_devices(s);
  return run_checks(CheckInput{s, devices, builtin_compat()});
}

/// The first finding with this id, copied (the vector is often a temporary).
std::optional<Finding> find(const std::vector<Finding>& fs, const std::string& id) {
  for (const auto& f : fs) {
    if (f.id == id) return f;
  }
  return std::nullopt;
}

bool has(const std::optional<std::string>& text, const std::string& part) {
  return text && text->find(part) != std::string::npos;
}

PciDevice nvidia_gpu(const std::string& address, std::uint16_t device) {
  PciDevice p;
  p.address = address;
  p.class_code = 0x030200;
  p.vendor_id = 0x10de;
  p.device_id = device;
  p.driver = "nvidia";
  return p;
}

/// canonical/microk8s#2119: a DGX A100 (six NVSwitches) on driver 460.73.01.
Snapshot dgx_a100() {
  Snapshot s;
  s.live = false;
  s.pci = PciInfo{};
  s.pci->devices.push_back(nvidia_gpu("0000:07:00.0", 0x20b0));
  s.nvidia = NvidiaSystem{};
  s.nvidia->kernel.module_version = "460.73.01";
  s.nvidia->kernel.loaded_modules = {"nvidia"};
  for (const char* a : {"0000:c4:00.0", "0000:c5:00.0", "0000:c6:00.0", "0000:c7:00.0",
                        "0000:c8:00.0", "0000:c9:00.0"}) {
    s.nvidia->nvswitches.push_back({a, 0x1af1, std::nullopt});
  }
  return s;
}

TEST(FabricManager, MissingMismatchedStoppedDisabledAndFine) {
  Snapshot s = dgx_a100();
  auto f = find(run(s), "nvidia.fabricmanager");
  ASSERT_TRUE(f);  // no fabric manager at all
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_TRUE(has(f->title, "802"));

  FabricManager fm;
  fm.binary = "/usr/bin/nv-fabricmanager";
  fm.package = "nvidia-fabricmanager-460";
  fm.version = "460.91.03";  // the report's "driver interface version 460.91.03"
  fm.version_from = "dpkg";
  fm.service_unit = "/lib/systemd/system/nvidia-fabricmanager.service";
  fm.enabled = true;
  s.nvidia->fabricmanager = fm;
  f = find(run(s), "nvidia.fabricmanager");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_TRUE(has(f->title, "460.91.03") && has(f->title, "460.73.01")) << f->title;
  EXPECT_TRUE(has(f->fix, "nvidia-fabricmanager-460=460.73.01*")) << f->fix.value_or("");

  s.nvidia->fabricmanager->version = "460.73.01";
  EXPECT_FALSE(find(run(s), "nvidia.fabricmanager"));  // matching and enabled

  s.nvidia->fabricmanager->enabled = false;
  f = find(run(s), "nvidia.fabricmanager");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::warn);

  s.nvidia->fabricmanager->running = false;  // what a live run reads in /proc
  f = find(run(s), "nvidia.fabricmanager");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::fail);

  // gpu-operator#610: Fabric Manager on two A40s joined by an NVLink bridge has nothing to do;
  // no NVSwitch, no finding.
  s.nvidia->nvswitches.clear();
  s.nvidia->fabricmanager.reset();
  EXPECT_FALSE(find(run(s), "nvidia.fabricmanager"));
}

TEST(FabricManager, CuInit802IsOneFindingNotTwo) {
  Snapshot s = dgx_a100();
  s.cuda = CudaInfo{};
  s.cuda->library = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
  s.cuda->init_error = CudaError{"cuInit", 802, std::string("CUDA_ERROR_SYSTEM_NOT_READY"),
                                 std::nullopt};
  auto fs = run(s);
  ASSERT_TRUE(find(fs, "nvidia.fabricmanager"));
  EXPECT_FALSE(find(fs, "cuda.init"));
  const auto fm = find(fs, "nvidia.fabricmanager");
  const auto& ev = fm->evidence;
  EXPECT_TRUE(std::any_of(ev.begin(), ev.end(), [](const std::string& e) {
    return e.find("cuInit returned 802") != std::string::npos;
  }));
}

/// A WSL 2 distribution as microsoft/WSL#6925 shows it: kernel 5.10.16.3-microsoft-standard-WSL2,
/// the Windows driver's libraries in /usr/lib/wsl/lib (ld.wsl.conf names them).
Snapshot wsl2() {
  Snapshot s;
  s.live = false;
  s.host = HostInfo{};
  s.host->kernel_release = "5.10.16.3-microsoft-standard-WSL2";
  s.host->wsl = true;
  s.host->wsl_version = "2";
  s.nvidia = NvidiaSystem{};
  s.nvidia->dev_dxg = true;
  LibraryFile l;
  l.name = "libcuda.so.1";
  l.path = "/usr/lib/wsl/lib/libcuda.so.1";
  l.on_search_path = true;
  s.nvidia->libcuda.push_back(l);
  return s;
}

TEST(Wsl, HealthyWsl2SaysNothing) {
  auto fs = run(wsl2());
  EXPECT_FALSE(find(fs, "nvidia.wsl_gpu"));
  EXPECT_FALSE(find(fs, "nvidia.wsl_linux_driver"));
}

TEST(Wsl, Wsl1NoParavirtualizationNoLibrariesAndALinuxDriver) {
  Snapshot s = wsl2();
  s.host->wsl_version = "1";  // AbdBarho/stable-diffusion-webui-docker#117: WSL 1
  s.host->kernel_release = "4.4.0-19041-Microsoft";  // what the host probe reads as "1"
  auto f = find(run(s), "nvidia.wsl_gpu");
  ASSERT_TRUE(f);
  EXPECT_TRUE(has(f->title, "WSL 1"));
  EXPECT_TRUE(has(f->fix, "--set-version"));

  s = wsl2();  // NVIDIA/nvidia-docker#1542: a Windows build without WSL GPU support
  s.nvidia->dev_dxg = false;
  s.nvidia->libcuda.clear();
  f = find(run(s), "nvidia.wsl_gpu");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_TRUE(has(f->fix, "19044"));

  s = wsl2();
  s.nvidia->libcuda.clear();  // /dev/dxg, but no Windows driver libraries
  f = find(run(s), "nvidia.wsl_gpu");
  ASSERT_TRUE(f);
  EXPECT_TRUE(has(f->fix, "Windows"));

  s = wsl2();
  s.nvidia->libcuda.front().on_search_path = false;  // ld.wsl.conf gone
  f = find(run(s), "nvidia.wsl_gpu");
  ASSERT_TRUE(f);
  EXPECT_TRUE(has(f->fix, "ld.wsl.conf"));

  s = wsl2();  // microsoft/WSL#6925: cuda-drivers installed inside
  LibraryFile linux_lib;
  linux_lib.name = "libcuda.so.1";
  linux_lib.path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
  linux_lib.on_search_path = true;
  s.nvidia->libcuda.insert(s.nvidia->libcuda.begin(), linux_lib);
  s.nvidia->libcuda.back().shadowed = true;
  f = find(run(s), "nvidia.wsl_linux_driver");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::fail);
}

TEST(Wsl, AContainerUnderWslIsNotToldItHasNoGpus) {
  // Under WSL a container with GPUs has /dev/dxg and never /dev/nvidiactl.
  Snapshot s = wsl2();
  s.host->container = "docker";
  s.nvidia->kernel.dev_listed = true;
  s.nvidia->nvidia_visible_devices = "all";
  EXPECT_FALSE(find(run(s), "nvidia.container_without_gpu"));
  s.nvidia->dev_dxg = false;  // started without --gpus
  auto f = find(run(s), "nvidia.container_without_gpu");
  ASSERT_TRUE(f);
  EXPECT_TRUE(has(f->title, "/dev/dxg"));
}

CudaLibrary lib(const std::string& dir, const std::string& name, const std::string& found_in,
                std::optional<std::string> version, bool on_path, bool pick) {
  CudaLibrary l;
  l.library = name.rfind("libcudnn", 0) == 0 ? "cudnn" : "cudart";
  l.name = name;
  l.path = dir + "/" + name;
  l.found_in = found_in;
  l.version = std::move(version);
  l.version_from = "file name";
  l.on_loader_path = on_path;
  l.loader_pick = pick;
  return l;
}

/// tensorflow/tensorflow#52988: conda env "tmp", Python 3.8, conda-forge cudatoolkit 11.2 and
/// cudnn 8.1 in its lib/, TensorFlow from pip.
Snapshot conda_tf(const std::string& tf_version) {
  Snapshot s;
  s.live = false;
  s.pci = PciInfo{};
  s.pci->devices.push_back(nvidia_gpu("0000:01:00.0", 0x2204));
  s.nvidia = NvidiaSystem{};
  s.nvidia->kernel.loaded_modules = {"nvidia"};
  const std::string env = "/home/user/miniconda3/envs/tmp";
  s.nvidia->cuda_libraries = std::vector<CudaLibrary>{
      lib(env + "/lib", "libcudart.so.11.0", "conda", "11.0", false, false),
      lib(env + "/lib", "libcudnn.so.8", "conda", "8", false, false)};
  s.python = PythonInfo{};
  PythonEnv e;
  e.kind = "conda";
  e.prefix = env;
  e.python_version = "3.8";
  PythonPackage tf;
  tf.name = "tensorflow";
  tf.version = tf_version;
  tf.location = env + "/lib/python3.8/site-packages";
  tf.metadata_dir = "tensorflow-" + tf_version + ".dist-info";
  TensorflowBuildInfo b;
  b.file = tf.location + "/tensorflow/python/platform/build_info.py";
  b.cuda_version = "11.2";
  b.cudnn_version = "8";
  b.is_cuda_build = true;
  tf.tensorflow = b;
  e.packages.push_back(tf);
  s.python->envs.push_back(e);
  return s;
}

TEST(TensorflowLibraries, CondaLibsFoundBy26NotBy27) {
  auto f = find(run(conda_tf("2.7.0")), "python.tensorflow_cuda_libraries");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_TRUE(has(f->title, "libcudart.so.11.0") && has(f->title, "libcudnn.so.8")) << f->title;
  EXPECT_TRUE(has(f->fix, "LD_LIBRARY_PATH=/home/user/miniconda3/envs/tmp/lib")) << *f->fix;
  // 2.6's DT_RPATH lets the conda python's own library path in.
  EXPECT_FALSE(find(run(conda_tf("2.6.0")), "python.tensorflow_cuda_libraries"));
  // The report's workaround.
  Snapshot s = conda_tf("2.7.0");
  s.nvidia->ld_library_path = "LD_LIBRARY_PATH:/home/user/miniconda3/envs/tmp/lib";
  EXPECT_FALSE(find(run(s), "python.tensorflow_cuda_libraries"));
  // No table row for 2.3: how it looks is not known, so nothing is said.
  EXPECT_FALSE(find(run(conda_tf("2.3.0")), "python.tensorflow_cuda_libraries"));
}

TEST(TensorflowLibraries, AnOlderCudnnOnTheLoaderPath) {
  // tensorflow/docs#2291: TensorFlow 2.15 (built with cuDNN 8.9.4) with a cuDNN 8.8 install.
  Snapshot s = conda_tf("2.15.0");
  auto& tf = s.python->envs[0].packages[0];
  tf.tensorflow->cuda_version = "12.2";
  tf.requires_dist = {"nvidia-cudnn-cu12 (==8.9.4.25) ; extra == 'and-cuda'"};
  s.python->envs[0].kind = "venv";
  s.nvidia->ld_library_path = "/usr/local/cuda-12.2/lib64";
  s.nvidia->cuda_libraries = std::vector<CudaLibrary>{
      lib("/usr/local/cuda-12.2/lib64", "libcudart.so.12", "toolkit", "12", true, true),
      lib("/usr/local/cuda-12.2/lib64", "libcudnn.so.8", "toolkit", "8.8.0", true, true)};
  auto fs = run(s);
  auto f = find(fs, "python.tensorflow_cudnn_loaded");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_TRUE(has(f->title, "8.8.0") && has(f->title, "8.9.4.25")) << f->title;
  EXPECT_FALSE(find(fs, "python.tensorflow_cudnn"));  // one cause, one finding
  // The wheel beside it, reached through its runpath once LD_LIBRARY_PATH no longer points
  // at the old one.
  s.nvidia->ld_library_path.reset();
  s.nvidia->cuda_libraries->push_back(lib(tf.location + "/nvidia/cudnn/lib", "libcudnn.so.8",
                                          "pip", "8.9.4.25", false, false));
  s.nvidia->cuda_libraries->push_back(lib(tf.location + "/nvidia/cuda_runtime/lib",
                                          "libcudart.so.12", "pip", "12.2.140", false, false));
  EXPECT_FALSE(find(run(s), "python.tensorflow_cudnn_loaded"));
}


/// vllm-project/vllm#763: torch 2.0.1+cu117 in an environment, nvcc 12.2 first on PATH.
Snapshot torch_and_nvcc(const std::string& torch_cuda, const std::string& nvcc_version) {
  Snapshot s;
  s.live = false;
  s.nvidia = NvidiaSystem{};
  s.nvidia->nvcc_on_path = "/usr/local/cuda/bin/nvcc";
  CudaToolkit t;
  t.path = "/usr/local/cuda-12.2";
  t.source = "/usr/local";
  t.found_by = {"/usr/local", "PATH"};
  t.version = nvcc_version;
  t.version_source = "cuda.h";
  t.nvcc = "/usr/local/cuda-12.2/bin/nvcc";
  s.nvidia->toolkits.push_back(t);
  s.python = PythonInfo{};
  PythonEnv e;
  e.kind = "path";
  e.prefix = "/home/user/venv";
  PythonPackage torch;
  torch.name = "torch";
  torch.version = "2.0.1";
  TorchBuildInfo b;
  b.version = "2.0.1+cu117";
  b.cuda = torch_cuda;
  torch.torch = b;
  e.packages.push_back(torch);
  s.python->envs.push_back(e);
  return s;
}

TEST(TorchExtensions, OnlyAnotherMajorStopsTheBuild) {
  auto f = find(run(torch_and_nvcc("11.7", "12.2")), "python.torch_extension_cuda");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::warn);
  EXPECT_TRUE(has(f->title, "(12.2) mismatches the version that was used to compile PyTorch (11.7)"));
  // cpp_extension only warns when the minor alone differs ("Most likely this shouldn't be a
  // problem"): nothing to say.
  EXPECT_FALSE(find(run(torch_and_nvcc("12.1", "12.2")), "python.torch_extension_cuda"));
  // CUDA_HOME wins over the nvcc on PATH, as in torch's _find_cuda_home.
  Snapshot s = torch_and_nvcc("12.1", "12.2");
  s.nvidia->cuda_home = "/usr/local/cuda-11.8";
  CudaToolkit old;
  old.path = "/usr/local/cuda-11.8";
  old.source = "/usr/local";
  old.found_by = {"/usr/local", "CUDA_HOME"};
  old.version = "11.8.89";
  old.nvcc = "/usr/local/cuda-11.8/bin/nvcc";
  s.nvidia->toolkits.push_back(old);
  f = find(run(s), "python.torch_extension_cuda");
  ASSERT_TRUE(f);
  EXPECT_TRUE(has(f->title, "nvcc is CUDA 11.8"));
}

/// One environment with torch and JAX's CUDA 12 plugin, each with its cuDNN requirement
/// (the METADATA lines of torch 2.6.0 and jax-cuda12-plugin 0.6.0), and the cuDNN wheel installed.
Snapshot torch_and_jax(const std::string& torch_version, const std::string& torch_pin,
                       const std::string& installed) {
  Snapshot s;
  s.live = false;
  s.python = PythonInfo{};
  PythonEnv e;
  e.kind = "venv";
  e.prefix = "/home/user/venv";
  PythonPackage torch;
  torch.name = "torch";
  torch.version = torch_version;
  torch.metadata_dir = "torch-" + torch_version + ".dist-info";
  torch.requires_dist = {"nvidia-cudnn-cu12 (==" + torch_pin +
                         ") ; platform_system == \"Linux\" and platform_machine == \"x86_64\""};
  PythonPackage plugin;
  plugin.name = "jax-cuda12-plugin";
  plugin.version = "0.6.0";
  plugin.metadata_dir = "jax_cuda12_plugin-0.6.0.dist-info";
  plugin.requires_dist = {"nvidia-cudnn-cu12<10.0,>=9.8; extra == \"with-cuda\""};
  PythonPackage cudnn;
  cudnn.name = "nvidia-cudnn-cu12";
  cudnn.version = installed;
  cudnn.metadata_dir = "nvidia_cudnn_cu12-" + installed + ".dist-info";
  e.packages = {torch, plugin, cudnn};
  s.python->envs.push_back(e);
  return s;
}

TEST(WheelConflict, TheFrameworkBuiltAgainstTheNewerCudnnFails) {
  auto f = find(run(torch_and_jax("2.6.0", "9.1.0.70", "9.1.0.70")), "python.nvidia_wheel_conflict");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::fail);
  EXPECT_TRUE(has(f->fix, "torch==2.8.0")) << f->fix.value_or("");
  // torch 2.8.0 pins 9.10.2.21, which JAX accepts: pip's one wheel serves both.
  EXPECT_FALSE(find(run(torch_and_jax("2.8.0", "9.10.2.21", "9.10.2.21")),
                 "python.nvidia_wheel_conflict"));
  // torch 2.7.1 pins 9.5.1.17 but the newer 9.10 is installed: torch loads a newer minor of
  // its major, which its rule accepts; JAX is satisfied too.
  EXPECT_FALSE(find(run(torch_and_jax("2.7.1", "9.5.1.17", "9.10.2.21")),
                 "python.nvidia_wheel_conflict"));
}

}  // namespace nvlibs_checks_test
}  // namespace gpudoctor
