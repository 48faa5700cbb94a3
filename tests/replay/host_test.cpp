// The host backend: its parsers on real files, and the live probe on this machine.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "json.hpp"
#include "parse/host_files.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

// Debian 12's /etc/os-release, as shipped by base-files 12.4.
constexpr const char* kDebian12 = R"txt(PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
VERSION_CODENAME=bookworm
ID=debian
HOME_URL="https://www.debian.org/"
SUPPORT_URL="https://www.debian.org/support"
BUG_REPORT_URL="https://bugs.debian.org/"
)txt";

// Ubuntu 22.04.3's /usr/lib/os-release.
constexpr const char* kUbuntu2204 = R"txt(PRETTY_NAME="Ubuntu 22.04.3 LTS"
NAME="Ubuntu"
VERSION_ID="22.04"
VERSION="22.04.3 LTS (Jammy Jellyfish)"
VERSION_CODENAME=jammy
ID=ubuntu
ID_LIKE=debian
HOME_URL="https://www.ubuntu.com/"
SUPPORT_URL="https://help.ubuntu.com/"
BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"
PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"
UBUNTU_CODENAME=jammy
)txt";

// Fedora 39 Workstation: VERSION_ID unquoted, an empty quoted value.
constexpr const char* kFedora39 = R"txt(NAME="Fedora Linux"
VERSION="39 (Workstation Edition)"
ID=fedora
VERSION_ID=39
VERSION_CODENAME=""
PLATFORM_ID="platform:f39"
PRETTY_NAME="Fedora Linux 39 (Workstation Edition)"
ANSI_COLOR="0;38;2;60;110;180"
LOGO=fedora-logo-icon
CPE_NAME="cpe:/o:fedoraproject:fedora:39"
DEFAULT_HOSTNAME="fedora"
HOME_URL="https://fedoraproject.org/"
SUPPORT_END=2024-11-12
VARIANT="Workstation Edition"
VARIANT_ID=workstation
)txt";

// Pop!_OS 21.04, from https://github.com/pop-os/system76-driver/issues/213 (leading blank
// in the first line as posted).
constexpr const char* kPopOs2104 = R"txt( NAME="Pop!_OS"
VERSION="21.04"
ID=pop
ID_LIKE="ubuntu debian"
PRETTY_NAME="Pop!_OS 21.04"
VERSION_ID="21.04"
HOME_URL="https://pop.system76.com"
VERSION_CODENAME=hirsute
UBUNTU_CODENAME=hirsute
LOGO=distributor-logo-pop-os
)txt";

TEST(HostFiles, OsReleaseDebian) {
  auto kv = parse_os_release(kDebian12);
  EXPECT_EQ(kv["ID"], "debian");
  EXPECT_EQ(kv["NAME"], "Debian GNU/Linux");
  EXPECT_EQ(kv["VERSION_ID"], "12");
  EXPECT_EQ(kv["PRETTY_NAME"], "Debian GNU/Linux 12 (bookworm)");
  EXPECT_EQ(kv["VERSION_CODENAME"], "bookworm");
}

TEST(HostFiles, OsReleaseUbuntu) {
  auto kv = parse_os_release(kUbuntu2204);
  EXPECT_EQ(kv["ID"], "ubuntu");
  EXPECT_EQ(kv["ID_LIKE"], "debian");
  EXPECT_EQ(kv["VERSION_ID"], "22.04");
  EXPECT_EQ(kv["VERSION"], "22.04.3 LTS (Jammy Jellyfish)");
}

TEST(HostFiles, OsReleaseFedoraUnquotedAndEmpty) {
  auto kv = parse_os_release(kFedora39);
  EXPECT_EQ(kv["ID"], "fedora");
  EXPECT_EQ(kv["VERSION_ID"], "39");
  EXPECT_EQ(kv["VERSION_CODENAME"], "");
  EXPECT_EQ(kv["PRETTY_NAME"], "Fedora Linux 39 (Workstation Edition)");
  EXPECT_EQ(kv["SUPPORT_END"], "2024-11-12");
}

TEST(HostFiles, OsReleasePopOsLeadingBlank) {
  auto kv = parse_os_release(kPopOs2104);
  EXPECT_EQ(kv["NAME"], "Pop!_OS");
  EXPECT_EQ(kv["ID_LIKE"], "ubuntu debian");
}

TEST(HostFiles, OsReleaseQuotingRules) {
  auto kv = parse_os_release(
      "# comment\nA='single $quoted'\nB=\"esc \\\"q\\\" \\$HOME \\\\ \\`x\\`\"\nC=plain\\ word\n"
      "D=\"unterminated\nbad line\nE = spaced\n");
  EXPECT_EQ(kv["A"], "single $quoted");
  EXPECT_EQ(kv["B"], "esc \"q\" $HOME \\ `x`");
  EXPECT_EQ(kv["C"], "plain word");
  EXPECT_EQ(kv.count("D"), 0u);
  EXPECT_EQ(kv["E"], "spaced");
}

