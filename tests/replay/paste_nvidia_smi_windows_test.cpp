// nvidia-smi's Windows table (TCC/WDDM) whole and sliced (tests/fixtures/pastes/nvidia-smi-windows/):
// the driver and its CUDA from the header, every GPU from its rows even without the header.
#include "paste_fragments.hpp"
#include "paste_support.hpp"

namespace gpudoctor {
namespace paste_nvidia_smi_windows_test {

using namespace paste_test;
using namespace paste_fragments;

TEST(PasteNvidiaSmiWindows, TccAndWddmGpusWithTheWindowsDriver) {
  for (const auto& [how, piece] : fragments(paste_fixture("nvidia-smi-windows/wsl-9254-p100-tcc-geforce-wddm.txt"))) {
    SCOPED_TRACE(how);
    const auto c = check_text(piece);
    const auto& s = c.reading.snapshot;
    ASSERT_TRUE(s.nvml);
    EXPECT_EQ(s.nvml->driver_version, "526.98");
    EXPECT_EQ(s.nvml->cuda_driver_version, 12000);
    ASSERT_EQ(s.nvml->devices.size(), 2u);
    EXPECT_EQ(s.nvml->devices[0].pci_bus_id, "00000000:04:00.0");
    EXPECT_EQ(s.nvml->devices[1].pci_bus_id, "00000000:81:00.0");
    ASSERT_TRUE(s.host);
    EXPECT_EQ(s.host->os_id, "windows");
    EXPECT_TRUE(ids(c.findings, Severity::warn).empty()) << describe(c.findings);
  }
}

TEST(PasteNvidiaSmiWindows, RowsWithoutTheHeaderAreStillNvidiaSmi) {
  const std::string text = paste_fixture("nvidia-smi-windows/wsl-9254-p100-tcc-geforce-wddm.txt");
  const std::string rows = text.substr(text.find("|   0  Tesla"));
  for (const auto& [how, piece] : fragments(rows)) {
    SCOPED_TRACE(how);
    const auto c = check_text(piece);
    EXPECT_TRUE(has_part(c.reading, "nvidia-smi"));
    const auto& s = c.reading.snapshot;
    ASSERT_TRUE(s.nvml);
    if (how == "without its first line") continue;  // GPU 0's row is the line dropped
    ASSERT_EQ(s.nvml->devices.size(), 2u);
    EXPECT_EQ(s.nvml->devices[0].name, "Tesla P100-PCIE...");
    EXPECT_EQ(s.nvml->devices[1].memory_total_bytes, 11264ull * 1024 * 1024);
    EXPECT_TRUE(ids(c.findings, Severity::warn).empty()) << describe(c.findings);
  }
}

TEST(PasteNvidiaSmiWindows, ABacktickBeforeThePromptChangesNothing) {
  const auto c = check_text(paste_fixture("nvidia-smi-windows/wsl-6014-rtx2070-wddm-460.15-backtick.txt"));
  ASSERT_TRUE(c.reading.snapshot.nvml);
  EXPECT_EQ(c.reading.snapshot.nvml->driver_version, "460.15");
  EXPECT_EQ(c.reading.snapshot.nvml->cuda_driver_version, 11010);
  EXPECT_TRUE(ids(c.findings, Severity::warn).empty()) << describe(c.findings);
}

TEST(PasteNvidiaSmiWindows, TwoTablesWithTwoDriversAreAConflict) {
  // Two real tables pasted together (two machines, or before and after an update): which driver
  // is the machine's is not known, so it is said, not chosen.
  const auto c = check_text(paste_fixture("nvidia-smi-windows/wsl-9254-p100-tcc-geforce-wddm.txt") +
                            paste_fixture("nvidia-smi-windows/wsl-6014-rtx2070-wddm-460.15-backtick.txt"));
  const auto found = ids(c.findings, Severity::warn);
  EXPECT_TRUE(found.count("paste.conflicting_values")) << describe(c.findings);
  // One table alone never is.
  EXPECT_FALSE(ids(check_text(paste_fixture("nvidia-smi-windows/wsl-9254-p100-tcc-geforce-wddm.txt")).findings,
                   Severity::warn)
                   .count("paste.conflicting_values"));
}

}  // namespace paste_nvidia_smi_windows_test
}  // namespace gpudoctor
