// Merging the backends' device lists into one entry per physical device.
#include "devices.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "backends.hpp"
#include "facts/facts.hpp"

namespace gpudoctor {
namespace {

PciDevice pci(std::string address, std::uint16_t vendor, std::uint16_t device,
              std::uint32_t cls = 0x030200) {
  PciDevice p;
  p.address = std::move(address);
  p.vendor_id = vendor;
  p.device_id = device;
  p.class_code = cls;
  return p;
}

TEST(NormalizePciAddress, NvmlAndSysfsFormsAgree) {
  EXPECT_EQ(normalize_pci_address("00000000:01:00.0"), "0000:01:00.0");
  EXPECT_EQ(normalize_pci_address("0000:C1:00.0"), "0000:c1:00.0");
  EXPECT_EQ(normalize_pci_address("0001:0a:1f.7"), "0001:0a:1f.7");
  EXPECT_FALSE(normalize_pci_address("01:00.0"));
  EXPECT_FALSE(normalize_pci_address("0000:01:20.0"));  // device > 31
  EXPECT_FALSE(normalize_pci_address("garbage"));
}

TEST(NormalizeUuid, CudaAndVulkanFormsAgree) {
  // The same H100 as nvidia-smi and as Vulkan's deviceUUID print it.
  EXPECT_EQ(normalize_uuid("GPU-9a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9"),
            normalize_uuid("9a1b2c3d4e5f60718293a4b5c6d7e8f9"));
  EXPECT_EQ(normalize_uuid("MIG-ABCD"), "abcd");
}

TEST(MergeDevices, OneGpuSeenByEveryApiIsOneDevice) {
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(pci("0000:01:00.0", 0x10de, 0x2330));
  s.pci->devices.back().device_name = "GH100 [H100 SXM5 80GB]";
  s.nvml = NvmlInfo{};
  s.nvml->devices.push_back(NvmlDevice{});
  s.nvml->devices[0].pci_bus_id = "00000000:01:00.0";
  s.nvml->devices[0].name = "NVIDIA H100 80GB HBM3";
  s.nvml->devices[0].uuid = "GPU-9a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9";
  s.cuda = CudaInfo{};
  s.cuda->devices.push_back(CudaDevice{});
  s.cuda->devices[0].uuid = "GPU-9a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9";  // no bus id: joins on UUID
  s.vulkan = VulkanInfo{};
  s.vulkan->devices.push_back(VulkanDevice{});
  s.vulkan->devices[0].type = "discrete_gpu";
  s.vulkan->devices[0].device_uuid = "9a1b2c3d4e5f60718293a4b5c6d7e8f9";
  s.opencl = OpenClInfo{};
  s.opencl->platforms.push_back(OpenClPlatform{});
  s.opencl->platforms[0].devices.push_back(OpenClDevice{});
  s.opencl->platforms[0].devices[0].type = "GPU";
  s.opencl->platforms[0].devices[0].pci_bus_id = "0000:01:00.0";

  auto d = merge_devices(s);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].name, "NVIDIA H100 80GB HBM3");  // the driver's name over pci.ids
  EXPECT_EQ(d[0].kind, DeviceKind::gpu);
  EXPECT_FALSE(d[0].software);
  EXPECT_EQ(d[0].pci, 0u);
  EXPECT_EQ(d[0].in("nvml").size(), 1u);
  EXPECT_EQ(d[0].in("cuda").size(), 1u);
  EXPECT_EQ(d[0].in("vulkan").size(), 1u);
  EXPECT_EQ(d[0].in("opencl").size(), 1u);
}

TEST(MergeDevices, SoftwareImplementationsJoinTheHostCpu) {
  // This machine: PoCL's CPU device and lavapipe, no GPU on PCI.
  Snapshot s;
  s.host = HostInfo{};
  s.host->cpu_model = "AMD EPYC 7B13";
  s.pci = PciInfo{};
  s.opencl = OpenClInfo{};
  s.opencl->platforms.push_back(OpenClPlatform{});
  s.opencl->platforms[0].devices.push_back(OpenClDevice{});
  s.opencl->platforms[0].devices[0].type = "CPU";
  s.opencl->platforms[0].devices[0].name = "pthread-skylake-avx512-AMD EPYC 7B13";
  s.vulkan = VulkanInfo{};
  s.vulkan->devices.push_back(VulkanDevice{});
  s.vulkan->devices[0].type = "cpu";
  s.vulkan->devices[0].driver_id = 13;
  s.vulkan->devices[0].name = "llvmpipe (LLVM 15.0.6, 256 bits)";

  auto d = merge_devices(s);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].kind, DeviceKind::cpu);
  EXPECT_TRUE(d[0].software);
  EXPECT_EQ(d[0].name, "AMD EPYC 7B13");
  EXPECT_EQ(d[0].in("opencl").size(), 1u);
  EXPECT_EQ(d[0].in("vulkan").size(), 1u);
}

