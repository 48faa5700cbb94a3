// CUDA.jl's versioninfo() in its layouts (tests/fixtures/pastes/cuda-jl/): the driver, its CUDA
// and the GPUs with their compute capability, whole and in pieces; healthy ones stay healthy.
#include "paste_fragments.hpp"
#include "paste_support.hpp"

namespace gpudoctor {
namespace paste_cuda_jl_test {

using namespace paste_test;
using namespace paste_fragments;

TEST(PasteCudaJl, OldLayoutGivesTheDriversCudaAndTheGpu) {
  const std::string text = paste_fixture("cuda-jl/cudajl-245-quadro-rtx5000-toolkit-10.2.txt");
  for (const auto& [how, piece] : fragments(text)) {
    SCOPED_TRACE(how);
    const auto c = check_text(piece);
    EXPECT_TRUE(has_part(c.reading, "CUDA.jl versioninfo"));
    const auto& s = c.reading.snapshot;
    ASSERT_TRUE(s.nvml);
    EXPECT_EQ(s.nvml->cuda_driver_version, 11000);
    if (how == "cut mid-line") continue;  // the device line is the one cut
    ASSERT_EQ(s.nvml->devices.size(), 1u);
    EXPECT_EQ(s.nvml->devices[0].name, "Quadro RTX 5000");
    EXPECT_EQ(s.nvml->devices[0].cc_major, 7);
    EXPECT_EQ(s.nvml->devices[0].cc_minor, 5);
    EXPECT_TRUE(ids(c.findings, Severity::warn).empty()) << describe(c.findings);
  }
}

TEST(PasteCudaJl, NewLayoutDoesNotJudgeItsRuntimeAgainstTheKernelDriver) {
  // "driver 570.172.8 for 13.0": CUDA.jl runs CUDA 13.0 on a 570 driver through its own
  // forward-compatible libcuda (CUDA_Driver_jll); no "driver too old" may come of it.
  const auto c = check_text(paste_fixture("cuda-jl/cudajl-2851-runtime-13.0-local-quadro-rtx4000.txt"));
  const auto& s = c.reading.snapshot;
  ASSERT_TRUE(s.nvml);
  EXPECT_EQ(s.nvml->driver_version, "570.172.8");
  ASSERT_EQ(s.nvml->devices.size(), 1u);
  EXPECT_EQ(s.nvml->devices[0].index, 0);
  EXPECT_EQ(s.nvml->devices[0].name, "Quadro RTX 4000");
  EXPECT_EQ(s.nvml->devices[0].cc_major, 7);
  EXPECT_TRUE(ids(c.findings, Severity::warn).empty()) << describe(c.findings);
  EXPECT_TRUE(c.reading.unrecognised.empty());
}

TEST(PasteCudaJl, ASliceWithoutItsFirstLinesIsStillCudaJls) {
  const std::string text = paste_fixture("cuda-jl/cudajl-245-quadro-rtx5000-toolkit-10.2.txt");
  const auto c = check_text(text.substr(text.find("Libraries:")));
  EXPECT_TRUE(has_part(c.reading, "CUDA.jl versioninfo"));
  ASSERT_TRUE(c.reading.snapshot.nvml);
  ASSERT_EQ(c.reading.snapshot.nvml->devices.size(), 1u);
  EXPECT_EQ(c.reading.snapshot.nvml->devices[0].cc_major, 7);
}

TEST(PasteCudaJl, ListsOfOtherProgramsAreNotCudaJls) {
  // "- name: version" lists without one of versioninfo's own lines stay unclaimed by it.
  const auto c = check_text(paste_fixture("comfyui/comfyui-5278-rtx2060-logging-prefix.txt"));
  EXPECT_FALSE(has_part(c.reading, "CUDA.jl versioninfo"));
}

}  // namespace paste_cuda_jl_test
}  // namespace gpudoctor
