// amd-smi pasted whole and in pieces (tests/fixtures/pastes/amd-smi/, corpus-27/README.md): the
// GPU, its gfx target and ids are read from the text form and from its JSON, valid or not.
#include "paste_fragments.hpp"
#include "paste_support.hpp"

namespace gpudoctor {
namespace paste_amd_smi_test {

using namespace paste_test;
using namespace paste_fragments;

const KfdNode* first_amd_gpu(const Snapshot& s) {
  return s.rocm && !s.rocm->nodes.empty() ? &s.rocm->nodes.front() : nullptr;
}

TEST(PasteAmdSmi, StaticTextGivesTheGpuItsTargetAndIds) {
  const auto c = check_text(paste_fixture("amd-smi/rocm-systems-2987-mi350x-static.txt"));
  EXPECT_TRUE(has_part(c.reading, "amd-smi"));
  const KfdNode* n = first_amd_gpu(c.reading.snapshot);
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->gfx_target, "gfx950");
  EXPECT_EQ(n->name, "AMD Instinct MI350X");
  EXPECT_EQ(n->device_id, 0x75a0u);
  EXPECT_EQ(n->compute_units, 128u);
  EXPECT_EQ(n->pci_address, "0000:05:00.0");
  ASSERT_TRUE(c.reading.snapshot.host);
  EXPECT_EQ(c.reading.snapshot.host->kernel_release, "5.15.0-164-generic");
  EXPECT_TRUE(c.reading.unrecognised.empty());
  EXPECT_TRUE(ids(c.findings, Severity::warn).empty()) << describe(c.findings);
}

TEST(PasteAmdSmi, EveryFragmentOfStaticStillNamesTheTarget) {
  const std::string text = paste_fixture("amd-smi/rocm-systems-2987-mi350x-static.txt");
  for (const auto& [how, piece] : fragments(text)) {
    SCOPED_TRACE(how);
    const auto c = check_text(piece);
    const KfdNode* n = first_amd_gpu(c.reading.snapshot);
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->gfx_target, "gfx950");
    EXPECT_TRUE(ids(c.findings, Severity::fail).empty()) << describe(c.findings);
  }
  // A middle slice: from the target's line on, with no "GPU: 0" and no "ASIC:" above it.
  const auto at = text.find("        NUM_COMPUTE_UNITS");
  const auto c = check_text(text.substr(at, 400));
  const KfdNode* n = first_amd_gpu(c.reading.snapshot);
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->gfx_target, "gfx950");
  EXPECT_EQ(n->compute_units, 128u);
}

TEST(PasteAmdSmi, ListThenStaticIsOneGpuAndThePromptsAreRead) {
  const auto c = check_text(paste_fixture("amd-smi/rocm-systems-3654-mi210-list-static.txt"));
  ASSERT_TRUE(c.reading.snapshot.rocm);
  ASSERT_EQ(c.reading.snapshot.rocm->nodes.size(), 1u);  // "GPU: 0" twice is one GPU
  const KfdNode& n = c.reading.snapshot.rocm->nodes.front();
  EXPECT_EQ(n.name, "AMD Instinct MI210");
  EXPECT_EQ(n.device_id, 0x740fu);
  EXPECT_EQ(n.pci_address, "0000:23:00.0");
  // The page cut the dump at "ASIC_SERIA": that remnant and the prompts are amd-smi's too.
  EXPECT_TRUE(c.reading.unrecognised.empty());
}

TEST(PasteAmdSmi, JsonIsReadEvenWhenItIsNotValidJson) {
  const auto ok = check_text(paste_fixture("amd-smi/openlinkhub-117-granite-ridge-asic-json.txt"));
  const KfdNode* n = first_amd_gpu(ok.reading.snapshot);
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->gfx_target, "gfx1036");
  EXPECT_EQ(n->name, "Granite Ridge [Radeon Graphics]");
  EXPECT_EQ(n->device_id, 0x13c0u);
  EXPECT_EQ(n->compute_units, 2u);
  for (const auto& [how, piece] :
       fragments(paste_fixture("amd-smi/openlinkhub-117-granite-ridge-asic-json.txt"))) {
    SCOPED_TRACE(how);
    const auto checked = check_text(piece);
    const KfdNode* m = first_amd_gpu(checked.reading.snapshot);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->gfx_target, "gfx1036");
  }
}

TEST(PasteAmdSmi, MonitorTableIsRecognisedNotRefused) {
  const auto c = check_text(paste_fixture("amd-smi/legacy-rocm-build-6035-strix-halo-monitor.txt"));
  EXPECT_TRUE(has_part(c.reading, "amd-smi"));
  EXPECT_TRUE(ids(c.findings, Severity::warn).empty()) << describe(c.findings);
}

TEST(PasteAmdSmi, UpperCaseKeysOfOtherToolsAreNotTaken) {
  // rocm-smi's and nvidia-smi -q's "KEY: value" blocks carry none of amd-smi's own keys.
  const auto c = check_text(paste_fixture("nvidia-smi-q/nvidia-docker-954-gtx1080.txt"));
  EXPECT_FALSE(has_part(c.reading, "amd-smi"));
}

}  // namespace paste_amd_smi_test
}  // namespace gpudoctor