TEST(MergeDevices, VendorAndDeviceIdJoinOnlyWhenUnique) {
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(pci("0000:00:02.0", 0x8086, 0x9a49));  // Intel iGPU
  s.pci->devices.push_back(pci("0000:01:00.0", 0x10de, 0x2520));  // NVIDIA dGPU
  s.vulkan = VulkanInfo{};
  VulkanDevice intel;
  intel.type = "integrated_gpu";
  intel.vendor_id = 0x8086;
  intel.device_id = 0x9a49;
  s.vulkan->devices.push_back(intel);
  auto d = merge_devices(s);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].in("vulkan").size(), 1u);
  EXPECT_TRUE(d[1].in("vulkan").empty());

  // Two identical GPUs: a Vulkan device without bus info cannot be placed, so it stands alone.
  Snapshot two;
  two.pci = PciInfo{};
  two.pci->devices.push_back(pci("0000:01:00.0", 0x10de, 0x2330));
  two.pci->devices.push_back(pci("0000:02:00.0", 0x10de, 0x2330));
  two.vulkan = VulkanInfo{};
  VulkanDevice nv;
  nv.type = "discrete_gpu";
  nv.vendor_id = 0x10de;
  nv.device_id = 0x2330;
  two.vulkan->devices.push_back(nv);
  auto d2 = merge_devices(two);
  ASSERT_EQ(d2.size(), 3u);
  EXPECT_TRUE(d2[0].in("vulkan").empty());
  EXPECT_TRUE(d2[1].in("vulkan").empty());
  EXPECT_EQ(d2[2].in("vulkan").size(), 1u);
}

TEST(MergeDevices, ProcessingAcceleratorClassIsAnAccelerator) {
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(pci("0000:c1:00.0", 0x1002, 0x740f, 0x120000));  // Instinct MI210
  auto d = merge_devices(s);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].kind, DeviceKind::accelerator);
  // The snapshot holds no name: the built-in pci.ids gives it, and says so.
  EXPECT_EQ(d[0].name, "Aldebaran/MI200 [Instinct MI210]");
  EXPECT_EQ(d[0].name_source, "builtin pci.ids");
  EXPECT_EQ(d[0].chip, "Aldebaran/MI200");
  // An id no pci.ids knows keeps its numbers: ids, not a guess.
  s.pci->devices[0].device_id = 0x7fff;
  auto unknown = merge_devices(s);
  EXPECT_EQ(unknown[0].name, "PCI device 1002:7fff");
  EXPECT_EQ(unknown[0].name_source, "none");
  EXPECT_EQ(unknown[0].chip, std::nullopt);
}

