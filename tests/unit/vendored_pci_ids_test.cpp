// The vendored pci.ids (data/pci/gpu.ids, upstream 2026.08.22) names the GPUs Debian 12's copy
// of April 2023 did not, and NVIDIA's device-id ranges (data/pci/nvidia_device_id_ranges.json)
// place an id newer than both: said as inferred, and an id outside every range stays unknown,
// so the arch check says "not examined" instead of passing.
#include <gtest/gtest.h>

#include "api/pci/gpu_ids.hpp"
#include "api/pci/pci_ids_table.hpp"
#include "checks/check_list.hpp"
#include "checks/checks.hpp"
#include "compat/compat_data.hpp"
#include "compat/compat_query.hpp"
#include "devices.hpp"
#include "pci_gpu.hpp"
#include "text.hpp"

namespace gpudoctor {
namespace vendored_pci_ids_test {

std::string name_of(std::uint16_t vendor, std::uint16_t device) {
  auto n = builtin_device_name(vendor, device);
  return n ? std::string(*n) : "(none)";
}

TEST(VendoredPciIds, IsTheUpstreamSnapshotNotTheDistributions) {
  EXPECT_EQ(builtin_pci_ids_version(), "2026.08.22");
  EXPECT_GT(builtin_device_count(), 2500u);
}

TEST(VendoredPciIds, NamesGpusNewerThanDebian12sCopy) {
  // Each line as data/pci/gpu.ids (pciutils/pciids c1c12547) writes it.
  EXPECT_EQ(name_of(0x10de, 0x2b85), "GB202 [GeForce RTX 5090]");
  EXPECT_EQ(name_of(0x10de, 0x2901), "GB100 [B200]");
  EXPECT_EQ(name_of(0x1002, 0x7550), "Navi 48 [Radeon RX 9070/9070 XT/9070 GRE]");
  EXPECT_EQ(name_of(0x8086, 0xe20b), "Battlemage G21 [Arc B580]");
  EXPECT_EQ(name_of(0x1002, 0x1586),
            "Strix Halo [Radeon Graphics / Radeon 8050S Graphics / Radeon 8060S Graphics]");
  EXPECT_EQ(name_of(0x8086, 0x64a0),
            "Core Ultra 200V Series Processors Arc Graphics 130V/140V GPU");  // Lunar Lake
  EXPECT_EQ(name_of(0x1ed5, 0x0201), "MTT S80");
  EXPECT_EQ(name_of(0x1af4, 0x1050), "Virtio 1.0 GPU");
  // What is not a GPU stays out: Moore Threads' HDMI audio, virtio's network device.
  EXPECT_EQ(name_of(0x1ed5, 0x01ff), "(none)");
  EXPECT_EQ(name_of(0x1af4, 0x1041), "(none)");
  EXPECT_EQ(chip_from_pci_name(name_of(0x10de, 0x2b85)), "GB202");
}

TEST(DeviceIdRanges, EveryRangeHoldsOnlyItsChipsKnownIds) {
  // The derivation's own promise, checked against the built-in table: every named NVIDIA GPU
  // inside a range is that range's chip.
  const PciIdsTable& t = builtin_pci_ids();
  ASSERT_GE(t.range_count, 30u);
  int inside = 0;
  for (std::size_t i = 0; i < t.device_count; ++i) {
    const auto& d = t.devices[i];
    if (d.vendor != 0x10de) continue;
    auto r = device_id_range(0x10de, d.device);
    auto chip = chip_from_pci_name(t.names + d.name);
    if (!r || !chip || chip->find("NVSwitch") != std::string::npos) continue;
    const std::string name(t.names + d.name);
    if (name.find("Audio") != std::string::npos || name.find("USB") != std::string::npos) continue;
    ++inside;
    EXPECT_EQ(nvidia_chip_key(*chip), r->chip) << hex(d.device, 4) << " " << name;
  }
  EXPECT_GT(inside, 550);  // 586 in 2026.08.22
}

TEST(DeviceIdRanges, AnIdNoTableNamesInsideABlockIsThatChipInferred) {
  // 0x2b90 is in no pci.ids line; GB202's known ids (0x2b85…0x2bbc) fill 0x2b80-0x2bff.
  ASSERT_EQ(name_of(0x10de, 0x2b90), "(none)");
  auto id = infer_identity(0x10de, 0x2b90);
  ASSERT_TRUE(id);
  EXPECT_TRUE(id->inferred);
  EXPECT_EQ(id->chip, "GB202");
  EXPECT_EQ(id->architecture, "Blackwell");
  EXPECT_EQ(id->compute_capability, "12.0");
  EXPECT_EQ(id->how, "inferred from the device id range 0x2b80-0x2bff");
  auto h = infer_identity(0x10de, 0x2390);  // GH100's two blocks joined: 0x2300-0x23ff
  ASSERT_TRUE(h);
  EXPECT_EQ(h->chip, "GH100");
  EXPECT_EQ(h->compute_capability, "9.0");
}

TEST(DeviceIdRanges, AnIdOutsideEveryRangeIsUnknown) {
  EXPECT_FALSE(infer_identity(0x10de, 0x3f00));  // past every allocation in pci.ids
  EXPECT_FALSE(infer_identity(0x10de, 0x1180));  // GK104 and GK106 share 0x1180-0x11ff
  EXPECT_FALSE(infer_identity(0x1002, 0x7590));  // no AMD ranges (data/pci/README.md)
  auto b = infer_identity(0x10de, 0x3190);       // GB110: placed, no compute capability
  ASSERT_TRUE(b);
  EXPECT_EQ(b->architecture, "Blackwell");
  EXPECT_FALSE(b->compute_capability);
}

TEST(DeviceIdRanges, TheProbesFillerMarksOnlyUnnamedGpus) {
  PciDevice unknown = test::pci_gpu(0x10de, 0x2b90);
  fill_builtin_names(unknown);
  EXPECT_FALSE(unknown.device_name);
  ASSERT_TRUE(unknown.inferred);
  EXPECT_EQ(unknown.inferred->chip, "GB202");
  PciDevice known = test::pci_gpu(0x10de, 0x2b85);
  fill_builtin_names(known);
  EXPECT_EQ(known.device_name, "GB202 [GeForce RTX 5090]");
  EXPECT_FALSE(known.inferred);
  PciDevice beyond = test::pci_gpu(0x10de, 0x3f00);
  fill_builtin_names(beyond);
  EXPECT_FALSE(beyond.device_name);
  EXPECT_FALSE(beyond.inferred);
}

/// An NVIDIA GPU known only by its PCI id (no driver answered) and torch 2.5.1+cu121 whose
/// libtorch_cuda.so was read to carry sm_50…sm_90 and compute_90.
Snapshot torch_cu121_on(std::uint16_t device) {
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(test::pci_gpu(0x10de, device));
  PythonPackage torch;
  torch.name = "torch";
  torch.version = "2.5.1";
  torch.location = "/home/u/venv/lib/python3.11/site-packages";
  TorchBuildInfo b;
  b.version = "2.5.1+cu121";
  b.local_version = "cu121";
  b.cuda = "12.1";
  torch.torch = b;
  GpuCodeLibrary lib;
  lib.path = torch.location + "/torch/lib/libtorch_cuda.so";
  lib.sass = {"sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"};
  lib.ptx = {"compute_90"};
  lib.cuda_fatbins = 340;
  torch.gpu_code.push_back(lib);
  PythonEnv env;
  env.kind = "venv";
  env.prefix = "/home/u/venv";
  env.site_packages = {torch.location};
  env.packages.push_back(torch);
  s.python = PythonInfo{};
  s.python->envs.push_back(env);
  return s;
}

std::vector<Finding> arch_findings(const Snapshot& s) {
  auto devices = merge_devices(s);
  std::vector<Finding> out;
  for (auto& f : run_checks(CheckInput{s, devices, builtin_compat()})) {
    if (f.id == "python.torch_arch") out.push_back(std::move(f));
  }
  return out;
}

TEST(DeviceIdRanges, AnInferredGpuIsJudgedAndSaysSo) {
  Snapshot s = torch_cu121_on(0x2b90);
  auto devices = merge_devices(s);
  auto caps = nvidia_capabilities(CheckInput{s, devices, builtin_compat()});
  ASSERT_EQ(caps.size(), 1u);
  ASSERT_TRUE(caps[0].cc);
  EXPECT_EQ(numeric_string(*caps[0].cc), "12.0");
  EXPECT_TRUE(caps[0].cc_inferred);
  EXPECT_NE(caps[0].cc_source->find("inferred from the device id range 0x2b80-0x2bff"),
            std::string::npos)
      << *caps[0].cc_source;
  // Its sm_120 is reached only through compute_90 PTX: judged, the inference in the evidence.
  auto f = arch_findings(s);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::warn);
  EXPECT_NE(join(f[0].evidence, "\n").find("inferred from the device id range"), std::string::npos);
}

TEST(DeviceIdRanges, AnUnplacedGpuIsNotExaminedNeverPassed) {
  auto f = arch_findings(torch_cu121_on(0x3f00));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::info);
  EXPECT_EQ(f[0].title.rfind("not examined: the compute capability of", 0), 0u) << f[0].title;
}

}  // namespace vendored_pci_ids_test
}  // namespace gpudoctor
