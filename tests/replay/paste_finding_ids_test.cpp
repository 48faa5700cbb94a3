// Pasted dumps that are the only fixture of a finding id (tests/fixtures/ids-without-a-fixture.txt
// lists the ids no fixture fires yet): each paste, from a public ticket, gets the finding its
// thread established, at its severity, with the fix that thread applied.
#include "paste_support.hpp"

namespace gpudoctor {
namespace {

using namespace paste_test;

struct Expected {
  const char* file;
  const char* id;
  Severity severity;
  const char* fix_phrase;    ///< a phrase of the finding's fix
  const char* title_phrase;  ///< a value the finding must have read from the paste
};

const std::vector<Expected>& expected() {
  static const std::vector<Expected> all = {
      {"nvidia-smi/open-gpu-kernel-modules-862-rtx5090-no-devices.txt", "nvidia.no_devices",
       Severity::fail, "dmesg", "sees no GPU"},
      {"nvidia-smi/owod-81-gpu-lost.txt", "nvidia.gpu_lost", Severity::fail, "reboot",
       "fallen off the bus"},
      {"ollama/ollama-1992-gtx970-cuda-too-old.txt", "ollama.gpu_too_old", Severity::fail,
       "use a GPU ollama lists", "compute capability 5.2"},
      // No GPU in the paste other than ollama's own words: a warning, not a failure.
      {"ollama/ollama-ov-6-container-no-gpu.txt", "ollama.no_gpu", Severity::warn,
       "--gpus all", "models run on the CPU"},
      {"apps/pia-30-xformers-cu121-torch-cpu.txt", "python.xformers_torch", Severity::fail,
       "pip install the xformers release built for this torch", "(2.1.2+cpu)"},
      {"apps/vllm-5501-c-abi3-undefined-symbol.txt", "python.vllm_torch", Severity::fail,
       "pip install --force-reinstall vllm", "undefined symbol"},
      {"jax/synthpix-119-cusparse-not-found.txt", "python.jax_cuda", Severity::fail,
       "pip install -U 'jax[cuda12]'", "plugin failed to initialize"},
      {"rocminfo/legacy-rocm-build-1080-rx580-hsa-out-of-resources.txt", "rocm.device_access",
       Severity::fail, "render and video groups", "(HSA_STATUS_ERROR_OUT_OF_RESOURCES)"},
      // torch's message is the only evidence: no driver is reachable, whatever the reason.
      {"apps/colabtools-5329-found-no-nvidia-driver.txt", "cuda.no_driver", Severity::fail,
       "install the NVIDIA driver", "found no NVIDIA driver"},
      // No torch in the paste: the program's own build lacks the GPU's architecture.
      {"apps/cudakdtree-18-rtx4090-no-kernel-image.txt", "cuda.arch_unsupported", Severity::fail,
       "compiled for this GPU's compute capability", "no kernel for this GPU's architecture"},
      // ollama's own words: an AMD GPU it saw, and no ROCm to drive it (a blog post, not a ticket).
      {"ollama/vorburger-blog-ollama1-rx7600xt-no-rocm.txt", "ollama.rocm_missing", Severity::fail,
       "or ROCm itself", "no ROCm libraries to drive it"},
      // lspci -nnk lists every other function's driver, none for the iGPU: nothing bound.
      {"kernel/arc-833-lspci-sandy-bridge-igpu-no-driver.txt", "gpu.no_driver", Severity::fail,
       "i915/xe are part of the kernel", "has no kernel driver bound"},
      // The ICD loader's dlerror: the .icd file's bare library name is not on the loader's path.
      {"clinfo/opencl-amd-fedora-18-libamdocl64-not-on-loader-path.txt", "opencl.icd_broken",
       Severity::fail, "add its directory to a file in /etc/ld.so.conf.d/",
       "naming libamdocl64.so is unusable"},
      // TensorFlow's own gpu_device.cc message: the binary's minimum compute capability.
      {"tensorflow/tensorflow-17445-quadro-k2000m-cc30-ignored.txt", "python.tensorflow_arch",
       Severity::fail, "TF_CUDA_COMPUTE_CAPABILITIES", "needs compute capability 3.5 or newer"},
      // The issue template's own fields: a TensorFlow release older than the Python.
      {"tensorflow/tensorflow-85298-tf28-python313.txt", "python.framework_python", Severity::warn,
       "use a Python in 3.7–3.10", "was not tested with Python 3.13"},
      // NVRTC's own refusal of the GPU's -arch, inside a CuPy traceback.
      {"apps/cupy-1048-gtx1080-nvrtc-cuda80-compute61.txt", "python.cupy_arch", Severity::fail,
       "install a newer CuPy", "rejects -arch=compute_61"},
      // The loader's own messages: the ICD manifest names a library the container lacks.
      {"vulkaninfo/nvidia-container-toolkit-1732-cdi-no-libglx-nvidia.txt",
       "vulkan.manifest_broken", Severity::fail, "have the runtime mount it",
       "naming /usr/lib64/libGLX_nvidia.so.0 is unusable"},
  };
  return all;
}

TEST(PasteFindingIds, EachPasteGetsItsFindingSeverityAndFix) {
  for (const auto& e : expected()) {
    SCOPED_TRACE(e.file);
    const auto checked = check_text(paste_fixture(e.file));
    const Finding* f = nullptr;
    for (const auto& x : checked.findings) {
      if (x.id == e.id) f = &x;
    }
    ASSERT_NE(f, nullptr) << "want " << e.id << "\n" << describe(checked.findings);
    EXPECT_EQ(f->severity, e.severity) << f->title;
    const std::string fix = f->fix.value_or("");
    EXPECT_NE(fix.find(e.fix_phrase), std::string::npos) << fix;
    EXPECT_NE(f->title.find(e.title_phrase), std::string::npos) << f->title;
    EXPECT_FALSE(f->quotes.empty()) << "a finding from a paste quotes its line";
    // One cause, one finding: nothing else in these pastes is a warning or worse.
    EXPECT_EQ(ids(checked.findings, Severity::warn), std::set<std::string>{e.id})
        << describe(checked.findings);
  }
}

// The edges of what those readers take: lines quoted from the fixtures' threads (tensorflow#112's
// older wording), cut down to the part that decides.
TEST(PasteFindingIds, ReadersTakeOnlyWhatThePasteSays) {
  // lspci without -k names no driver for any function: no GPU is "without a driver".
  auto plain = check_text(
      "00:02.0 VGA compatible controller: Intel Corporation 2nd Generation Core Processor "
      "Family Integrated Graphics Controller (rev 09)\n");
  EXPECT_TRUE(ids(plain.findings, Severity::warn).empty()) << describe(plain.findings);
  // TensorFlow 0.x's wording ("Ignoring gpu device", no capability inside the parentheses).
  auto old_tf = check_text(
      "I tensorflow/core/common_runtime/gpu/gpu_device.cc:611] Ignoring gpu device (device: 0, "
      "name: GRID K520, pci bus id: 0000:00:03.0) with Cuda compute capability 3.0. The minimum "
      "required Cuda capability is 3.5.\n");
  ASSERT_EQ(ids(old_tf.findings, Severity::warn), std::set<std::string>{"python.tensorflow_arch"});
  EXPECT_NE(old_tf.findings[0].title.find("GRID K520 (compute capability 3.0)"), std::string::npos)
      << old_tf.findings[0].title;
  // A dlerror with another platform working: the broken .icd, and no "no driver registered".
  auto one_left = check_text(
      "dlerror: /opt/rocm-3.1.0/opencl/lib/x86_64/libamdocl64.so: cannot open shared object "
      "file: No such file or directory\nNumber of platforms:\t\t\t\t 1\n");
  EXPECT_EQ(ids(one_left.findings, Severity::warn), std::set<std::string>{"opencl.icd_broken"})
      << describe(one_left.findings);
  // torch's JIT words NVRTC's refusal the same (pytorch/pytorch#47658): not CuPy's.
  auto torch_jit =
      check_text("RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)\n");
  EXPECT_TRUE(test::with_id(torch_jit.findings, "python.cupy_arch").empty())
      << describe(torch_jit.findings);
  // An Intel Mac's collect_env: x86_64 is the machine's own arch, no Rosetta.
  auto intel = check_text(
      "Collecting environment information...\nPyTorch version: 1.13.0\n\n"
      "OS: macOS 12.6 (x86_64)\nPython platform: macOS-12.6-x86_64-i386-64bit\n\nCPU:\n"
      "Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz\n");
  ASSERT_TRUE(intel.reading.snapshot.macos.has_value());
  EXPECT_EQ(intel.reading.snapshot.macos->arm64, std::optional<bool>(false));
  EXPECT_TRUE(ids(intel.findings, Severity::warn).empty()) << describe(intel.findings);
}

// TensorFlow-ROCm's "could not retrieve ROCM device count: HIP_ERROR_NoDevice" where the script
// itself set CUDA_VISIBLE_DEVICES="" (ROCmSoftwarePlatform/tensorflow#14): HIP found no device.
// Nothing in the paste says a GPU exists, so a note naming the variables that hide GPUs.
TEST(PasteFindingIds, HipNoDeviceFromTensorflowRocm) {
  const auto checked = check_text(
      paste_fixture("rocminfo/rocm-tensorflow-14-hip-no-device-cuda-visible-devices-empty.txt"));
  const auto f = test::with_id(checked.findings, "rocm.hip_init");
  ASSERT_EQ(f.size(), 1u) << describe(checked.findings);
  EXPECT_EQ(f[0].severity, Severity::info);
  EXPECT_NE(f[0].title.find("hipGetDeviceCount failed with 100"), std::string::npos) << f[0].title;
  EXPECT_NE(f[0].fix.value_or("").find("CUDA_VISIBLE_DEVICES"), std::string::npos);
  EXPECT_FALSE(f[0].quotes.empty());
  EXPECT_TRUE(ids(checked.findings, Severity::warn).empty()) << describe(checked.findings);
}

// An x86_64 Anaconda Python on an Apple M2 Pro (pytorch/pytorch#146236): collect_env's OS line
// gives the Python's arch (x86_64), its CPU line the Mac's; the Python says macOS-10.16, so it
// was linked against a pre-11 SDK (no arm64 slice) and torch's macOS 14 check fails.
TEST(PasteFindingIds, RosettaPythonToldMacos1016) {
  const auto checked =
      check_text(paste_fixture("collect_env/pytorch-146236-rosetta-m2pro-macos-1016.txt"));
  ASSERT_TRUE(checked.reading.snapshot.macos.has_value());
  EXPECT_EQ(checked.reading.snapshot.macos->arm64, std::optional<bool>(true));
  EXPECT_EQ(ids(checked.findings, Severity::warn),
            (std::set<std::string>{"macos.rosetta_python", "macos.version_compat"}))
      << describe(checked.findings);
  for (const auto& f : checked.findings) {
    if (f.id == "macos.rosetta_python") {
      EXPECT_EQ(f.severity, Severity::fail);
      EXPECT_NE(f.title.find("runs translated by Rosetta"), std::string::npos) << f.title;
      EXPECT_NE(f.fix.value_or("").find("install an arm64 (or universal2) Python"),
                std::string::npos);
      EXPECT_FALSE(f.quotes.empty());
    } else if (f.id == "macos.version_compat") {
      EXPECT_EQ(f.severity, Severity::warn);
      EXPECT_NE(f.title.find("told macOS 10.16 instead of 15.3"), std::string::npos) << f.title;
      EXPECT_NE(f.fix.value_or("").find("SYSTEM_VERSION_COMPAT=0"), std::string::npos);
      ASSERT_FALSE(f.quotes.empty());
      EXPECT_EQ(f.quotes[0].text, "Python platform: macOS-10.16-x86_64-i386-64bit");
    }
  }
}

}  // namespace
}  // namespace gpudoctor