// OpenCL's devices are numbered across platforms (PoCL's CPU first, then two GPUs of another
// ICD), and each smoke result reaches the merged device of its number through the registry.
TEST(MergeDevices, OpenClDevicesAreNumberedAcrossPlatformsAndSmokeResultsFindThem) {
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(pci("0000:01:00.0", 0x1002, 0x73df));
  s.pci->devices.push_back(pci("0000:02:00.0", 0x1002, 0x73df));
  s.opencl = OpenClInfo{};
  s.opencl->platforms.resize(2);
  s.opencl->platforms[0].devices.push_back(OpenClDevice{});
  s.opencl->platforms[0].devices[0].type = "CPU";
  for (const char* bus : {"0000:02:00.0", "0000:01:00.0"}) {
    s.opencl->platforms[1].devices.push_back(OpenClDevice{});
    s.opencl->platforms[1].devices.back().type = "GPU";
    s.opencl->platforms[1].devices.back().pci_bus_id = bus;
  }
  for (const char* name : {"cpu", "second", "first"}) {
    SmokeResult r;
    r.api = "opencl";
    r.device = name;
    r.status = "pass";
    s.opencl->smoke.push_back(r);
  }

  const auto d = merge_devices(s);
  ASSERT_EQ(d.size(), 3u);  // two GPUs, then the host CPU
  EXPECT_EQ(d[0].in("opencl"), std::vector<std::size_t>{2});
  EXPECT_EQ(d[1].in("opencl"), std::vector<std::size_t>{1});
  EXPECT_EQ(d[2].in("opencl"), std::vector<std::size_t>{0});
  EXPECT_TRUE(d[0].in("vulkan").empty());
  EXPECT_FALSE(d[0].saw("vulkan"));
  EXPECT_EQ(opencl_position(*s.opencl, 0), std::make_pair(std::size_t{0}, std::size_t{0}));
  EXPECT_EQ(opencl_position(*s.opencl, 2), std::make_pair(std::size_t{1}, std::size_t{1}));
  EXPECT_EQ(opencl_position(*s.opencl, 3), std::nullopt);
  EXPECT_EQ(opencl_device_count(*s.opencl), 3u);

  const auto smoke = facts::smoke_facts(s, d);
  ASSERT_EQ(smoke.size(), 3u);
  EXPECT_EQ(smoke[0].device_index, std::optional<std::size_t>(2));  // "cpu": the host CPU
  EXPECT_EQ(smoke[1].device_index, std::optional<std::size_t>(1));  // "second": 0000:02:00.0
  EXPECT_EQ(smoke[2].device_index, std::optional<std::size_t>(0));

  // One result for three devices: which device it ran on is not known, so none is claimed.
  s.opencl->smoke.resize(1);
  EXPECT_EQ(facts::smoke_facts(s, merge_devices(s))[0].device_index, std::nullopt);
}


// --- a backend is one registry row: a fake one, added as a row, joins the others -----------

// What the fake backend lists: a stand-in for Level Zero's devices (invented values), set by
// each test before it merges.
std::vector<DeviceIdentity>& fake_devices() {
  static std::vector<DeviceIdentity> devices;
  return devices;
}

void fake_identities(const Snapshot&, std::vector<DeviceIdentity>& out) {
  out.insert(out.end(), fake_devices().begin(), fake_devices().end());
}

Json fake_json(const Snapshot&, std::size_t i) { return {{"position", i}}; }

std::vector<Backend> with_fake_row() {
  std::vector<Backend> rows = all_backends();
  Backend fake;
  fake.name = "fake_ze";
  fake.title = "Fake Level Zero";
  DeviceList list;
  list.api = "fake_ze";
  list.order = kJoinApi + 40;  // after Vulkan, whose UUID it joins on
  list.rank = NameRank::kOpenCl;
  list.identities = fake_identities;
  list.json = fake_json;
  fake.device_lists.push_back(list);
  rows.push_back(std::move(fake));
  return rows;
}

DeviceIdentity fake(std::size_t position, std::optional<std::string> bus,
                    std::optional<std::string> uuid, std::string name) {
  DeviceIdentity id;
  id.position = position;
  id.pci_address = std::move(bus);
  id.uuid = std::move(uuid);
  id.vendor_id = 0x8086;
  id.name = std::move(name);
  id.fallback_name = "Fake device";
  return id;
}

TEST(MergeDevices, AFakeBackendRowJoinsPciByAddressAndByUuid) {
  // Two Intel GPUs on PCI; Vulkan saw the second with its UUID. The fake backend names the
  // first by PCI address (another spelling of it) and the second by UUID only.
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(pci("0000:03:00.0", 0x8086, 0x56a0));
  s.pci->devices.push_back(pci("0000:04:00.0", 0x8086, 0x56a0));
  s.vulkan = VulkanInfo{};
  VulkanDevice arc;
  arc.type = "discrete_gpu";
  arc.vendor_id = 0x8086;
  arc.device_id = 0x56a0;
  arc.pci_bus_id = "0000:04:00.0";
  arc.device_uuid = "8680a056080000000400000000000000";
  s.vulkan->devices.push_back(arc);
  fake_devices() = {fake(0, "00000000:03:00.0", std::nullopt, "Fake Arc A770 #0"),
                    fake(1, std::nullopt, "8680A056-0800-0000-0400-000000000000",
                         "Fake Arc A770 #1")};

  const auto rows = with_fake_row();
  const auto d = merge_devices(s, rows);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].in("fake_ze"), std::vector<std::size_t>{0});
  EXPECT_EQ(d[0].pci, 0u);
  EXPECT_EQ(d[0].name, "Fake Arc A770 #0");  // its name over the PCI function's
  EXPECT_EQ(d[0].name_source, "fake_ze");
  EXPECT_EQ(d[1].in("fake_ze"), std::vector<std::size_t>{1});
  EXPECT_EQ(d[1].pci, 1u);
  EXPECT_EQ(d[1].in("vulkan").size(), 1u);
  // Vulkan (unnamed here) outranks it: the name is pci.ids', as it would be without the row.
  EXPECT_EQ(d[1].name_source, "builtin pci.ids");
  // Without the row, the registry's merge does not know it.
  EXPECT_TRUE(merge_devices(s)[0].in("fake_ze").empty());
  // query --json shows its view of each device under its name.
  const Json j = devices_json(s, d, rows);
  ASSERT_EQ(j[0]["fake_ze"].size(), 1u);
  EXPECT_EQ(j[0]["fake_ze"][0]["position"], 0);
  EXPECT_EQ(j[1]["fake_ze"][0]["position"], 1);
}

