// GPU identity everywhere: the pci.ids built in at build time names every GPU and its chip where
// the root has no pci.ids (a container, a --sysroot tree, a report), and the chip gives an
// NVIDIA GPU its compute capability (data/compat/gpu_compute_capability.json, kind "chip").
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "api/pci/gpu_ids.hpp"
#include "api/pci/pci_ids_table.hpp"
#include "checks/check_list.hpp"
#include "compat/compat_query.hpp"
#include "devices.hpp"
#include "json.hpp"
#include "pci_gpu.hpp"
#include "text.hpp"

namespace gpudoctor {
namespace gpu_identity_test {

const CompatData& data() { return builtin_compat(); }

std::string name_of(std::uint16_t vendor, std::uint16_t device) {
  auto n = builtin_device_name(vendor, device);
  return n ? std::string(*n) : "(none)";
}

TEST(BuiltinPciIds, HoldsTheGpuVendorsSortedAndNothingElse) {
  const PciIdsTable& t = builtin_pci_ids();
  EXPECT_FALSE(t.version.empty());
  ASSERT_GT(t.device_count, 1500u);  // 10de, 1002 and Intel's graphics: thousands of lines
  for (std::size_t i = 1; i < t.device_count; ++i) {
    const auto& a = t.devices[i - 1];
    const auto& b = t.devices[i];
    ASSERT_TRUE(std::make_pair(a.vendor, a.device) < std::make_pair(b.vendor, b.device))
        << std::hex << b.vendor << ":" << b.device;  // lower_bound needs this order
  }
  std::set<std::uint16_t> vendors;
  for (std::size_t i = 0; i < t.device_count; ++i) vendors.insert(t.devices[i].vendor);
  // data/pci/README.md says why these and no others.
  EXPECT_EQ(vendors, (std::set<std::uint16_t>{0x1002, 0x10de, 0x1a03, 0x1af4, 0x1ed5, 0x8086}));
  EXPECT_EQ(builtin_vendor_name(0x10de), std::optional<std::string_view>("NVIDIA Corporation"));
  EXPECT_EQ(builtin_class_name(0x030200), std::optional<std::string_view>("3D controller"));
  EXPECT_EQ(builtin_class_name(0x030000), std::optional<std::string_view>("VGA compatible controller"));
}

TEST(BuiltinPciIds, NamesTheFixtureMachinesGpus) {
  // The GPUs of tests/fixtures, by the ids their sysfs trees hold.
  EXPECT_EQ(name_of(0x10de, 0x20b0), "GA100 [A100 SXM4 40GB]");         // server-a100-sxm4
  EXPECT_EQ(name_of(0x10de, 0x2191), "TU116M [GeForce GTX 1660 Ti Mobile]");  // laptop-optimus
  EXPECT_EQ(name_of(0x8086, 0x9bc4), "CometLake-H GT2 [UHD Graphics]");
  EXPECT_EQ(name_of(0x1002, 0x687f), "Vega 10 XL/XT [Radeon RX Vega 56/64]");  // desktop-radeon
  EXPECT_EQ(name_of(0x1002, 0x731f), "Navi 10 [Radeon RX 5600 OEM/5600 XT / 5700/5700 XT]");
  // Functions of GPU vendors that are not GPUs stay out: GA102's HDMI audio, an Intel NIC.
  EXPECT_EQ(name_of(0x10de, 0x1aef), "(none)");
  EXPECT_EQ(name_of(0x8086, 0x15f3), "(none)");
  EXPECT_EQ(name_of(0x10de, 0xffff), "(none)");
}

TEST(BuiltinPciIds, ChipIsWhatPciIdsWritesBeforeTheProduct) {
  EXPECT_EQ(chip_from_pci_name("GA102 [GeForce RTX 3090]"), "GA102");
  EXPECT_EQ(chip_from_pci_name("GH100[H100 SXM5 80GB]"), "GH100");  // 2023's spelling
  EXPECT_EQ(chip_from_pci_name("Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT]"),
            "Navi 22");
  EXPECT_EQ(chip_from_pci_name("GK208B"), "GK208B");
  EXPECT_EQ(chip_from_pci_name("HD Graphics 620"), std::nullopt);
  EXPECT_EQ(nvidia_chip_key("GA102GL"), "GA102");
  EXPECT_EQ(nvidia_chip_key("GK110BGL"), "GK110");
  EXPECT_EQ(nvidia_chip_key("TU116M"), "TU116");
  EXPECT_EQ(nvidia_chip_key("Navi 22"), "");
}

/// Every NVIDIA chip family CUDA still knows (Kepler on): its pci.ids code names it.
bool modern_nvidia_chip(const std::string& key) {
  for (const char* f : {"GK", "GM", "GP", "GV", "TU", "GA", "AD", "GH", "GB"}) {
    if (key.rfind(f, 0) == 0 && key.size() > 2 && std::isdigit(static_cast<unsigned char>(key[2])))
      return true;
  }
  return false;
}

TEST(ChipComputeCapability, EveryBuiltinNvidiaGpuOfAKnownFamilyGetsOne) {
  const PciIdsTable& t = builtin_pci_ids();
  int judged = 0;
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < t.device_count; ++i) {
    const auto& d = t.devices[i];
    if (d.vendor != 0x10de) continue;
    const std::string name(t.names + d.name);
    auto chip = chip_from_pci_name(name);
    if (!chip || !modern_nvidia_chip(nvidia_chip_key(*chip))) continue;
    // Chips of pci.ids 2026.08.22 that no NVIDIA document gpudoctor read gives a compute
    // capability (gpu_compute_capability.json's notes): GK11x emulation parts, B100/DRIVE
    // GB102, the GB10B/GB20B SoC GPUs, and GB110/GB112/GB120 (B300 and unnamed parts).
    static const std::set<std::string> unpublished = {"GK11",  "GB102", "GB10", "GB20",
                                                      "GB110", "GB112", "GB120"};
    if (unpublished.count(nvidia_chip_key(*chip)) != 0) continue;
    ++judged;
    const bool by_board = compute_capability_for_pci(data(), 0x10de, d.device).has_value();
    if (!by_board && !compute_capability_for_chip(data(), *chip)) {
      missing.push_back(hex(d.device, 4) + " " + name);
    }
  }
  EXPECT_GT(judged, 600);
  EXPECT_TRUE(missing.empty()) << join(missing, "\n");
}

TEST(ChipComputeCapability, AgreesWithNvidiasTableForEveryBoardItNames) {
  // Where pci.ids' product name is a model NVIDIA's page lists, the chip's row must give that
  // model's compute capability. Four entries give a product name NVIDIA also sold on other
  // silicon; the chip decides there (a GK106 card is Kepler whatever its box says).
  const std::set<std::uint16_t> other_silicon = {
      0x1082,  // GF110 [GeForce GTX 560 Ti OEM]: the GF114 card's name on a GF110
      0x1087,  // GF110 [GeForce GTX 560 Ti 448 Cores]
      0x11c7,  // GK106 [GeForce GTX 750 Ti]: the GM107 card's name on a GK106
      0x1407,  // GM206 [GeForce GTX 750 v2]: the GM107 card's name on a GM206
  };
  const PciIdsTable& t = builtin_pci_ids();
  int compared = 0;
  for (std::size_t i = 0; i < t.device_count; ++i) {
    const auto& d = t.devices[i];
    if (d.vendor != 0x10de || other_silicon.count(d.device) != 0) continue;
    const std::string name(t.names + d.name);
    auto chip = chip_from_pci_name(name);
    auto open = name.find('[');
    if (!chip || open == std::string::npos) continue;
    auto by_chip = compute_capability_for_chip(data(), *chip);
    auto by_model = compute_capability_for_model(data(), name.substr(open));
    if (!by_chip || !by_model) continue;
    ++compared;
    EXPECT_EQ(by_chip->cc, by_model->cc) << hex(d.device, 4) << " " << name << " → model "
                                         << by_model->model;
  }
  EXPECT_GT(compared, 150);
}

TEST(ChipComputeCapability, EachChipRowsBoardsStateItsValue) {
  ASSERT_GE(data().gpu_chips.size(), 40u);
  for (const GpuChip& c : data().gpu_chips) {
    ASSERT_FALSE(c.boards.empty()) << c.chip;
    for (const std::string& board : c.boards) {
      auto m = std::find_if(data().gpu_models.begin(), data().gpu_models.end(),
                            [&](const GpuModel& g) { return g.model == board; });
      ASSERT_NE(m, data().gpu_models.end()) << c.chip << ": " << board << " has no model row";
      EXPECT_EQ(m->cc, c.cc) << c.chip << " vs " << board;
    }
  }
}

TEST(ChipComputeCapability, SpotChecksAgainstNvidiasPublishedTable) {
  auto cc = [](const char* chip) {
    auto r = compute_capability_for_chip(data(), chip);
    return r ? numeric_string(r->cc) : std::string("unknown");
  };
  // developer.nvidia.com/cuda-gpus and its legacy page, by a board of each chip.
  EXPECT_EQ(cc("GK104GL"), "3.0");     // Tesla K10
  EXPECT_EQ(cc("GK110B"), "3.5");    // GeForce GTX 780 Ti
  EXPECT_EQ(cc("GK210GL"), "3.7");   // Tesla K80
  EXPECT_EQ(cc("GM107"), "5.0");       // GeForce GTX 750 Ti
  EXPECT_EQ(cc("GM204"), "5.2");     // GeForce GTX 980
  EXPECT_EQ(cc("GP100GL"), "6.0");     // Tesla P100
  EXPECT_EQ(cc("GP104"), "6.1");     // GeForce GTX 1080
  EXPECT_EQ(cc("GV100GL"), "7.0");     // V100
  EXPECT_EQ(cc("TU116M"), "7.5");    // Turing (the programming guide)
  EXPECT_EQ(cc("GA100"), "8.0");       // A100
  EXPECT_EQ(cc("GA102"), "8.6");     // GeForce RTX 3090
  EXPECT_EQ(cc("AD104GL"), "8.9");   // L4
  EXPECT_EQ(cc("GH100"), "9.0");       // H100
  EXPECT_EQ(cc("GB100"), "10.0");      // B200
  EXPECT_EQ(cc("GB202"), "12.0");      // GeForce RTX 5090
  EXPECT_EQ(cc("GB102"), "unknown");  // B100: no document read
  EXPECT_EQ(cc("GF108"), "unknown");  // Fermi boards not read
}

TEST(GpuIdentity, AReportWithoutNamesGetsThemAndTheComputeCapabilityFromTheChip) {
  // A report from a container with no pci.ids: only ids. A GA102 board id no table lists.
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(test::pci_gpu(0x10de, 0x2208, "nvidia"));  // GA102 [RTX 3080 Ti]
  auto devices = merge_devices(s);
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].name, "GA102 [GeForce RTX 3080 Ti]");
  EXPECT_EQ(devices[0].name_source, "builtin pci.ids");
  EXPECT_EQ(devices[0].chip, "GA102");
  EXPECT_FALSE(compute_capability_for_pci(data(), 0x10de, 0x2208));  // no board row
  auto caps = nvidia_capabilities(CheckInput{s, devices, data()});
  ASSERT_EQ(caps.size(), 1u);
  ASSERT_TRUE(caps[0].cc);
  EXPECT_EQ(numeric_string(*caps[0].cc), "8.6");
  EXPECT_NE(caps[0].cc_source->find("its chip GA102"), std::string::npos) << *caps[0].cc_source;
}

TEST(GpuIdentity, AnAmdGpuKfdNamesOnlyByTargetGetsItsChip) {
  // KFD names no product: "AMD GPU (gfx1031)" becomes pci.ids' Navi 22 entry.
  Snapshot s;
  s.rocm = RocmInfo{};
  KfdNode n;
  n.node = 1;
  n.gfx_target = "gfx1031";
  n.vendor_id = 0x1002;
  n.device_id = 0x73df;
  s.rocm->nodes.push_back(n);
  auto d = merge_devices(s);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].chip, "Navi 22");
  EXPECT_EQ(d[0].name_source, "builtin pci.ids");
}

}  // namespace gpu_identity_test
}  // namespace gpudoctor
