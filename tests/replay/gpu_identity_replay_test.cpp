// GPU identity everywhere, end to end: a --sysroot tree without pci.ids still names its GPUs
// and their chips from the built-in pci.ids, and says where each name came from.
#include <gtest/gtest.h>

#include <filesystem>

#include "json.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

/// A fixture tree copied to a temporary directory, its pci.ids removed: a root with none.
std::string without_pci_ids(const test::TempTree& tmp, const std::string& fixture) {
  const std::string root = tmp.path() + "/root";
  fs::copy(test::fixture_path(fixture), root,
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::remove(root + "/usr/share/misc/pci.ids");
  return root;
}

TEST(GpuIdentity, ARootWithoutPciIdsStillNamesItsGpusAndSaysFromWhere) {
  test::TempTree tmp;
  const std::string root = without_pci_ids(tmp, "server-a100-sxm4");
  auto r = test::run_gpudoctor({"query", "--json", "--backend", "host,pci", "--sysroot", root});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json j = Json::parse(r.out);
  ASSERT_EQ(j["devices"].size(), 1u);
  const Json& d = j["devices"][0];
  EXPECT_EQ(d["name"], "GA100 [A100 SXM4 40GB]");
  EXPECT_EQ(d["name_source"], "builtin pci.ids");
  EXPECT_EQ(d["chip"], "GA100");
  EXPECT_EQ(d["pci"]["name_source"], "builtin pci.ids");
  EXPECT_EQ(d["pci"]["vendor_name"], "NVIDIA Corporation");
  // With the root's own pci.ids the name is the root's, and says so.
  auto own = test::run_gpudoctor({"query", "--json", "--backend", "host,pci", "--sysroot",
                                  test::fixture_path("server-a100-sxm4")});
  Json o = Json::parse(own.out);
  EXPECT_EQ(o["devices"][0]["name_source"], "pci.ids");
  EXPECT_EQ(o["devices"][0]["chip"], "GA100");
}

TEST(GpuIdentity, AMacsGpuKeepsSystemProfilersNameAndGetsItsChip) {
  // The seed-001 eGPU: system_profiler's name stays, the chip comes from its device id.
  auto r = test::run_gpudoctor({"query", "--json", "--sysroot",
                                test::fixture_path("mac-egpu-rx5700xt-plaidml")});
  Json j = Json::parse(r.out);
  bool seen = false;
  for (const auto& dev : j["devices"]) {
    if (dev["device_id"] != 0x731f) continue;
    seen = true;
    EXPECT_EQ(dev["name_source"], "system_profiler");
    EXPECT_EQ(dev["chip"], "Navi 10");
  }
  EXPECT_TRUE(seen) << r.out;
}

}  // namespace
}  // namespace gpudoctor
