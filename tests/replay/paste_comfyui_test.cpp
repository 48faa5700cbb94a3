// ComfyUI's start-up log and system information (tests/fixtures/pastes/comfyui/): torch's build
// and the GPU behind any of its log prefixes, and never the TensorFlow template reader's.
#include "paste_fragments.hpp"
#include "paste_support.hpp"

namespace gpudoctor {
namespace paste_comfyui_test {

using namespace paste_test;
using namespace paste_fragments;

TEST(PasteComfyui, StartUpGivesTorchsBuildAndTheGpu) {
  const std::vector<std::tuple<const char*, const char*, const char*>> cases = {
      {"comfyui/comfyui-8010-rtx4090-cu128-powershell.txt", "2.7.0+cu128", "NVIDIA GeForce RTX 4090"},
      {"comfyui/comfyui-5278-rtx2060-logging-prefix.txt", "2.4.1+cu124", "NVIDIA GeForce RTX 2060"},
  };
  for (const auto& [file, torch_version, gpu] : cases) {
    SCOPED_TRACE(file);
    for (const auto& [how, piece] : fragments(paste_fixture(file))) {
      SCOPED_TRACE(how);
      const auto c = check_text(piece);
      EXPECT_TRUE(has_part(c.reading, "ComfyUI start-up / system information"));
      EXPECT_FALSE(has_part(c.reading, "tensorflow"));
      const PythonPackage* torch = package(c.reading.snapshot, "torch");
      ASSERT_NE(torch, nullptr);
      ASSERT_TRUE(torch->torch);
      EXPECT_EQ(torch->torch->version, torch_version);
      ASSERT_TRUE(c.reading.snapshot.nvml);
      ASSERT_FALSE(c.reading.snapshot.nvml->devices.empty());
      EXPECT_EQ(c.reading.snapshot.nvml->devices[0].name, gpu);
      EXPECT_TRUE(ids(c.findings, Severity::warn).empty()) << describe(c.findings);
    }
  }
}

TEST(PasteComfyui, ItsOwnLinesAreReadNotLeftOver) {
  const auto c = check_text(paste_fixture("comfyui/comfyui-8010-rtx4090-cu128-powershell.txt"));
  // What is left: the launch command and the custom node's own messages, none of ComfyUI's.
  for (const auto& [from, to] : c.reading.unrecognised) {
    for (int n = from; n <= to; ++n) {
      const PasteLine* l = line_numbered(c.reading.lines, n);
      ASSERT_NE(l, nullptr);
      EXPECT_EQ(l->text.find("ComfyUI version"), std::string::npos) << n;
      EXPECT_EQ(l->text.find("Total VRAM"), std::string::npos) << n;
    }
  }
  ASSERT_TRUE(c.reading.snapshot.host);
  EXPECT_EQ(c.reading.snapshot.host->os_id, "windows");
}

}  // namespace paste_comfyui_test
}  // namespace gpudoctor
