// Machines replayed from their files with --sysroot: golden query output, and the facts each
// source states checked one by one. tests/fixtures/<machine>/README.md says where every file
// came from; GPUDOCTOR_REGOLD=1 rewrites the goldens.
#include <gtest/gtest.h>

#include "core/root.hpp"
#include "environment.hpp"
#include "host/host_probe.hpp"
#include "json.hpp"
#include "pci/pci_probe.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

/// `gpudoctor query --json --backend host,pci --sysroot <fixture>`, with what differs between
/// runs and checkouts (timings, the fixture's absolute path, the tool version) replaced.
std::string query_fixture(const std::string& machine) {
  auto r = test::run_gpudoctor(
      {"query", "--json", "--backend", "host,pci", "--sysroot", test::fixture_path(machine)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  Json j = Json::parse(r.out);
  j["root"] = "<fixture>";
  j["tool_version"] = "<version>";
  // Which of the analysing machine's variables the probes took (the tree records none): this
  // machine's, not the fixture's (tests/replay/seed_macs_test.cpp checks it).
  j.erase("environment");
  for (auto& p : j["probes"]) p["seconds"] = nullptr;
  return dump_json(j, 2) + "\n";
}

struct Probed {
  HostInfo host;
  PciInfo pci;
  ProbeOutcome outcome;
};

Probed probe_fixture(const std::string& machine) {
  const Root root(test::fixture_path(machine));
  const Environment env;
  const ProbeContext ctx{root, env, false};
  Probed p;
  p.host = probe_host(ctx);
  p.pci = probe_pci(ctx, p.outcome);
  return p;
}

const PciDevice* find(const PciInfo& pci, const std::string& address) {
  for (const auto& d : pci.devices) {
    if (d.address == address) return &d;
  }
  return nullptr;
}

TEST(FixtureMachines, KvmVirtioVmGolden) {
  test::expect_golden("kvm-virtio-vm", "query-host-pci.json", query_fixture("kvm-virtio-vm"));
}

TEST(FixtureMachines, KvmVirtioVmHasNoGpu) {
  Probed p = probe_fixture("kvm-virtio-vm");
  EXPECT_EQ(p.outcome.status, ProbeStatus::ok);
  EXPECT_EQ(p.pci.devices_scanned, 6);  // a host bridge and five virtio functions
  EXPECT_TRUE(p.pci.devices.empty());   // none of them is a GPU
  EXPECT_EQ(p.host.os_id, "debian");
  EXPECT_EQ(p.host.os_version, "12");
  EXPECT_EQ(p.host.kernel_release, "6.18.44-fc-v669");
  EXPECT_EQ(p.host.cpu_model, "AMD EPYC");
  EXPECT_EQ(p.host.cpu_cores, 2);
  EXPECT_EQ(p.host.cpu_threads, 2);
  EXPECT_EQ(p.host.memory_total_bytes, 24684084ull * 1024);
  EXPECT_EQ(p.host.container, "docker");           // /.dockerenv
  EXPECT_TRUE(p.host.vm);                          // the CPU's hypervisor flag
  EXPECT_EQ(p.host.virtualization, std::nullopt);  // no DMI tables name it
  EXPECT_FALSE(p.host.wsl);
  EXPECT_EQ(p.host.architecture, std::nullopt);  // uname is not the fixture's
  EXPECT_EQ(p.host.glibc_version, std::nullopt);
}

TEST(FixtureMachines, ServerA100Golden) {
  test::expect_golden("server-a100-sxm4", "query-host-pci.json", query_fixture("server-a100-sxm4"));
}

TEST(FixtureMachines, ServerA100Facts) {
  Probed p = probe_fixture("server-a100-sxm4");
  ASSERT_EQ(p.pci.devices.size(), 1u);
  const PciDevice* gpu = find(p.pci, "0000:da:00.0");
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->class_code, 0x030200u);  // 3D controller: datacenter parts drive no display
  EXPECT_EQ(gpu->class_name, "3D controller");
  EXPECT_EQ(gpu->vendor_id, 0x10de);
  EXPECT_EQ(gpu->device_id, 0x20b0);
  EXPECT_EQ(gpu->device_name, "GA100 [A100 SXM4 40GB]");
  EXPECT_EQ(gpu->subsystem_device_id, 0x134f);
  EXPECT_EQ(gpu->revision, 0xa1);
  EXPECT_EQ(gpu->numa_node, 5);
  EXPECT_EQ(gpu->link_current.speed_gts, 16.0);
  EXPECT_EQ(gpu->link_current.generation, 4);
  EXPECT_EQ(gpu->link_current.width, 16);
  EXPECT_EQ(gpu->link_max.speed_gts, std::nullopt);  // the source does not give LnkCap
  EXPECT_EQ(gpu->driver, std::nullopt);              // nor the driver in use
  EXPECT_EQ(p.pci.ids_file, "/usr/share/misc/pci.ids");
}

TEST(FixtureMachines, DesktopRadeonVega64Golden) {
  test::expect_golden("desktop-radeon-vega64", "query-host-pci.json",
                      query_fixture("desktop-radeon-vega64"));
}

TEST(FixtureMachines, DesktopRadeonVega64Facts) {
  Probed p = probe_fixture("desktop-radeon-vega64");
  ASSERT_EQ(p.pci.devices.size(), 1u);
  const PciDevice* gpu = find(p.pci, "0000:0d:00.0");
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->vendor_id, 0x1002);
  EXPECT_EQ(gpu->device_id, 0x687f);
  EXPECT_EQ(gpu->device_name, "Vega 10 XL/XT [Radeon RX Vega 56/64]");
  EXPECT_EQ(gpu->subsystem_name, "Advanced Micro Devices, Inc. [AMD/ATI] RX Vega64");
  EXPECT_EQ(gpu->revision, 0xc1);
  EXPECT_EQ(gpu->driver, "amdgpu");
  EXPECT_EQ(gpu->class_name, "VGA compatible controller");
}