TEST(MergeDevices, AFakeBackendsDeviceNoOtherSawStandsAlone) {
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(pci("0000:03:00.0", 0x8086, 0x56a0));
  s.pci->devices.push_back(pci("0000:04:00.0", 0x8086, 0x56a0));
  // No address, no UUID, and two PCI functions fit its vendor: it cannot be placed.
  fake_devices() = {fake(0, std::nullopt, std::nullopt, "Fake Arc")};
  const auto d = merge_devices(s, with_fake_row());
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[2].name, "Fake Arc");
  EXPECT_EQ(d[2].in("fake_ze"), std::vector<std::size_t>{0});
}

// --- precedence of names, as the separate merges had it ----------------------------------

TEST(MergeDevices, NamesOnAPciFunctionFollowTheListsRanks) {
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(pci("0000:03:00.0", 0x1002, 0x73df));
  s.rocm = RocmInfo{};
  s.rocm->hip = HipInfo{};
  s.rocm->hip->devices.push_back(HipDevice{});
  s.rocm->hip->devices[0].pci_bus_id = "0000:03:00.0";
  s.rocm->hip->devices[0].name = "AMD Radeon RX 6700 XT";
  EXPECT_EQ(merge_devices(s)[0].name_source, "hip");  // HIP over pci.ids
  s.opencl = OpenClInfo{};
  s.opencl->platforms.resize(1);
  s.opencl->platforms[0].devices.push_back(OpenClDevice{});
  s.opencl->platforms[0].devices[0].type = "GPU";
  s.opencl->platforms[0].devices[0].pci_bus_id = "0000:03:00.0";
  s.opencl->platforms[0].devices[0].name = "gfx1031";
  EXPECT_EQ(merge_devices(s)[0].name, "gfx1031");  // OpenCL over HIP, as before
  s.vulkan = VulkanInfo{};
  s.vulkan->devices.push_back(VulkanDevice{});
  s.vulkan->devices[0].type = "discrete_gpu";
  s.vulkan->devices[0].pci_bus_id = "0000:03:00.0";
  s.vulkan->devices[0].name = "AMD Radeon RX 6700 XT (RADV NAVI22)";
  EXPECT_EQ(merge_devices(s)[0].name_source, "vulkan");  // Vulkan over OpenCL
}

TEST(MergeDevices, KfdsPlaceholderGivesWayToHipButNotToVulkan) {
  // rocminfo and vulkaninfo pasted, no lspci: KFD makes the device, HIP may name it (its own
  // backend), Vulkan joins it by ids without renaming, and pci.ids names what HIP did not.
  Snapshot s;
  s.rocm = RocmInfo{};
  s.rocm->nodes.push_back(KfdNode{});
  s.rocm->nodes[0].device_id = 0x73df;
  s.rocm->nodes[0].gfx_target = "gfx1031";
  s.vulkan = VulkanInfo{};
  s.vulkan->devices.push_back(VulkanDevice{});
  s.vulkan->devices[0].type = "discrete_gpu";
  s.vulkan->devices[0].vendor_id = 0x1002;
  s.vulkan->devices[0].device_id = 0x73df;
  s.vulkan->devices[0].name = "AMD Radeon RX 6700 XT (RADV NAVI22)";
  auto d = merge_devices(s);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].in("vulkan").size(), 1u);
  EXPECT_EQ(d[0].name_source, "builtin pci.ids");
  s.rocm->hip = HipInfo{};
  s.rocm->hip->devices.push_back(HipDevice{});
  s.rocm->hip->devices[0].name = "AMD Radeon RX 6700 XT";
  d = merge_devices(s);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].name, "AMD Radeon RX 6700 XT");
  EXPECT_EQ(d[0].name_source, "hip");
}

