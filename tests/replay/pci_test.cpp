// The pci backend: the sysfs attribute parsers, the modules.alias matcher, the probe against
// broken trees (it must report, never exit), and the live probe on this machine.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/root.hpp"
#include "environment.hpp"
#include "json.hpp"
#include "parse/modules_alias.hpp"
#include "parse/pci_sysfs.hpp"
#include "pci/pci_probe.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

TEST(PciSysfs, LinkSpeedAndGeneration) {
  EXPECT_EQ(parse_link_speed("8.0 GT/s PCIe\n"), 8.0);
  EXPECT_EQ(parse_link_speed("16.0 GT/s PCIe"), 16.0);
  EXPECT_EQ(parse_link_speed("2.5 GT/s PCIe"), 2.5);
  EXPECT_EQ(parse_link_speed("5 GT/s"), 5.0);  // kernels before 4.19 had no suffix
  EXPECT_EQ(parse_link_speed("Unknown"), std::nullopt);
  EXPECT_EQ(parse_link_speed("Unknown speed"), std::nullopt);
  EXPECT_EQ(parse_link_speed(""), std::nullopt);
  EXPECT_EQ(pcie_generation(2.5), 1);
  EXPECT_EQ(pcie_generation(5.0), 2);
  EXPECT_EQ(pcie_generation(8.0), 3);
  EXPECT_EQ(pcie_generation(16.0), 4);
  EXPECT_EQ(pcie_generation(32.0), 5);
  EXPECT_EQ(pcie_generation(64.0), 6);
  EXPECT_EQ(pcie_generation(20.0), std::nullopt);
}

TEST(PciSysfs, WidthNumaIommuFlags) {
  EXPECT_EQ(parse_link_width("16\n"), 16);
  EXPECT_EQ(parse_link_width("4"), 4);
  EXPECT_EQ(parse_link_width("x16"), std::nullopt);
  EXPECT_EQ(parse_numa_node("-1\n"), std::nullopt);  // no affinity: unknown, not -1
  EXPECT_EQ(parse_numa_node("5"), 5);
  EXPECT_EQ(iommu_group_from_link("../../../kernel/iommu_groups/14"), 14);
  EXPECT_EQ(iommu_group_from_link("garbage/x"), std::nullopt);
  EXPECT_EQ(link_basename("../../../bus/pci/drivers/virtio-pci"), "virtio-pci");
  EXPECT_EQ(link_basename("../../drivers/nvidia/"), "nvidia");
  EXPECT_EQ(parse_flag("1\n"), true);
  EXPECT_EQ(parse_flag("0"), false);
  EXPECT_EQ(parse_flag("yes"), std::nullopt);
  EXPECT_EQ(parse_hex_attribute("0x030200\n"), 0x030200u);
  EXPECT_EQ(parse_hex_attribute("030200"), std::nullopt);
}

// Alias lines as `modprobe -c` prints them on machines with nouveau and the NVIDIA driver
// (nouveau: "pci:v000010DEd*sv*sd*bc03sc*i*"; nvidia: class 03 subclass 00 and 02 only), and
// in the form depmod writes for amdgpu's and i915's per-device MODULE_DEVICE_TABLE entries.
constexpr const char* kAliases =
    "alias pci:v00008086d00009BC4sv*sd*bc03sc*i* i915\n"
    "alias pci:v00001002d0000687Fsv*sd*bc*sc*i* amdgpu\n"
    "alias pci:v000010DEd*sv*sd*bc03sc*i* nouveau\n"
    "alias pci:v000012D2d*sv*sd*bc03sc*i* nouveau\n"
    "alias pci:v000010DEd*sv*sd*bc03sc00i00* nvidia_drm\n"
    "alias pci:v000010DEd*sv*sd*bc03sc00i00* nvidia\n"
    "alias pci:v000010DEd*sv*sd*bc03sc02i00* nvidia_drm\n"
    "alias pci:v000010DEd*sv*sd*bc03sc02i00* nvidia\n"
    "alias pci:v000010DEd00000E00sv*sd*bc04sc80i00* nvidia\n"
    "alias usb:v0BDAp8153d*dc*dsc*dp*ic*isc*ip*in* r8152\n"
    "alias symbol:nvidia_p2p_get_pages nvidia\n";