TEST(FixtureMachines, LaptopOptimusGolden) {
  test::expect_golden("laptop-optimus-lenovo", "query-host-pci.json",
                      query_fixture("laptop-optimus-lenovo"));
}

TEST(FixtureMachines, LaptopOptimusFacts) {
  Probed p = probe_fixture("laptop-optimus-lenovo");
  ASSERT_EQ(p.pci.devices.size(), 2u);
  const PciDevice* igpu = find(p.pci, "0000:00:02.0");
  const PciDevice* dgpu = find(p.pci, "0000:01:00.0");
  ASSERT_NE(igpu, nullptr);
  ASSERT_NE(dgpu, nullptr);
  EXPECT_EQ(igpu->vendor_id, 0x8086);
  EXPECT_EQ(igpu->driver, "i915");
  EXPECT_EQ(igpu->device_name, "CometLake-H GT2 [UHD Graphics]");
  EXPECT_EQ(dgpu->vendor_id, 0x10de);
  EXPECT_EQ(dgpu->driver, "nvidia");  // not nouveau: the proprietary driver owns it
  EXPECT_EQ(dgpu->device_name, "TU116M [GeForce GTX 1660 Ti Mobile]");
  // The idle dGPU trained its link down: Gen1 x16 now, Gen3 possible.
  EXPECT_EQ(dgpu->link_current.generation, 1);
  EXPECT_EQ(dgpu->link_current.speed_gts, 2.5);
  EXPECT_EQ(dgpu->link_current.width, 16);
  EXPECT_EQ(dgpu->link_max.generation, 3);
  EXPECT_EQ(dgpu->link_max.speed_gts, 8.0);
  EXPECT_EQ(dgpu->revision, std::nullopt);  // not in the source: unknown, not invented
  EXPECT_EQ(dgpu->subsystem_vendor_id, std::nullopt);
}

}  // namespace
}  // namespace gpudoctor
