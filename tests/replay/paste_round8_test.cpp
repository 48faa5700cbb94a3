// Pastes of round 8 (tests/fixtures/pastes/holdout-8/, in-sample files only) and the shapes of
// the same messages in other real threads: each names its cause, and the healthy lines around
// them stay quiet.
#include "paste_support.hpp"

namespace gpudoctor {
namespace paste_round8_test {

using namespace paste_test;
using test::find_finding;

bool has_id(const Checked& c, const std::string& id, Severity at_least) {
  return ids(c.findings, at_least).count(id) > 0;
}

TEST(PasteRound8, TritonWithNoActiveDriverIsNamed) {
  // https://github.com/huggingface/sentence-transformers/issues/3557
  const auto c = check_text(paste_fixture("holdout-8/sentence-transformers-3557-triton-0-active-drivers-megablocks.txt"));
  EXPECT_TRUE(has_id(c, "python.triton_no_driver", Severity::fail)) << describe(c.findings);
}

TEST(PasteRound8, VllmFailingToInferItsDeviceSaysNoPlatform) {
  // https://github.com/ai-dynamo/dynamo/issues/391: an old pynvml; the fix names it.
  const auto c = check_text(paste_fixture("holdout-8/dynamo-391-vllm-failed-to-infer-device-type-pynvml.txt"));
  const Finding* f = find_finding(c.findings, "cuda.init");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_NE(f->fix.value_or("").find("pynvml"), std::string::npos) << f->fix.value_or("");
}

TEST(PasteRound8, CondasCpuOnlyTorchIsSaidWithNothingOfTheHardware) {
  // https://github.com/meta-pytorch/data/issues/315: `cpuonly` and `py3.8_cpu_0` picked by the
  // solver; nothing of the machine is pasted, so a warning, not a failure.
  const auto c = check_text(paste_fixture("holdout-8/torchdata-315-conda-cpuonly-pytorch-cpu-build.txt"));
  const Finding* f = find_finding(c.findings, "python.torch_cpu_only");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_EQ(f->severity, Severity::warn);
  // An `lspci -k` that lists no NVIDIA GPU makes the CPU build the right one: nothing to say.
  const auto healthy = check_text(
      paste_fixture("holdout-8/torchdata-315-conda-cpuonly-pytorch-cpu-build.txt") +
      "00:02.0 VGA compatible controller: Intel Corporation Alder Lake-P GT2 [Iris Xe Graphics] (rev 0c)\n"
      "\tKernel driver in use: i915\n");
  EXPECT_EQ(find_finding(healthy.findings, "python.torch_cpu_only"), nullptr) << describe(healthy.findings);
}

TEST(PasteRound8, ADeviceHandleErrorIsNotAGpuFallenOffTheBus) {
  // https://github.com/microsoft/WSL/issues/13027: "Unknown Error", not "GPU is lost".
  const auto c = check_text(paste_fixture("holdout-8/wsl-13027-mixed-tcc-wddm-no-devices.txt"));
  EXPECT_EQ(find_finding(c.findings, "nvidia.gpu_lost"), nullptr) << describe(c.findings);
  const Finding* f = find_finding(c.findings, "nvidia.no_devices");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_NE(f->title.find("0000:C1:00.0"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("Unknown Error"), std::string::npos) << f->title;
}

TEST(PasteRound8, APrintedIsAvailableFalseBesideAHealthyGpuIsNotGreen) {
  // `print(torch.__version__, torch.cuda.is_available())` answers on one line; the value at the
  // call's place is the answer. Constructed to exercise the reader (no thread found with this
  // exact one-liner and its output): a GPU as `nvidia-smi -L` lists it, and a torch saying False.
  const auto c = check_text(
      "$ nvidia-smi -L\n"
      "GPU 0: NVIDIA GeForce RTX 3080 (UUID: GPU-5a1b2c3d-0000-1111-2222-333344445555)\n"
      "$ python -c \"import torch; print(torch.__version__, torch.cuda.is_available())\"\n"
      "2.1.0+cu118 False\n");
  EXPECT_TRUE(has_id(c, "symptom.unexplained", Severity::fail)) << describe(c.findings);
  // The same line answering True says nothing is wrong.
  const auto ok = check_text(
      "$ python -c \"import torch; print(torch.__version__, torch.cuda.is_available())\"\n"
      "2.1.0+cu118 True\n");
  EXPECT_TRUE(ids(ok.findings, Severity::warn).empty()) << describe(ok.findings);
}

TEST(PasteRound8, TensorflowListingNoGpuIsAStatedSymptom) {
  // https://github.com/tensorflow/tensorflow/issues/62375: a label before the empty list (the
  // print line, "The output is:" and "GPU []" are the issue's); the reporter's GTX 1060 6GB is
  // written as `nvidia-smi -L` lists a GPU (a stand-in line: the issue names the GPU in its form).
  const auto c = check_text(
      "print('GPU', tf.config.list_physical_devices('GPU'))\n"
      "The output is:\n"
      "GPU []\n"
      "GPU 0: NVIDIA GeForce GTX 1060 6GB (UUID: GPU-00000000-1111-2222-3333-444444444444)\n");
  EXPECT_TRUE(has_id(c, "symptom.unexplained", Severity::fail)) << describe(c.findings);
  // https://github.com/tensorflow/tensorflow/issues/38990: "Num GPUs: 0" with nothing of the
  // machine shown is a CPU machine's healthy answer as much as a failure: no failure.
  const auto alone = check_text("Num GPUs: 0\n");
  EXPECT_FALSE(has_id(alone, "symptom.unexplained", Severity::fail)) << describe(alone.findings);
}

TEST(PasteRound8, TensorflowsPluginRegistrationLinesAreNoFailure) {
  // https://github.com/SamuelSchmidgall/AgentLaboratory/issues/27: logged at error level, and the
  // GPU is listed right after.
  const auto c = check_text(
      "E0000 00:00:1736841518.537290   68237 cuda_dnn.cc:8310] Unable to register cuDNN factory: "
      "Attempting to register factory for plugin cuDNN when one has already been registered\n"
      "E0000 00:00:1736841518.542173   68237 cuda_blas.cc:1418] Unable to register cuBLAS factory: "
      "Attempting to register factory for plugin cuBLAS when one has already been registered\n"
      "[PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]\n");
  EXPECT_TRUE(ids(c.findings, Severity::warn).empty()) << describe(c.findings);
  EXPECT_NE(find_finding(c.findings, "tensorflow.plugin_registered_twice"), nullptr);
}

TEST(PasteRound8, XlasCudnnMismatchUnderJaxIsJaxsWithBothVersions) {
  // XLA prints the same words under JAX and TensorFlow; jaxlib's exception says which. The
  // mismatch line is https://github.com/Kaggle/docker-python/issues/1435's wording.
  const auto c = check_text(
      "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed.\n"
      "Loaded runtime CuDNN library: 9.0.0 but source was compiled with: 9.3.0.  CuDNN library "
      "needs to have matching major version and equal or higher minor version.\n");
  const Finding* f = find_finding(c.findings, "python.jax_cuda");
  ASSERT_NE(f, nullptr) << describe(c.findings);
  EXPECT_NE(f->title.find("9.3.0"), std::string::npos) << f->title;
  EXPECT_EQ(find_finding(c.findings, "python.tensorflow_cudnn"), nullptr) << describe(c.findings);
}

}  // namespace paste_round8_test
}  // namespace gpudoctor