TEST(PciModulesAlias, NvidiaDatacenterGpu) {
  // The A100 of the server-a100-sxm4 fixture: a 3D controller (0302).
  EXPECT_EQ(modules_for_modalias(kAliases, "pci:v000010DEd000020B0sv000010DEsd0000134Fbc03sc02i00"),
            (std::vector<std::string>{"nouveau", "nvidia_drm", "nvidia"}));
}

TEST(PciModulesAlias, NvidiaAudioFunctionIsNotAGpu) {
  // The HDMI audio function (0403) of an NVIDIA card matches none of the GPU drivers.
  EXPECT_TRUE(
      modules_for_modalias(kAliases, "pci:v000010DEd000010FAsv0000103Csd000085FCbc04sc03i00")
          .empty());
}

TEST(PciModulesAlias, AmdAndIntel) {
  EXPECT_EQ(modules_for_modalias(kAliases, "pci:v00001002d0000687Fsv00001002sd00000B36bc03sc00i00"),
            (std::vector<std::string>{"amdgpu"}));
  // Subsystem ids are zero here: these aliases match any.
  EXPECT_EQ(modules_for_modalias(kAliases, "pci:v00008086d00009BC4sv00000000sd00000000bc03sc00i00"),
            (std::vector<std::string>{"i915"}));
  EXPECT_TRUE(
      modules_for_modalias(kAliases, "pci:v00001AF4d00001041sv00001AF4sd00001041bc02sc00i00")
          .empty());
  EXPECT_TRUE(
      modules_for_modalias(kAliases, "usb:v0BDAp8153d3000dc00dsc00dp00icFFisc00ip00in00").empty());
}

/// A scratch directory for trees the tests build.
class ScratchTree {
 public:
  ScratchTree() {
    char tmpl[] = "/tmp/gpudoctor-pci-XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  ~ScratchTree() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  void write(const std::string& rel, const std::string& text) const {
    fs::create_directories(fs::path(path_ + rel).parent_path());
    std::ofstream(path_ + rel) << text;
  }

 private:
  std::string path_;
};

PciInfo probe_tree(const std::string& base, ProbeOutcome& out) {
  const Root root(base);
  const Environment env;
  return probe_pci(ProbeContext{root, env, false}, out);
}

TEST(PciProbe, NoSysfsIsMissingNotAnError) {
  ScratchTree t;
  ProbeOutcome out;
  PciInfo info = probe_tree(t.path(), out);
  EXPECT_EQ(out.status, ProbeStatus::missing);
  EXPECT_NE(out.detail.find("/sys/bus/pci/devices"), std::string::npos) << out.detail;
  EXPECT_EQ(info.devices_scanned, 0);
  EXPECT_TRUE(info.devices.empty());
}

TEST(PciProbe, LibpciErrorIsReportedNotExit) {
  // libpci's default error handler would call exit(); this entry makes sysfs_scan fail.
  ScratchTree t;
  t.write("/sys/bus/pci/devices/not-an-address/vendor", "0x10de\n");
  ProbeOutcome out;
  probe_tree(t.path(), out);
  EXPECT_EQ(out.status, ProbeStatus::failed);
  EXPECT_NE(out.detail.find("libpci"), std::string::npos) << out.detail;
}

TEST(PciProbe, UnreadableFunctionIsCountedAndSkipped) {
  ScratchTree t;
  t.write("/sys/bus/pci/devices/0000:01:00.0/class", "0x030000\n");  // no vendor file
  ProbeOutcome out;
  PciInfo info = probe_tree(t.path(), out);
  EXPECT_EQ(out.status, ProbeStatus::ok);
  EXPECT_EQ(info.devices_scanned, 1);
  EXPECT_TRUE(info.devices.empty());
  EXPECT_NE(out.detail.find("0000:01:00.0"), std::string::npos) << out.detail;
}

