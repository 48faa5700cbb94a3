// The machine's kernel log read for the running boot: /dev/kmsg records, a kern.log holding
// several boots, a syslog file with every program's lines. The NVRM and firmware lines are real
// ones: https://github.com/xCuri0/ReBarUEFI/issues/252 (BAR1), https://github.com/endlessm/eos-meta/pull/811
// (GSP firmware), https://github.com/illinois-scicomp/machine-shop-maintenance/issues/70 (API
// mismatch, 520.56.06 module against 525.85.12 libraries), https://github.com/akash-network/support/issues/244
// (Xid 43, 31 and 94 on one node), https://github.com/NVIDIA/gpu-operator/issues/1146 (Xid 48 and 64),
// https://github.com/leptonai/gpud/pull/46 (Xid 109).
#include <gtest/gtest.h>

#include <algorithm>

#include "parse/kernel_log.hpp"
#include "paste/kernel_log.hpp"

namespace gpudoctor {
namespace {

bool has(const std::vector<Symptom>& s, const std::string& id) {
  return std::any_of(s.begin(), s.end(), [&](const Symptom& x) { return x.id == id; });
}

constexpr const char* kMismatch =
    "NVRM: API mismatch: the client has the version 525.85.12, but\n"
    "NVRM: this kernel module has the version 520.56.06.  Please\n"
    "NVRM: make sure that this kernel module and all NVIDIA driver\n"
    "NVRM: components have the same version.\n";
constexpr const char* kBar =
    "NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:\n"
    "      NVRM: BAR1 is 0M @ 0x0 (PCI:0000:01:00.0)\n";

TEST(KernelLog, KmsgRecordsGiveTheirMessage) {
  EXPECT_EQ(kmsg_message("6,1234,5678901,-;NVRM: loading NVIDIA UNIX x86_64 Kernel Module\n SUBSYSTEM=pci\n"),
            "NVRM: loading NVIDIA UNIX x86_64 Kernel Module");
  EXPECT_EQ(kmsg_message("4,2,3,c;nvidia: module verification failed"), "nvidia: module verification failed");
  EXPECT_EQ(kmsg_message("no separator"), "");
}

TEST(KernelLog, OnlyTheLastBootOfAKernLogCounts) {
  const std::string log =
      "Nov 20 10:00:00 h kernel: [    0.000000] Linux version 6.1.0-17-amd64 (debian-kernel@lists.debian.org)\n" +
      std::string(kMismatch) +
      "Nov 21 09:00:00 h kernel: [    0.000000] Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org)\n"
      "Nov 21 09:00:05 h kernel: [    5.100000] " + kBar;
  const std::string_view boot = current_boot(log);
  EXPECT_EQ(boot.find("API mismatch"), std::string_view::npos);
  EXPECT_NE(boot.find("BAR1 is 0M"), std::string_view::npos);
  std::size_t lines = 0;
  const auto s = kernel_log_symptoms(log, KernelLogLayout::kernel, "/var/log/kern.log", &lines);
  EXPECT_TRUE(has(s, "nvrm.bar_invalid"));
  EXPECT_FALSE(has(s, "nvrm.api_mismatch")) << "a mismatch of an earlier boot is not this machine's";
  EXPECT_EQ(lines, 2u);  // the two BAR lines; the boot's "Linux version" line is no GPU line
  for (const auto& x : s) EXPECT_EQ(x.values.at("kernel_log"), "/var/log/kern.log");
}

TEST(KernelLog, ALogWithoutABootStartIsAllOneBoot) {
  // A log rotated after the boot: every line is the running boot's.
  const auto s = kernel_log_symptoms(kMismatch, KernelLogLayout::kernel, "/dev/kmsg");
  EXPECT_TRUE(has(s, "nvrm.api_mismatch"));
  // /dev/kmsg's messages have no timestamp: "Linux version" opens the line.
  const std::string kmsg = std::string(kMismatch) + "Linux version 6.8.0\n" +
                           "nvidia 0000:01:00.0: Direct firmware load for nvidia/555.58.02/gsp_tu10x.bin failed with error -2\n";
  const auto t = kernel_log_symptoms(kmsg, KernelLogLayout::kernel, "/dev/kmsg");
  EXPECT_FALSE(has(t, "nvrm.api_mismatch"));
  EXPECT_TRUE(has(t, "nvrm.firmware_missing"));
}

TEST(KernelLog, SyslogFilesAreReadForTheKernelsLinesOnly) {
  // A program quoting an NVRM line in /var/log/messages is not the kernel saying it.
  const std::string log =
      "Nov 21 09:00:05 h myapp[123]: NVRM: API mismatch: the client has the version 525.85.12, but\n"
      "Nov 21 09:00:06 h kernel: nvidia 0000:01:00.0: Direct firmware load for nvidia/555.58.02/gsp_tu10x.bin failed with error -2\n";
  const auto s = kernel_log_symptoms(log, KernelLogLayout::syslog, "/var/log/messages");
  EXPECT_TRUE(has(s, "nvrm.firmware_missing"));
  EXPECT_FALSE(has(s, "nvrm.api_mismatch"));
  EXPECT_TRUE(is_kernel_line("2026-11-29T04:50:22.123456+00:00 host kernel: NVRM: Xid"));
  EXPECT_FALSE(is_kernel_line("Nov 21 09:00:05 h myapp[123]: kernel: NVRM"));
}

TEST(KernelLog, LinesOfOtherDriversAreNotRead) {
  EXPECT_TRUE(is_gpu_kernel_line("[    2.1] amdgpu 0000:03:00.0: amdgpu: Fatal error during GPU init"));
  EXPECT_TRUE(is_gpu_kernel_line("xe 0000:03:00.0: [drm] GuC firmware xe/bmg_guc_70.bin: fetch failed"));
  EXPECT_FALSE(is_gpu_kernel_line("[    1.0] e1000e 0000:00:1f.6 eth0: NIC Link is Up"));
  std::size_t lines = 99;
  EXPECT_TRUE(kernel_log_symptoms("usb 1-1: new high-speed USB device\n", KernelLogLayout::kernel, "x", &lines).empty());
  EXPECT_EQ(lines, 0u);
}

TEST(KernelLog, AHugeLogKeepsItsNewestGpuLines) {
  std::string log;
  for (std::size_t i = 0; i < kKernelLogMaxLines + 100; ++i) log += "NVRM: loading NVIDIA UNIX x86_64 Kernel Module\n";
  log += kBar;
  std::size_t lines = 0;
  const auto s = kernel_log_symptoms(log, KernelLogLayout::kernel, "/var/log/kern.log", &lines);
  EXPECT_EQ(lines, kKernelLogMaxLines);
  EXPECT_TRUE(has(s, "nvrm.bar_invalid"));
}


const Symptom* find(const std::vector<Symptom>& s, const std::string& id) {
  for (const auto& x : s) {
    if (x.id == id) return &x;
  }
  return nullptr;
}

// An Xid is read through data/messages/xid_codes.json: its meaning and how grave it is. A log with
// several speaks for the gravest: the application faults (43, 31) come first in this node's log,
// the contained ECC error (94) after them.
TEST(KernelLog, SeveralXidsAreReadAsTheGravest) {
  const std::string log =
      "[Wed Jul 31 23:14:18 2024] NVRM: Xid (PCI:0000:00:05): 43, pid=1045242, name=pt_main_thread, Ch 00000008\n"
      "[Mon Aug  5 03:54:13 2024] NVRM: Xid (PCI:0000:00:07): 31, pid=2512125, name=python3.10, Ch 00000008, intr 00000000. "
      "MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_8 faulted @ 0x73ac_1c000000. Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_WRITE\n"
      "[Fri Aug  9 13:32:56 2024] NVRM: Xid (PCI:0000:00:08): 94, pid='<unknown>', name=<unknown>, Contained: SM (0x1). RST: No, D-RST: No\n";
  const auto s = kernel_log_symptoms(log, KernelLogLayout::kernel, "/var/log/kern.log");
  const Symptom* x = find(s, "nvrm.xid");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->values.at("xid"), "94");
  EXPECT_EQ(x->values.at("pci"), "0000:00:08");
  EXPECT_EQ(x->values.at("code_name"), "ROBUST_CHANNEL_CONTAINED_ERROR");
  EXPECT_EQ(x->values.at("code_finding"), "live.ecc_uncorrected");
  EXPECT_EQ(x->values.at("code_severity"), "warn");
  // The uncontained one after it is graver still; an application fault after it is not.
  const auto t = kernel_log_symptoms(
      log + "NVRM: Xid (PCI:0000:00:08): 95, pid='<unknown>', name=<unknown>, Uncontained: FBHUB. RST: Yes, D-RST: No\n"
            "NVRM: Xid (PCI:0000:00:05): 13, pid='<unknown>', name=<unknown>, Graphics Exception\n",
      KernelLogLayout::kernel, "/var/log/kern.log");
  ASSERT_NE(find(t, "nvrm.xid"), nullptr);
  EXPECT_EQ(find(t, "nvrm.xid")->values.at("xid"), "95");
  EXPECT_EQ(find(t, "nvrm.xid")->values.at("code_severity"), "fail");
}

TEST(KernelLog, AnXidNoTableListsIsStillNamed) {
  const auto s = kernel_log_symptoms(
      "[Fri Aug 30 11:43:14 2024] NVRM: Xid (PCI:0000:cb:00): 109, pid=1797828, name=pt_main_thread, Ch 00000008, "
      "errorString CTX SWITCH TIMEOUT, Info 0x58005\n",
      KernelLogLayout::kernel, "/dev/kmsg");
  EXPECT_EQ(find(s, "nvrm.xid"), nullptr);
  const Symptom* x = find(s, "nvrm.xid_unlisted");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->values.at("xid"), "109");
  EXPECT_EQ(x->values.count("meaning"), 0u);
}

}  // namespace
}  // namespace gpudoctor