// x86 with SMT: eight entries in the layout of an i7-8550U's /proc/cpuinfo (4 cores, 8 threads;
// core ids 0-3 twice), abridged to the keys around the ones the parser reads.
std::string intel_4c8t() {
  std::string text;
  const int core_of[] = {0, 1, 2, 3, 0, 1, 2, 3};
  for (int i = 0; i < 8; ++i) {
    text += "processor\t: " + std::to_string(i) + "\n";
    text += "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 142\n";
    text += "model name\t: Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz\n";
    text += "physical id\t: 0\nsiblings\t: 8\ncore id\t\t: " + std::to_string(core_of[i]) + "\n";
    text += "cpu cores\t: 4\nflags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep\n\n";
  }
  return text;
}

TEST(HostFiles, CpuinfoX86CountsCoresAndThreads) {
  CpuInfo cpu = parse_cpuinfo(intel_4c8t());
  EXPECT_EQ(cpu.model, "Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz");
  EXPECT_EQ(cpu.threads, 8);
  EXPECT_EQ(cpu.cores, 4);
  EXPECT_FALSE(cpu.hypervisor);
}

TEST(HostFiles, CpuinfoThisVmFixture) {
  // The captured /proc/cpuinfo of the kvm-virtio-vm fixture (this build machine).
  std::ifstream in(test::fixture_path("kvm-virtio-vm") + "/proc/cpuinfo");
  std::stringstream ss;
  ss << in.rdbuf();
  CpuInfo cpu = parse_cpuinfo(ss.str());
  EXPECT_EQ(cpu.model, "AMD EPYC");
  EXPECT_EQ(cpu.threads, 2);
  EXPECT_EQ(cpu.cores, 2);
  EXPECT_TRUE(cpu.hypervisor);
}

// arm64, in the layout of an AWS Graviton2 (Neoverse N1) /proc/cpuinfo: no "model name", no
// core ids.
constexpr const char* kGraviton2 = R"txt(processor	: 0
BogoMIPS	: 243.75
Features	: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs
CPU implementer	: 0x41
CPU architecture: 8
CPU variant	: 0x3
CPU part	: 0xd0c
CPU revision	: 1

processor	: 1
BogoMIPS	: 243.75
Features	: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs
CPU implementer	: 0x41
CPU architecture: 8
CPU variant	: 0x3
CPU part	: 0xd0c
CPU revision	: 1

)txt";

TEST(HostFiles, CpuinfoArm64HasNoModelOrCores) {
  CpuInfo cpu = parse_cpuinfo(kGraviton2);
  EXPECT_EQ(cpu.model, std::nullopt);
  EXPECT_EQ(cpu.threads, 2);
  EXPECT_EQ(cpu.cores, std::nullopt);  // the probe then reads sysfs topology
  EXPECT_EQ(count_cores({{"0", "0"}, {"0", "1"}}), 2);
  EXPECT_EQ(count_cores({{"0", "0"}, {"0", "0"}, {"1", "0"}}), 2);
}

TEST(HostFiles, CpuinfoEmpty) {
  CpuInfo cpu = parse_cpuinfo("");
  EXPECT_EQ(cpu.threads, std::nullopt);
  EXPECT_EQ(cpu.cores, std::nullopt);
}

TEST(HostFiles, Meminfo) {
  MemInfo mem = parse_meminfo(
      "MemTotal:       24684084 kB\nMemFree:        22525400 kB\nMemAvailable:   23282220 kB\n"
      "HugePages_Total:       0\n");
  EXPECT_EQ(mem.total_bytes, 24684084ull * 1024);
  EXPECT_EQ(mem.available_bytes, 23282220ull * 1024);
  EXPECT_EQ(parse_meminfo("MemTotal: lots\n").total_bytes, std::nullopt);
}

TEST(HostFiles, CgroupV1Docker) {
  EXPECT_EQ(
      container_from_cgroup(
          "12:pids:/docker/3601745b3bd54d9780436faa5f0e4f72bb46231663bb99a6bb892764917832c2\n"
          "11:devices:/docker/3601745b3bd54d9780436faa5f0e4f72bb46231663bb99a6bb892764917832c2\n"
          "1:name=systemd:/docker/"
          "3601745b3bd54d9780436faa5f0e4f72bb46231663bb99a6bb892764917832c2\n"),
      "docker");
}

TEST(HostFiles, CgroupV1Kubernetes) {
  EXPECT_EQ(container_from_cgroup("11:memory:/kubepods/burstable/pod6b1e8b9a-1b0c-4f3f-9f3e-"
                                  "0d3c2a7e1f00/0a1b2c3d4e5f\n"),
            "kubernetes");
}

