// The pure parts of the ROCm backend: KFD properties, gfx target names, KFD PCI addresses,
// HSA_OVERRIDE_GFX_VERSION, ROCm version files and the account files (/proc/self/status,
// /etc/passwd, /etc/group). Values are those of the kernel's tables and of real reports.
#include <gtest/gtest.h>

#include "parse/accounts.hpp"
#include "parse/kfd_topology.hpp"

namespace gpudoctor {
namespace {

TEST(RocmParse, KfdPropertiesAreDecimalNameValueLines) {
  // Lines of a gfx1100 node (tinygrad's mock of a real one) plus junk.
  auto p = parse_kfd_properties(
      "cpu_cores_count 0\nsimd_count 192\nsimd_per_cu 2\ngfx_target_version 110000\n"
      "location_id 34304\nunique_id 11673270660693242239\ngarbage\nname with spaces 3\n"
      "domain 010\nbad -1\n");
  EXPECT_EQ(p.at("simd_count"), 192u);
  EXPECT_EQ(p.at("gfx_target_version"), 110000u);
  EXPECT_EQ(p.at("unique_id"), 11673270660693242239ull);
  EXPECT_EQ(p.at("domain"), 10u);  // decimal, not octal
  EXPECT_EQ(p.count("garbage"), 0u);
  EXPECT_EQ(p.count("bad"), 0u);
  EXPECT_EQ(p.count("name"), 0u);
}

TEST(RocmParse, GfxTargetVersionDecodesAsLlvmNamesTargets) {
  // kfd_device.c: Aldebaran 90010, Navy Flounder 100301, GC 9.4.2 90402, Navi 31 110000,
  // Strix Halo 110501, Navi 48 120001.
  EXPECT_EQ(gfx_target_name(90010), "gfx90a");
  EXPECT_EQ(gfx_target_name(100301), "gfx1031");
  EXPECT_EQ(gfx_target_name(90402), "gfx942");
  EXPECT_EQ(gfx_target_name(110000), "gfx1100");
  EXPECT_EQ(gfx_target_name(110501), "gfx1151");
  EXPECT_EQ(gfx_target_name(120001), "gfx1201");
  EXPECT_EQ(gfx_target_name(90012), "gfx90c");
  EXPECT_EQ(gfx_target_name(0), std::nullopt);      // a CPU node
  EXPECT_EQ(gfx_target_name(91600), std::nullopt);  // minor 16: no target
  EXPECT_EQ(gfx_target_name(1000000), std::nullopt);
}

TEST(RocmParse, LocationIdIsBusAndDevfn) {
  EXPECT_EQ(kfd_pci_address(0, 768), "0000:03:00.0");    // rocminfo BDFID 768
  EXPECT_EQ(kfd_pci_address(0, 33536), "0000:83:00.0");  // BDFID 33536 (Radeon PRO V620)
  EXPECT_EQ(kfd_pci_address(1, 0x0a19), "0001:0a:03.1");
  // Partitions of one device carry their number in bits 28–31.
  EXPECT_EQ(kfd_pci_address(0, (3u << 28) | 512u), "0000:02:00.0");
}

TEST(RocmParse, OverrideNamesTheTargetTheRuntimeReports) {
  EXPECT_EQ(gfx_override_target("10.3.0"), "gfx1030");
  EXPECT_EQ(gfx_override_target(" 11.0.0 "), "gfx1100");
  EXPECT_EQ(gfx_override_target("9.0.10"), "gfx90a");
  EXPECT_EQ(gfx_override_target("10.3"), std::nullopt);
  EXPECT_EQ(gfx_override_target("gfx1030"), std::nullopt);
  EXPECT_EQ(gfx_override_target(""), std::nullopt);
}

TEST(RocmParse, GfxNamesTakeFeatureSuffixes) {
  auto v = parse_gfx_target("gfx90a:sramecc+:xnack-");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->major, 9u);
  EXPECT_EQ(v->minor, 0u);
  EXPECT_EQ(v->stepping, 10u);
  v = parse_gfx_target("gfx1031");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->major, 10u);
  EXPECT_EQ(v->stepping, 1u);
  EXPECT_FALSE(parse_gfx_target("navy_flounder"));
  EXPECT_FALSE(parse_gfx_target("gfx"));
}

TEST(RocmParse, VersionFileIsItsFirstLine) {
  EXPECT_EQ(parse_rocm_version_file("6.3.0-39\n"), "6.3.0-39");
  EXPECT_EQ(parse_rocm_version_file("  \n"), std::nullopt);
  EXPECT_EQ(parse_rocm_version_file(""), std::nullopt);
}

TEST(RocmParse, ProcStatusGivesEffectiveIdsAndGroups) {
  auto ids = parse_proc_status_ids(
      "Name:\tcat\nUid:\t1000\t1001\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\n"
      "Groups:\t4 24 27 44 109 1000 \nVmPeak:\t 1 kB\n");
  EXPECT_EQ(ids.uid, 1001u);  // the effective one
  EXPECT_EQ(ids.gid, 1000u);
  EXPECT_EQ(ids.groups, (std::vector<std::uint32_t>{4, 24, 27, 44, 109, 1000}));
  auto none = parse_proc_status_ids("Groups:\t\n");
  EXPECT_FALSE(none.uid);
  EXPECT_TRUE(none.groups.empty());
}

TEST(RocmParse, PasswdAndGroupEntries) {
  auto users =
      parse_passwd("root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:\nbad\n");
  ASSERT_EQ(users.size(), 2u);
  EXPECT_EQ(users[1].name, "user");
  EXPECT_EQ(users[1].uid, 1000u);
  auto groups = parse_group_entries("video:x:44:\nrender:x:109:user,ollama\nbroken\n:x:1:\n");
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].name, "video");
  EXPECT_TRUE(groups[0].members.empty());
  EXPECT_EQ(groups[1].gid, 109u);
  EXPECT_EQ(groups[1].members, (std::vector<std::string>{"user", "ollama"}));
}

}  // namespace
}  // namespace gpudoctor
