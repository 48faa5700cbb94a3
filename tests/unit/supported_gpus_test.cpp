// The NVIDIA driver's own GPU table (supported-gpus.json): read from a real-format excerpt
// (tests/fixtures/driver-tables/, its README says where each row comes from), found where
// packages install it, and its names winning over pci.ids'.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/root.hpp"
#include "devices.hpp"
#include "nvidia/nvidia_readers.hpp"
#include "parse/nvidia_supported_gpus.hpp"
#include "pci_gpu.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

std::string excerpt() {
  std::ifstream in(test::fixture_path("driver-tables") + "/supported-gpus.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const DriverGpuEntry& row(const SupportedGpus& t, std::uint16_t device,
                          std::optional<std::uint16_t> sub_vendor = std::nullopt,
                          std::optional<std::uint16_t> sub_device = std::nullopt) {
  const DriverGpuEntry* r = supported_gpu_row(t.rows, device, sub_vendor, sub_device);
  if (r == nullptr) throw std::runtime_error("no row");
  return *r;
}

TEST(SupportedGpus, ReadsEveryRowOfTheExcerpt) {
  SupportedGpus t = parse_supported_gpus(excerpt());
  ASSERT_FALSE(t.error) << *t.error;
  ASSERT_EQ(t.rows.size(), 10u);
  const auto& b = row(t, 0x2b85);
  EXPECT_EQ(b.name, "NVIDIA GeForce RTX 5090");
  EXPECT_FALSE(b.legacy_branch);
  EXPECT_EQ(b.features.back(), "kernelopen");
}

TEST(SupportedGpus, SaysWhichModuleEachGpuNeeds) {
  SupportedGpus t = parse_supported_gpus(excerpt());
  // Blackwell and Grace Hopper: the open module only.
  EXPECT_TRUE(row(t, 0x2b85).needs_open_module);
  EXPECT_TRUE(row(t, 0x2d04).needs_open_module);
  EXPECT_TRUE(row(t, 0x2342, 0x10de, 0x16eb).needs_open_module);
  // Turing and Ampere: either module.
  EXPECT_TRUE(row(t, 0x1f96).open_module);
  EXPECT_FALSE(row(t, 0x1f96).needs_open_module);
  EXPECT_FALSE(row(t, 0x2484).needs_open_module);
  // Pascal in a 590+ file: a legacy row whose "kernelopen" describes the 580 branch.
  const auto& p = row(t, 0x1ba1);
  EXPECT_EQ(p.legacy_branch, "580.xx");
  EXPECT_FALSE(p.open_module);
  EXPECT_FALSE(p.needs_open_module);
}

TEST(SupportedGpus, WithoutTheGspFeatureAnywhereNothingIsSaidToNeedTheOpenModule) {
  // A file from before "gsp_proprietary_supported" existed: its absence means nothing.
  SupportedGpus t = parse_supported_gpus(
      R"({"chips":[{"devid":"0x2484","name":"NVIDIA GeForce RTX 3070","features":["kernelopen"]}]})");
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_TRUE(t.rows[0].open_module);
  EXPECT_FALSE(t.rows[0].needs_open_module);
}

TEST(SupportedGpus, ABoardsOwnRowWinsOverTheDevicesRow) {
  SupportedGpus t = parse_supported_gpus(excerpt());
  EXPECT_EQ(row(t, 0x1ba1, 0x1028, 0x08a1).name, "NVIDIA GeForce GTX 1070 with Max-Q Design");
  EXPECT_EQ(row(t, 0x1ba1, 0x1043, 0x1234).name, "NVIDIA GeForce GTX 1070");
  // A row only for one board names no other board of that device id.
  EXPECT_EQ(supported_gpu_row(t.rows, 0x2bb1, 0x17aa, 0x204b), nullptr);
}

TEST(SupportedGpus, BadInputSaysWhy) {
  EXPECT_EQ(parse_supported_gpus("{not json").error, "not JSON");
  EXPECT_EQ(parse_supported_gpus(R"({"gpus": []})").error, "no \"chips\" list");
  auto t = parse_supported_gpus(R"({"chips":[{"devid":"0xZZ","name":"x"},{"name":"y"},7]})");
  EXPECT_FALSE(t.error);
  EXPECT_TRUE(t.rows.empty());
}

/// A machine with one NVIDIA GPU at 0000:01:00.0 and the driver's documentation directory.
void gpu(const test::TempTree& t, const std::string& device, const std::string& sub_vendor,
         const std::string& sub_device) {
  const std::string d = "sys/bus/pci/devices/0000:01:00.0/";
  t.write(d + "vendor", "0x10de\n");
  t.write(d + "device", device + "\n");
  t.write(d + "class", "0x030000\n");
  t.write(d + "subsystem_vendor", sub_vendor + "\n");
  t.write(d + "subsystem_device", sub_device + "\n");
}

TEST(SupportedGpus, TheProbeFindsTheLoadedBranchsCopyAndKeepsThisMachinesRows) {
  test::TempTree t;
  gpu(t, "0x2bb1", "0x1028", "0x204b");
  t.write("usr/share/doc/nvidia-driver-570/supported-gpus.json", R"({"chips":[]})");
  t.write("usr/share/doc/nvidia-driver-580/supported-gpus.json", excerpt());
  const Root root(t.path());
  auto table = probe_driver_gpu_table(root, std::string("580.95.05"));
  ASSERT_TRUE(table);
  EXPECT_EQ(table->file, "/usr/share/doc/nvidia-driver-580/supported-gpus.json");
  EXPECT_EQ(table->rows, 10u);
  ASSERT_EQ(table->gpus.size(), 1u);
  EXPECT_EQ(table->gpus[0].name, "NVIDIA RTX PRO 6000 Blackwell Workstation Edition");
  EXPECT_TRUE(table->gpus[0].needs_open_module);
  // No module loaded: the highest branch installed.
  EXPECT_EQ(probe_driver_gpu_table(root, std::nullopt)->file,
            "/usr/share/doc/nvidia-driver-580/supported-gpus.json");
}

TEST(SupportedGpus, NoCopyIsNoTableAndABrokenOneSaysSo) {
  test::TempTree t;
  gpu(t, "0x2b85", "0x1043", "0x89e5");
  EXPECT_FALSE(probe_driver_gpu_table(Root(t.path()), std::nullopt));
  t.write("usr/share/nvidia/supported-gpus/supported-gpus.json", "<html>");
  auto table = probe_driver_gpu_table(Root(t.path()), std::nullopt);
  ASSERT_TRUE(table);
  EXPECT_EQ(table->error, "not JSON");
  EXPECT_TRUE(table->gpus.empty());
}

TEST(SupportedGpus, TheDriversNameWinsOverPciIdsWhereNoApiAnswered) {
  Snapshot s;
  s.pci = PciInfo{};
  PciDevice p = test::pci_gpu(0x10de, 0x2b85, "nvidia", "GB202 [GeForce RTX 5090]");
  p.name_source = "pci.ids";
  s.pci->devices.push_back(p);
  s.nvidia = NvidiaSystem{};
  s.nvidia->driver_gpu_table = DriverGpuTable{};
  s.nvidia->driver_gpu_table->gpus = parse_supported_gpus(excerpt()).rows;
  auto d = merge_devices(s);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].name, "NVIDIA GeForce RTX 5090");
  EXPECT_EQ(d[0].name_source, "supported-gpus.json");
  EXPECT_EQ(d[0].chip, "GB202");  // still pci.ids' chip
}

}  // namespace
}  // namespace gpudoctor