// Two identical GPUs that KFD lists with their own addresses, and no PCI list (--backend rocm):
// the second is not folded into the first by its ids.
TEST(MergeDevices, AListThatNamesEachDeviceOnceNeverJoinsOneItSawByIds) {
  Snapshot s;
  s.rocm = RocmInfo{};
  for (const char* bus : {"0000:03:00.0", "0000:83:00.0"}) {
    s.rocm->nodes.push_back(KfdNode{});
    s.rocm->nodes.back().pci_address = bus;
    s.rocm->nodes.back().device_id = 0x740f;
  }
  const auto d = merge_devices(s);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[1].in("kfd"), std::vector<std::size_t>{1});
}

// KFD nodes with no location_id (a tree or paste that kept only gfx_target_version and
// vendor_id, tests/fixtures/corpus-healthy-ollama-rocm-gfx1030-dual) beside two PCI functions of
// one chip: whichever node is whichever GPU, each GPU gets one node and its gfx target. Two
// different chips cannot be told apart that way and stay apart.
TEST(MergeDevices, UnaddressedKfdNodesJoinInterchangeableGpus) {
  Snapshot s;
  s.pci = PciInfo{};
  s.pci->devices.push_back(pci("0000:03:00.0", 0x1002, 0x73ef));
  s.pci->devices.push_back(pci("0000:04:00.0", 0x1002, 0x73ef));
  s.rocm = RocmInfo{};
  for (int i = 0; i < 2; ++i) {
    s.rocm->nodes.push_back(KfdNode{});
    s.rocm->nodes.back().vendor_id = 0x1002;
    s.rocm->nodes.back().gfx_target = "gfx1032";
  }
  auto d = merge_devices(s);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].in("kfd"), std::vector<std::size_t>{0});
  EXPECT_EQ(d[1].in("kfd"), std::vector<std::size_t>{1});

  s.pci->devices[1].device_id = 0x744c;  // a Navi 31 beside the Navi 23
  d = merge_devices(s);
  EXPECT_EQ(d.size(), 4u);
  EXPECT_TRUE(d[0].in("kfd").empty());

  // Nodes that carry their device id (no address) go to the GPU of that chip.
  s.rocm->nodes[0].device_id = 0x744c;
  s.rocm->nodes[1].device_id = 0x73ef;
  s.pci->devices.push_back(pci("0000:05:00.0", 0x1002, 0x73ef));
  d = merge_devices(s);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[1].in("kfd"), std::vector<std::size_t>{0});  // the Navi 31
  EXPECT_EQ(d[0].in("kfd"), std::vector<std::size_t>{1});  // the first Navi 23
}

// Many GPUs merge in time linear in their number: 20,000 GPUs seen by PCI, NVML and Vulkan.
TEST(MergeDevices, TwentyThousandGpusMergeQuickly) {
  Snapshot s;
  s.pci = PciInfo{};
  s.nvml = NvmlInfo{};
  s.vulkan = VulkanInfo{};
  for (int i = 0; i < 20000; ++i) {
    const std::string bus = "0000:" + hex(static_cast<std::uint64_t>(i / 32 % 256), 2) + ":" +
                            hex(static_cast<std::uint64_t>(i % 32), 2) + ".0";
    const std::string domain = hex(static_cast<std::uint64_t>(i / 8192), 4);
    s.pci->devices.push_back(pci(domain + bus.substr(4), 0x10de, 0x2330));
    NvmlDevice n;
    n.pci_bus_id = "0000" + domain + bus.substr(4);
    n.uuid = "GPU-" + std::to_string(100000 + i);
    s.nvml->devices.push_back(n);
    VulkanDevice v;
    v.type = "discrete_gpu";
    v.device_uuid = std::to_string(100000 + i);
    s.vulkan->devices.push_back(v);
  }
  const auto start = std::chrono::steady_clock::now();
  const auto d = merge_devices(s);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(d.size(), 20000u);
  EXPECT_EQ(d[19999].in("vulkan"), std::vector<std::size_t>{19999});
  EXPECT_LT(seconds, 5.0);  // the quadratic merge took minutes at this count
}

}  // namespace
}  // namespace gpudoctor
