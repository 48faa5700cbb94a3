// nvcc --version, /proc/version and uname -a, whole or inside a sentence
// (tests/fixtures/pastes/nvcc/): the toolkit, the kernel, WSL 1 or 2.
#include "paste_fragments.hpp"
#include "paste_support.hpp"

namespace gpudoctor {
namespace paste_system_strings_test {

using namespace paste_test;
using namespace paste_fragments;

TEST(PasteSystemStrings, NvccVersionAfterAPromptIsOneToolkitAndAllItsLinesAreRead) {
  const std::string text = paste_fixture("nvcc/wsl-14503-nvcc-13.2-prompt.txt");
  for (const auto& [how, piece] : fragments(text)) {
    SCOPED_TRACE(how);
    const auto c = check_text(piece);
    const auto& s = c.reading.snapshot;
    ASSERT_TRUE(s.nvidia);
    ASSERT_EQ(s.nvidia->toolkits.size(), 1u);
    EXPECT_EQ(s.nvidia->toolkits[0].version, "13.2.51");
    EXPECT_TRUE(ids(c.findings, Severity::warn).empty()) << describe(c.findings);
  }
  // The prompt that ran nvcc is read with its output; the table above it is nvidia-smi's.
  const auto c = check_text(text);
  EXPECT_TRUE(has_part(c.reading, "nvidia-smi"));
  ASSERT_EQ(c.reading.unrecognised.size(), 1u);  // only the next prompt ("cd repos/llama.cpp/")
  EXPECT_EQ(c.reading.unrecognised[0].first, 14);
}

TEST(PasteSystemStrings, AWsl2KernelInsideASentenceMakesTheHostWsl2) {
  for (const auto& [how, piece] : fragments(paste_fixture("nvcc/wsl-9821-kernel-wsl2-smi-528-prose.txt"))) {
    SCOPED_TRACE(how);
    const auto checked = check_text(piece);
    const auto& s = checked.reading.snapshot;
    ASSERT_TRUE(s.host);
    EXPECT_EQ(s.host->kernel_release, "5.15.90.1-microsoft-standard-WSL2");
    EXPECT_TRUE(s.host->wsl);
    EXPECT_EQ(s.host->wsl_version, "2");
  }
  const auto c = check_text(paste_fixture("nvcc/pytorch-85332-smi-nvcc-prose.txt"));
  ASSERT_TRUE(c.reading.snapshot.nvidia);
  ASSERT_FALSE(c.reading.snapshot.nvidia->toolkits.empty());
  EXPECT_EQ(c.reading.snapshot.nvidia->toolkits[0].version, "10.2.89");
}

TEST(PasteSystemStrings, TheWsl1KernelIsWsl1) {
  const auto c = check_text(paste_fixture("nvcc/wsl-5554-kernel-headers-4.4.0-microsoft-wsl1.txt"));
  const auto& s = c.reading.snapshot;
  ASSERT_TRUE(s.host);
  EXPECT_EQ(s.host->kernel_release, "4.4.0-19041-Microsoft");
  EXPECT_TRUE(s.host->wsl);
  EXPECT_EQ(s.host->wsl_version, "1");
}

TEST(PasteSystemStrings, AKernelOfAnotherDistributionIsNotWsl) {
  const auto c = check_text(paste_fixture("amd-smi/rocm-systems-2987-mi350x-static.txt"));
  ASSERT_TRUE(c.reading.snapshot.host);
  EXPECT_FALSE(c.reading.snapshot.host->wsl);
}

}  // namespace paste_system_strings_test
}  // namespace gpudoctor