TEST(HostFiles, CgroupV2) {
  // With a cgroup namespace the container sees only "/"; without one, the scope names it.
  EXPECT_EQ(container_from_cgroup("0::/\n"), std::nullopt);
  EXPECT_EQ(container_from_cgroup("0::/init.scope\n"), std::nullopt);
  EXPECT_EQ(container_from_cgroup("0::/system.slice/docker-3601745b3bd5.scope\n"), "docker");
  EXPECT_EQ(container_from_cgroup("0::/machine.slice/libpod-5c2d0f1e.scope/container\n"), "podman");
  EXPECT_EQ(container_from_cgroup("0::/lxc.payload.c1/init.scope\n"), "lxc");
  // This build machine: cgroup v1 hierarchies, all at "/".
  EXPECT_EQ(container_from_cgroup("9:name=systemd:/\n8:pids:/\n1:cpu:/\n0::/\n"), std::nullopt);
}

TEST(HostFiles, MountinfoOverlayRoot) {
  EXPECT_EQ(container_from_mountinfo(
                "629 510 0:54 / / rw,relatime master:302 - overlay overlay rw,lowerdir=/var/lib/"
                "docker/overlay2/l/ABC:/var/lib/docker/overlay2/l/DEF,upperdir=/var/lib/docker/"
                "overlay2/9f1/diff,workdir=/var/lib/docker/overlay2/9f1/work\n"),
            "docker");
  EXPECT_EQ(container_from_mountinfo(
                "1025 1020 0:88 / / rw - overlay overlay rw,lowerdir=/var/lib/containers/storage/"
                "overlay/l/X,upperdir=/var/lib/containers/storage/overlay/1/diff\n"),
            "podman");
  EXPECT_EQ(container_from_mountinfo("27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"),
            std::nullopt);
}

TEST(HostFiles, WslKernelStrings) {
  auto wsl2 = wsl_from_kernel("5.15.90.1-microsoft-standard-WSL2");
  EXPECT_TRUE(wsl2.wsl);
  EXPECT_EQ(wsl2.version, "2");
  auto wsl2_old = wsl_from_kernel("4.19.104-microsoft-standard");
  EXPECT_TRUE(wsl2_old.wsl);
  EXPECT_EQ(wsl2_old.version, "2");
  auto wsl1 = wsl_from_kernel("4.4.0-19041-Microsoft");
  EXPECT_TRUE(wsl1.wsl);
  EXPECT_EQ(wsl1.version, "1");
  auto native = wsl_from_kernel("6.1.0-18-amd64");
  EXPECT_FALSE(native.wsl);
  EXPECT_EQ(native.version, std::nullopt);
}

TEST(HostFiles, DmiVirtualization) {
  EXPECT_EQ(virtualization_from_dmi("QEMU", "Standard PC (Q35 + ICH9, 2009)"), "qemu");
  EXPECT_EQ(virtualization_from_dmi("VMware, Inc.", "VMware Virtual Platform"), "vmware");
  EXPECT_EQ(virtualization_from_dmi("Microsoft Corporation", "Virtual Machine"), "hyperv");
  EXPECT_EQ(virtualization_from_dmi("Microsoft Corporation", "Surface Laptop 4"), std::nullopt);
  EXPECT_EQ(virtualization_from_dmi("Xen", "HVM domU"), "xen");
  EXPECT_EQ(virtualization_from_dmi("innotek GmbH", "VirtualBox"), "virtualbox");
  EXPECT_EQ(virtualization_from_dmi("Amazon EC2", "c5.xlarge"), "amazon");
  EXPECT_EQ(virtualization_from_dmi("Amazon EC2", "c5.metal"), std::nullopt);
  EXPECT_EQ(virtualization_from_dmi("Google", "Google Compute Engine"), "google");
  EXPECT_EQ(virtualization_from_dmi("LENOVO", "20QV00CGUS"), std::nullopt);
  EXPECT_EQ(virtualization_from_dmi("", ""), std::nullopt);
}

TEST(HostFiles, DmiPlaceholders) {
  EXPECT_EQ(dmi_value("To Be Filled By O.E.M.\n"), std::nullopt);
  EXPECT_EQ(dmi_value("System Product Name"), std::nullopt);
  EXPECT_EQ(dmi_value(" LENOVO\n"), "LENOVO");
}

TEST(HostLive, QueryHostOnThisMachine) {
  auto r = test::run_gpudoctor({"query", "--json", "--backend", "host"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json j = Json::parse(r.out);
  const Json& h = j.at("host");
  EXPECT_TRUE(h.at("kernel_release").is_string());
  EXPECT_TRUE(h.at("kernel_version").is_string());
  EXPECT_TRUE(h.at("architecture").is_string());
  EXPECT_TRUE(h.at("glibc_version").is_string());
  EXPECT_GT(h.at("cpu_threads").get<int>(), 0);
  EXPECT_GT(h.at("memory_total_bytes").get<std::uint64_t>(), 0u);
  if (std::filesystem::exists("/etc/os-release")) {
    EXPECT_TRUE(h.at("os_id").is_string());
  }
}

}  // namespace
}  // namespace gpudoctor