TEST(PciProbe, CoprocessorAndAcceleratorClassesAreReported) {
  ScratchTree t;
  auto dev = [&](const std::string& addr, const char* cls) {
    t.write("/sys/bus/pci/devices/" + addr + "/vendor", "0x1234\n");
    t.write("/sys/bus/pci/devices/" + addr + "/device", "0x5678\n");
    t.write("/sys/bus/pci/devices/" + addr + "/class", std::string(cls) + "\n");
  };
  dev("0000:01:00.0", "0x120000");  // processing accelerator
  dev("0000:02:00.0", "0x0b4000");  // co-processor
  dev("0000:03:00.0", "0x0b2000");  // a CPU (processor class, not a co-processor)
  dev("0000:04:00.0", "0x040300");  // audio
  ProbeOutcome out;
  PciInfo info = probe_tree(t.path(), out);
  EXPECT_EQ(info.devices_scanned, 4);
  ASSERT_EQ(info.devices.size(), 2u);
  EXPECT_EQ(info.devices[0].address, "0000:01:00.0");
  EXPECT_EQ(info.devices[1].address, "0000:02:00.0");
  EXPECT_EQ(info.ids_file, std::nullopt);
  EXPECT_EQ(info.devices[0].vendor_name, std::nullopt);
}

TEST(PciProbe, ModulesFromModulesAliasOfRunningKernel) {
  ScratchTree t;
  const std::string d = "/sys/bus/pci/devices/0000:da:00.0/";
  t.write(d + "vendor", "0x10de\n");
  t.write(d + "device", "0x20b0\n");
  t.write(d + "class", "0x030200\n");
  t.write(d + "modalias", "pci:v000010DEd000020B0sv000010DEsd0000134Fbc03sc02i00\n");
  t.write("/proc/sys/kernel/osrelease", "6.1.0-18-amd64\n");
  t.write("/lib/modules/6.1.0-18-amd64/modules.alias", kAliases);
  t.write("/lib/modules/5.10.0-28-amd64/modules.alias",
          "alias pci:v000010DEd*sv*sd*bc*sc*i* old\n");
  ProbeOutcome out;
  PciInfo info = probe_tree(t.path(), out);
  ASSERT_EQ(info.devices.size(), 1u);
  EXPECT_EQ(info.devices[0].modules, (std::vector<std::string>{"nouveau", "nvidia_drm", "nvidia"}));
}

TEST(PciProbe, SysrootWithoutSysExitsNormally) {
  ScratchTree t;
  auto r = test::run_gpudoctor({"query", "--json", "--backend", "host,pci", "--sysroot", t.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json j = Json::parse(r.out);
  EXPECT_EQ(j.at("pci").at("devices_scanned"), 0);
  bool seen = false;
  for (const auto& p : j.at("probes")) {
    if (p.at("backend") == "pci") {
      seen = true;
      EXPECT_EQ(p.at("status"), "missing");
    }
  }
  EXPECT_TRUE(seen);
}

TEST(PciLive, ThisMachineListsNoVirtioDevice) {
  if (!fs::is_directory("/sys/bus/pci/devices")) GTEST_SKIP() << "no PCI bus visible here";
  auto r = test::run_gpudoctor({"query", "--json", "--backend", "host,pci"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json j = Json::parse(r.out);
  const Json& pci = j.at("pci");
  int functions = 0;
  for (const auto& e : fs::directory_iterator("/sys/bus/pci/devices")) {
    (void)e;
    ++functions;
  }
  EXPECT_GT(pci.at("devices_scanned").get<int>(), 0);
  EXPECT_EQ(pci.at("devices_scanned").get<int>(), functions);
  for (const auto& dev : pci.at("devices")) {
    EXPECT_NE(dev.at("vendor_id"), 0x1af4) << dev.dump();  // Red Hat virtio functions
    const auto base = dev.at("class_code").get<std::uint32_t>() >> 16;
    EXPECT_TRUE(base == 0x03 || base == 0x12 || base == 0x0b) << dev.dump();
  }
}

}  // namespace
}  // namespace gpudoctor
