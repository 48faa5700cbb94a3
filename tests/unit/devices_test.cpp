// Merging the backends' device lists into one entry per physical device.
#include "devices.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace gpudoctor
