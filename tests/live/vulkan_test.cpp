// The Vulkan backend: version decoding, driver manifests and where the loader finds them, a
// live run on lavapipe (Mesa's CPU driver), and fake drivers that crash, hang or lie.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "core/root.hpp"
#include "environment.hpp"
#include "json.hpp"
#include "parse/vulkan_manifest.hpp"
#include "probe_context.hpp"
#include "test_support.hpp"
#include "vulkan/vulkan_probe.hpp"
#include "api/vulkan/vulkan_names.hpp"
#include "api/vulkan/vulkan_search.hpp"
#include "api/vulkan/vulkan_version.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

Environment env_of(std::map<std::string, std::string> vars) { return Environment(std::move(vars)); }

// ---- versions --------------------------------------------------------------------------------

TEST(VulkanVersion, ApiVersionsDecode) {
  EXPECT_EQ(vulkan_api_version_string(pack_vulkan_api_version(0, 1, 3, 239)), "1.3.239");
  EXPECT_EQ(vulkan_api_version_string(4206831u), "1.3.239");  // loader 1.3.239, packed
  EXPECT_EQ(vulkan_api_version_string(pack_vulkan_api_version(1, 1, 0, 12)), "1:1.0.12");
  auto v = decode_vulkan_api_version(pack_vulkan_api_version(0, 1, 2, 4095));
  EXPECT_EQ(v.major, 1u);
  EXPECT_EQ(v.minor, 2u);
  EXPECT_EQ(v.patch, 4095u);
}

TEST(VulkanVersion, ManifestApiVersionsParse) {
  EXPECT_EQ(parse_vulkan_api_version("1.3.230"), pack_vulkan_api_version(0, 1, 3, 230));
  EXPECT_EQ(parse_vulkan_api_version("1.1"), pack_vulkan_api_version(0, 1, 1, 0));
  EXPECT_FALSE(parse_vulkan_api_version(""));
  EXPECT_FALSE(parse_vulkan_api_version("one.two"));
  EXPECT_FALSE(parse_vulkan_api_version("1.3.5000"));  // patch has 12 bits
  EXPECT_FALSE(parse_vulkan_api_version("1.0x1.0"));
}

TEST(VulkanVersion, NvidiaDriverVersion535_104_05) {
  const std::uint32_t raw = (535u << 22) | (104u << 14) | (5u << 6);
  EXPECT_EQ(raw, 2245656896u);
  EXPECT_EQ(vulkan_driver_version_string(raw, 0x10DE, kVkDriverIdNvidiaProprietary), "535.104.5");
  EXPECT_EQ(vulkan_driver_version_string(raw, 0x10DE, std::nullopt), "535.104.5");
  EXPECT_EQ(vulkan_driver_version_string(raw | 3u, 0x10DE, std::nullopt), "535.104.5.3");
  // nouveau's NVK (MESA_NVK = 24) is NVIDIA hardware with Mesa's numbering.
  EXPECT_NE(vulkan_driver_version_string(raw, 0x10DE, 24), "535.104.5");
}

TEST(VulkanVersion, MesaDriverVersion22_3_6) {
  const std::uint32_t raw = (22u << 22) | (3u << 12) | 6u;            // VK_MAKE_VERSION(22, 3, 6)
  EXPECT_EQ(vulkan_driver_version_string(raw, 0x8086, 6), "22.3.6");  // anv
  EXPECT_EQ(vulkan_driver_version_string(raw, 0x1002, 3), "22.3.6");  // radv
  EXPECT_EQ(vulkan_driver_version_string(raw, 0x8086, std::nullopt), "22.3.6");
  EXPECT_EQ(vulkan_driver_version_string(1, 0x10005, 13), "0.0.1");  // lavapipe in Mesa 22.3.6
}

TEST(VulkanVersion, IntelWindowsDriverVersion) {
  const std::uint32_t raw = (101u << 14) | 4146u;
  EXPECT_EQ(vulkan_driver_version_string(raw, 0x8086, kVkDriverIdIntelProprietaryWindows),
            "101.4146");
}

TEST(VulkanVersion, ConformanceVersion) {
  EXPECT_EQ(vulkan_conformance_version_string(1, 3, 1, 1), "1.3.1.1");
}

// ---- names -----------------------------------------------------------------------------------

TEST(VulkanNames, ResultsAreNamedWithTheirNumber) {
  EXPECT_EQ(vk_result_text(-9), "VK_ERROR_INCOMPATIBLE_DRIVER (-9)");
  EXPECT_EQ(vk_result_text(-3), "VK_ERROR_INITIALIZATION_FAILED (-3)");
  EXPECT_EQ(vk_result_text(-424242), "VkResult -424242");
}

TEST(VulkanNames, TypesDriverIdsAndFlags) {
  EXPECT_EQ(vk_device_type_name(4), "cpu");
  EXPECT_EQ(vk_device_type_name(2), "discrete_gpu");
  EXPECT_FALSE(vk_device_type_name(0x7FFFFFF0));
  EXPECT_EQ(vk_driver_id_name(13), "MESA_LLVMPIPE");
  EXPECT_EQ(vk_driver_id_name(4), "NVIDIA_PROPRIETARY");
  EXPECT_FALSE(vk_driver_id_name(0));
  EXPECT_EQ(vk_queue_flag_names(0x7),
            (std::vector<std::string>{"graphics", "compute", "transfer"}));
  EXPECT_EQ(vk_queue_flag_names(0x80000002u), (std::vector<std::string>{"compute", "0x80000000"}));
  EXPECT_EQ(vk_memory_property_flag_names(0x7),
            (std::vector<std::string>{"device_local", "host_visible", "host_coherent"}));
}

TEST(VulkanNames, FixedStringsStopAtTheArrayAndDropControls) {
  const char name[8] = {'l', 'l', 'v', 'm', '\0', 'X', 'X', 'X'};
  bool terminated = false;
  EXPECT_EQ(vk_fixed_string(name, sizeof name, &terminated), "llvm");
  EXPECT_TRUE(terminated);
  const char garbage[6] = {'\xff', '\x1b', '[', '2', 'J', '\x07'};
  std::string s = vk_fixed_string(garbage, sizeof garbage, &terminated);
  EXPECT_FALSE(terminated);
  EXPECT_EQ(s, "\xEF\xBF\xBD\xEF\xBF\xBD[2J\xEF\xBF\xBD");
  const char utf8[] = "caf\xc3\xa9";
  EXPECT_EQ(vk_fixed_string(utf8, sizeof utf8), "caf\xc3\xa9");
}

TEST(VulkanNames, UuidFromLavapipe) {
  const std::uint8_t uuid[16] = {'m', 'e', 's', 'a', '2', '2', '.', '3', '.', '6'};
  EXPECT_EQ(vk_uuid_string(uuid), "6d657361-3232-2e33-2e36-000000000000");
}

// ---- manifests -------------------------------------------------------------------------------

// As installed by mesa-vulkan-drivers 22.3.6-1+deb12u2 (Debian 12).
constexpr const char* kLvpManifest = R"({
    "ICD": {
        "api_version": "1.1.230",
        "library_path": "/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so"
    },
    "file_format_version": "1.0.0"
})";
constexpr const char* kIntelManifest = R"({
    "ICD": {
        "api_version": "1.3.230",
        "library_path": "/usr/lib/x86_64-linux-gnu/libvulkan_intel.so"
    },
    "file_format_version": "1.0.0"
})";
constexpr const char* kRadeonManifest = R"({
    "ICD": {
        "api_version": "1.3.230",
        "library_path": "/usr/lib/x86_64-linux-gnu/libvulkan_radeon.so"
    },
    "file_format_version": "1.0.0"
})";

TEST(VulkanManifest, MesaManifestsFromDebian12) {
  auto lvp = parse_vulkan_manifest(kLvpManifest);
  EXPECT_FALSE(lvp.error) << *lvp.error;
  EXPECT_EQ(lvp.file_format_version, "1.0.0");
  EXPECT_EQ(lvp.library_path, "/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so");
  EXPECT_EQ(lvp.api_version, "1.1.230");
  EXPECT_FALSE(lvp.is_portability_driver);
  auto intel = parse_vulkan_manifest(kIntelManifest);
  EXPECT_FALSE(intel.error);
  EXPECT_EQ(intel.library_path, "/usr/lib/x86_64-linux-gnu/libvulkan_intel.so");
  auto radeon = parse_vulkan_manifest(kRadeonManifest);
  EXPECT_FALSE(radeon.error);
  EXPECT_EQ(radeon.api_version, "1.3.230");
}

TEST(VulkanManifest, TheFilesOnThisMachineParseWhenPresent) {
  const std::string dir = "/usr/share/vulkan/icd.d";
  std::error_code ec;
  int seen = 0;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::ifstream in(e.path());
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto m = parse_vulkan_manifest(text);
    EXPECT_FALSE(m.error) << e.path() << ": " << *m.error;
    EXPECT_TRUE(m.library_path) << e.path();
    ++seen;
  }
  if (seen == 0) GTEST_SKIP() << "no Vulkan driver manifests in " << dir;
}

TEST(VulkanManifest, BrokenManifestsSayWhyTheLoaderSkipsThem) {
  EXPECT_EQ(parse_vulkan_manifest("{\"ICD\": {").error, "not valid JSON");
  EXPECT_EQ(parse_vulkan_manifest("[1, 2]").error, "not a JSON object");
  EXPECT_EQ(
      parse_vulkan_manifest(R"({"ICD": {"library_path": "x.so", "api_version": "1.0"}})").error,
      "no \"file_format_version\" string");
  EXPECT_EQ(parse_vulkan_manifest(R"({"file_format_version": "1.0.0"})").error,
            "no \"ICD\" object");
  auto empty = parse_vulkan_manifest(
      R"({"file_format_version": "1.0.0", "ICD": {"library_path": "", "api_version": "1.3"}})");
  EXPECT_EQ(empty.error, "\"ICD.library_path\" is empty");
  auto no_api = parse_vulkan_manifest(
      R"({"file_format_version": "1.0.0", "ICD": {"library_path": "libx.so"}})");
  EXPECT_EQ(no_api.error, "no \"ICD.api_version\" string");
  EXPECT_EQ(no_api.library_path, "libx.so");  // still reported, for the record
  auto portable = parse_vulkan_manifest(
      R"({"file_format_version": "1.0.1", "ICD": {"library_path": "./libMoltenVK.dylib",
          "api_version": "1.2.0", "is_portability_driver": true}})");
  EXPECT_FALSE(portable.error);
  EXPECT_EQ(portable.is_portability_driver, true);
}

// ---- where the loader looks ------------------------------------------------------------------

std::vector<std::string> paths(const VulkanSearchPlan& plan) {
  std::vector<std::string> out;
  for (const auto& p : plan.places) out.push_back(p.path);
  return out;
}

TEST(VulkanSearch, DefaultOrderMatchesLoader1_3_239) {
  // What VK_LOADER_DEBUG=driver vulkaninfo prints on this Debian 12 machine as root.
  auto plan = vulkan_driver_search_plan(env_of({{"HOME", "/root"}}));
  EXPECT_FALSE(plan.override_variable);
  EXPECT_EQ(paths(plan),
            (std::vector<std::string>{"/root/.config/vulkan/icd.d", "/etc/xdg/vulkan/icd.d",
                                      "/etc/vulkan/icd.d", "/root/.local/share/vulkan/icd.d",
                                      "/usr/local/share/vulkan/icd.d", "/usr/share/vulkan/icd.d"}));
  EXPECT_EQ(plan.places.back().source, "/usr/share/vulkan/icd.d");
}

TEST(VulkanSearch, XdgVariablesAndNoHome) {
  auto plan = vulkan_driver_search_plan(
      env_of({{"XDG_CONFIG_DIRS", "/a:/b/"}, {"XDG_DATA_HOME", "/c"}, {"XDG_DATA_DIRS", "/d"}}));
  EXPECT_EQ(paths(plan),
            (std::vector<std::string>{"/a/vulkan/icd.d", "/b/vulkan/icd.d", "/etc/vulkan/icd.d",
                                      "/c/vulkan/icd.d", "/d/vulkan/icd.d"}));
}

TEST(VulkanSearch, AddDriverFilesComeFirst) {
  auto plan = vulkan_driver_search_plan(
      Environment({{"HOME", "/home/me"}, {"VK_ADD_DRIVER_FILES", "/opt/a.json:/opt/icd"}}));
  ASSERT_GE(plan.places.size(), 3u);
  EXPECT_EQ(plan.places[0].path, "/opt/a.json");
  EXPECT_EQ(plan.places[0].source, "VK_ADD_DRIVER_FILES");
  EXPECT_TRUE(plan.places[0].from_variable);
  EXPECT_EQ(plan.places[1].path, "/opt/icd");
  EXPECT_EQ(plan.places[2].path, "/home/me/.config/vulkan/icd.d");
}

TEST(VulkanSearch, DriverFilesReplaceEverythingElse) {
  auto plan = vulkan_driver_search_plan(env_of({{"HOME", "/root"},
                                                {"VK_DRIVER_FILES", "/x.json"},
                                                {"VK_ICD_FILENAMES", "/old.json"},
                                                {"VK_ADD_DRIVER_FILES", "/add.json"}}));
  EXPECT_EQ(plan.override_variable, "VK_DRIVER_FILES");
  EXPECT_EQ(paths(plan), (std::vector<std::string>{"/x.json"}));
  auto old = vulkan_driver_search_plan(env_of({{"VK_ICD_FILENAMES", "/old.json"}}));
  EXPECT_EQ(old.override_variable, "VK_ICD_FILENAMES");
  EXPECT_EQ(paths(old), (std::vector<std::string>{"/old.json"}));
  // Set but empty still overrides: loader 1.3.239 then says "Found no drivers!".
  auto empty = vulkan_driver_search_plan(
      Environment({{"VK_DRIVER_FILES", ""}, {"VK_ICD_FILENAMES", "/old.json"}}));
  EXPECT_EQ(empty.override_variable, "VK_DRIVER_FILES");
  EXPECT_TRUE(empty.places.empty());
}

TEST(VulkanSearch, MesaDrmDriversWithoutTheirGpuAreNotWorthLoading) {
  const std::string radv = "/usr/lib/x86_64-linux-gnu/libvulkan_radeon.so";
  // No render node at all (this VM): radv, anv, hasvk and NVK can find nothing.
  auto none = vulkan_driver_without_device(radv, {});
  ASSERT_TRUE(none);
  EXPECT_EQ(*none, "radv drives only AMD GPUs, through a DRM render node; this machine has no "
                   "/dev/dri/renderD* node");
  EXPECT_TRUE(vulkan_driver_without_device("libvulkan_intel_hasvk.so", {}));
  EXPECT_TRUE(vulkan_driver_without_device("libvulkan_nouveau.so", {}));
  // An NVIDIA render node: radv and anv have nothing to drive, NVK might.
  const std::vector<DrmRenderNode> nvidia{{"renderD128", 0x10de}};
  auto amd = vulkan_driver_without_device(radv, nvidia);
  ASSERT_TRUE(amd);
  EXPECT_NE(amd->find("(1002); renderD128 is 10de"), std::string::npos) << *amd;
  EXPECT_TRUE(vulkan_driver_without_device("/usr/lib/libvulkan_intel.so", nvidia));
  EXPECT_FALSE(vulkan_driver_without_device("/usr/lib/libvulkan_nouveau.so", nvidia));
  // Its vendor among several nodes, or a node whose vendor sysfs does not give: keep it.
  EXPECT_FALSE(vulkan_driver_without_device(radv, {{"renderD128", 0x8086}, {"renderD129", 0x1002}}));
  EXPECT_FALSE(vulkan_driver_without_device(radv, {{"renderD128", std::nullopt}}));
  // Drivers that are not DRM-only are always loaded: lavapipe, NVIDIA's own, anything unknown.
  EXPECT_FALSE(vulkan_driver_without_device("/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so", {}));
  EXPECT_FALSE(vulkan_driver_without_device("libGLX_nvidia.so.0", {}));
}

// ---- discovery under a root ------------------------------------------------------------------

class VulkanDiscover : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("gpudoctor-vk-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const std::string& path, const std::string& text) {
    fs::path p = root_ / path.substr(1);
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  static std::string manifest(const std::string& lib) {
    return R"({"file_format_version": "1.0.0", "ICD": {"library_path": ")" + lib +
           R"(", "api_version": "1.3.230"}})";
  }
  const VulkanManifest* find(const VulkanInfo& info, const std::string& file) {
    for (const auto& m : info.manifests) {
      if (m.file == file) return &m;
    }
    return nullptr;
  }
  fs::path root_;
};

TEST_F(VulkanDiscover, ResolvesLibrariesTheWayTheLoaderDoes) {
  const std::string icd = "/usr/share/vulkan/icd.d";
  write(icd + "/a_absolute.json", manifest("/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so"));
  write("/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so", "");
  write(icd + "/b_relative.json", manifest("./lib/libvk_rel.so"));
  write(icd + "/lib/libvk_rel.so", "");
  write(icd + "/c_bare.json", manifest("libvk_bare.so.1"));
  write("/usr/lib/x86_64-linux-gnu/libvk_bare.so.1", "");
  write(icd + "/d_missing.json", manifest("/usr/lib/libvulkan_gone.so"));
  write(icd + "/e_broken.json", "{ not json");
  write(icd + "/README", "not a manifest");
  write("/etc/vulkan/icd.d/nvidia_icd.json", manifest("libGLX_nvidia.so.0"));
  write("/opt/extra/fake.json", manifest("/opt/extra/libfake.so"));
  write("/opt/extra/libfake.so", "");

  const Root root(root_);
  const Environment env =
      env_of({{"HOME", "/root"}, {"VK_ADD_DRIVER_FILES", "/opt/extra/fake.json"}});
  const ProbeContext ctx{root, env, false};
  VulkanInfo info = vulkan::discover(ctx);

  ASSERT_EQ(info.manifests.size(), 7u);
  EXPECT_EQ(info.manifests[0].file, "/opt/extra/fake.json");
  EXPECT_EQ(info.manifests[0].source, "VK_ADD_DRIVER_FILES");
  EXPECT_EQ(info.manifests[0].resolved, "/opt/extra/libfake.so");
  EXPECT_EQ(info.manifests[1].file, "/etc/vulkan/icd.d/nvidia_icd.json");
  EXPECT_EQ(info.manifests[1].source, "/etc/vulkan/icd.d");
  EXPECT_FALSE(info.manifests[1].resolved);
  EXPECT_EQ(info.manifests[1].error,
            "library libGLX_nvidia.so.0 not found in the library search path");

  auto* a = find(info, icd + "/a_absolute.json");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->resolved, "/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so");
  EXPECT_EQ(a->api_version, "1.3.230");
  EXPECT_EQ(a->file_format_version, "1.0.0");
  EXPECT_FALSE(a->error);
  auto* b = find(info, icd + "/b_relative.json");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->resolved, icd + "/lib/libvk_rel.so");
  auto* c = find(info, icd + "/c_bare.json");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->resolved, "/usr/lib/x86_64-linux-gnu/libvk_bare.so.1");
  auto* d = find(info, icd + "/d_missing.json");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->error, "library /usr/lib/libvulkan_gone.so not found");
  auto* e = find(info, icd + "/e_broken.json");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->error, "not valid JSON");

  EXPECT_FALSE(info.driver_override);
  ASSERT_FALSE(info.search_paths.empty());
  EXPECT_EQ(info.search_paths.front(), "/opt/extra/fake.json");
  // Under a sysroot nothing is loaded: no jobs, and the backend says so.
  EXPECT_TRUE(vulkan::jobs(ctx, info).empty());
  std::vector<IsolatedResult> none;
  ProbeOutcome own = vulkan::assemble(info, none, false);
  EXPECT_EQ(own.status, ProbeStatus::skipped);
  EXPECT_NE(own.detail.find("7 driver manifests"), std::string::npos) << own.detail;
}

TEST_F(VulkanDiscover, MesaDriversForAbsentGpusAreListedButNotLoaded) {
  const std::string icd = "/usr/share/vulkan/icd.d";
  const std::string lib = "/usr/lib/x86_64-linux-gnu/";
  write(icd + "/radeon_icd.x86_64.json", manifest(lib + "libvulkan_radeon.so"));
  write(icd + "/intel_icd.x86_64.json", manifest(lib + "libvulkan_intel.so"));
  write(icd + "/lvp_icd.x86_64.json", manifest(lib + "libvulkan_lvp.so"));
  for (const char* f : {"libvulkan_radeon.so", "libvulkan_intel.so", "libvulkan_lvp.so"}) {
    write(lib + f, "");
  }
  // One render node, an Intel iGPU (the laptop-optimus-lenovo fixture's 8086:0416).
  write("/dev/dri/renderD128", "");
  write("/sys/class/drm/renderD128/device/vendor", "0x8086\n");

  const Root root(root_);
  const Environment env = env_of({{"HOME", "/root"}});
  // Discovered as under --sysroot (the placeholder libraries are not ELF files), then asked
  // for the jobs a live run would start.
  VulkanInfo info = vulkan::discover(ProbeContext{root, env, false});
  auto* radeon = find(info, icd + "/radeon_icd.x86_64.json");
  ASSERT_TRUE(radeon);
  ASSERT_TRUE(radeon->not_loaded);
  EXPECT_NE(radeon->not_loaded->find("renderD128 is 8086"), std::string::npos);
  EXPECT_FALSE(radeon->error);
  EXPECT_FALSE(find(info, icd + "/intel_icd.x86_64.json")->not_loaded);
  EXPECT_FALSE(find(info, icd + "/lvp_icd.x86_64.json")->not_loaded);

  // Live, the jobs are anv and lavapipe only.
  std::vector<std::string> labels;
  for (const auto& j : vulkan::jobs(ProbeContext{root, env, true}, info)) labels.push_back(j.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"intel_icd.x86_64.json", "lvp_icd.x86_64.json"}));
  // With radv the only driver installed, nothing is loaded and the outcome says why.
  info.manifests = {*radeon};
  info.loader = lib + "libvulkan.so.1";
  std::vector<IsolatedResult> none;
  ProbeOutcome own = vulkan::assemble(info, none, true);
  EXPECT_EQ(own.status, ProbeStatus::missing);
  EXPECT_EQ(own.detail, "no device: 1 driver installed, none for a device on this machine");
}

TEST_F(VulkanDiscover, DriverFilesNamingAMissingFileIsReported) {
  write("/usr/share/vulkan/icd.d/lvp.json", manifest("/usr/lib/libvulkan_lvp.so"));
  const Root root(root_);
  const Environment env = env_of({{"VK_DRIVER_FILES", "/nowhere/icd.json"}});
  VulkanInfo info = vulkan::discover(ProbeContext{root, env, false});
  EXPECT_EQ(info.driver_override, "VK_DRIVER_FILES");
  ASSERT_EQ(info.manifests.size(), 1u);  // the standard directory is not searched
  EXPECT_EQ(info.manifests[0].source, "VK_DRIVER_FILES");
  EXPECT_EQ(info.manifests[0].error, "cannot be read");
}

TEST_F(VulkanDiscover, MalformedChildDataBecomesAFailureNamingTheLibrary) {
  VulkanInfo info;
  info.loader = "/usr/lib/x86_64-linux-gnu/libvulkan.so.1";
  info.manifests.push_back({"/usr/share/vulkan/icd.d", "/usr/share/vulkan/icd.d/x.json"});
  std::vector<IsolatedResult> results(1);
  results[0].outcome = {"vulkan", "x.json", "/usr/lib/libvulkan_x.so", ProbeStatus::ok, "1 device"};
  results[0].data = Json{{"manifest", "x.json"}, {"devices", {{{"vendor_id", "not a number"}}}}};
  ProbeOutcome own = vulkan::assemble(info, results, true);
  EXPECT_EQ(results[0].outcome.status, ProbeStatus::failed);
  EXPECT_NE(results[0].outcome.detail.find("/usr/lib/libvulkan_x.so"), std::string::npos)
      << results[0].outcome.detail;
  EXPECT_TRUE(info.devices.empty());
  EXPECT_EQ(own.status, ProbeStatus::failed);
}

// ---- live: the real loader, lavapipe, and fake drivers ---------------------------------------

constexpr const char* kLvpManifestPath = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// Runs with the driver-selection variables of the test's own environment cleared, so that
/// only what a test sets is in force.
class VulkanLive : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kLvpManifestPath))
      GTEST_SKIP() << "lavapipe (mesa-vulkan-drivers) not installed";
    for (const char* v : kVariables) {
      if (const char* s = ::getenv(v)) saved_.emplace_back(v, s);
      ::unsetenv(v);
    }
  }
  void TearDown() override {
    for (auto& [k, v] : saved_) ::setenv(k.c_str(), v.c_str(), 1);
  }

  static Json query(const std::vector<std::string>& extra_env, double timeout_s,
                    test::CommandResult* out) {
    *out = test::run_gpudoctor(
        {"query", "--json", "--backend", "vulkan", "--timeout", std::to_string(timeout_s)},
        extra_env);
    return Json::parse(out->out, nullptr, false);
  }
  static const Json* lavapipe(const Json& snap) {
    for (const auto& d : snap["vulkan"]["devices"]) {
      if (d["driver_id"] == 13) return &d;
    }
    return nullptr;
  }
  static const Json* outcome_for(const Json& snap, const std::string& library_part) {
    for (const auto& p : snap["probes"]) {
      if (p["library"].is_string() &&
          p["library"].get<std::string>().find(library_part) != std::string::npos) {
        return &p;
      }
    }
    return nullptr;
  }
  static std::string fake(const std::string& mode) {
    return std::string(GPUDOCTOR_FAKES) + "/vulkan/fake_vk_" + mode + ".json";
  }

  static constexpr const char* kVariables[] = {"VK_DRIVER_FILES", "VK_ICD_FILENAMES",
                                               "VK_ADD_DRIVER_FILES", "VK_LOADER_DRIVERS_SELECT",
                                               "VK_LOADER_DRIVERS_DISABLE"};
  std::vector<std::pair<std::string, std::string>> saved_;
};

TEST_F(VulkanLive, LavapipeIsFoundAndDescribed) {
  test::CommandResult r;
  Json snap = query({}, 10, &r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_FALSE(snap.is_discarded()) << r.out;
  const Json* d = lavapipe(snap);
  ASSERT_TRUE(d) << snap["vulkan"].dump(2) << "\n" << snap["probes"].dump(2);
  EXPECT_EQ((*d)["type"], "cpu");
  EXPECT_EQ((*d)["vendor_id"], 0x10005);
  EXPECT_EQ((*d)["manifest"], kLvpManifestPath);
  EXPECT_EQ((*d)["name"].get<std::string>().rfind("llvmpipe", 0), 0u) << (*d)["name"];
  EXPECT_EQ((*d)["driver_name"], "llvmpipe");
  auto api = parse_vulkan_api_version((*d)["api_version"].get<std::string>());
  ASSERT_TRUE(api);
  EXPECT_GE(*api, pack_vulkan_api_version(0, 1, 3, 0)) << (*d)["api_version"];
  bool compute = false;
  for (const auto& q : (*d)["queue_families"]) {
    for (const auto& f : q["flags"]) compute = compute || f == "compute";
  }
  EXPECT_TRUE(compute) << (*d)["queue_families"].dump();
  EXPECT_FALSE((*d)["memory_heaps"].empty());
  EXPECT_TRUE((*d)["subgroup_size"].is_number());
  EXPECT_TRUE((*d)["device_uuid"].is_string());
  EXPECT_TRUE(snap["vulkan"]["instance_version"].is_string());
  EXPECT_TRUE(snap["vulkan"]["loader"].is_string());
  // Hardware drivers with no hardware here (anv, radv) are a calm fact, never a failure.
  for (const auto& p : snap["probes"]) {
    EXPECT_TRUE(p["status"] == "ok" || p["status"] == "missing") << p.dump();
  }
  EXPECT_LT(r.seconds, 5.0);
}

TEST_F(VulkanLive, DriverThatSegfaultsIsNamedAndLavapipeStillReported) {
  test::CommandResult r;
  Json snap = query({"VK_ADD_DRIVER_FILES=" + fake("crash")}, 2, &r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_FALSE(snap.is_discarded()) << r.out;
  EXPECT_LT(r.seconds, 2.0 + 2.5);
  const Json* bad = outcome_for(snap, "libfake_vk_crash.so");
  ASSERT_TRUE(bad) << snap["probes"].dump(2);
  EXPECT_EQ((*bad)["status"], "crashed");
  EXPECT_NE((*bad)["detail"].get<std::string>().find("SIGSEGV"), std::string::npos);
  EXPECT_NE((*bad)["detail"].get<std::string>().find("libfake_vk_crash.so"), std::string::npos);
  EXPECT_EQ(snap["vulkan"]["manifests"][0]["source"], "VK_ADD_DRIVER_FILES");
  EXPECT_TRUE(lavapipe(snap)) << snap["vulkan"].dump(2);
}

TEST_F(VulkanLive, DriverThatHangsIsKilledAtTheDeadline) {
  test::CommandResult r;
  Json snap = query({"VK_ADD_DRIVER_FILES=" + fake("hang")}, 2, &r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_FALSE(snap.is_discarded()) << r.out;
  EXPECT_GE(r.seconds, 1.9);
  EXPECT_LT(r.seconds, 2.0 + 2.5);
  const Json* bad = outcome_for(snap, "libfake_vk_hang.so");
  ASSERT_TRUE(bad) << snap["probes"].dump(2);
  EXPECT_EQ((*bad)["status"], "timed_out");
  EXPECT_NE((*bad)["detail"].get<std::string>().find("libfake_vk_hang.so"), std::string::npos);
  EXPECT_TRUE(lavapipe(snap)) << snap["vulkan"].dump(2);
}

TEST_F(VulkanLive, DriverThatLiesIsCappedAndNamed) {
  test::CommandResult r;
  Json snap = query({"VK_ADD_DRIVER_FILES=" + fake("garbage")}, 2, &r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_FALSE(snap.is_discarded()) << r.out;
  EXPECT_LT(r.seconds, 2.0 + 2.5);
  const Json* bad = outcome_for(snap, "libfake_vk_garbage.so");
  ASSERT_TRUE(bad) << snap["probes"].dump(2);
  EXPECT_EQ((*bad)["status"], "failed") << bad->dump();
  const std::string detail = (*bad)["detail"];
  EXPECT_NE(detail.find("malformed"), std::string::npos) << detail;
  EXPECT_NE(detail.find("1000 devices"), std::string::npos) << detail;
  // The relative library_path resolved next to the manifest.
  EXPECT_EQ(snap["vulkan"]["manifests"][0]["resolved"],
            std::string(GPUDOCTOR_FAKES) + "/vulkan/libfake_vk_garbage.so");
  std::size_t from_fake = 0;
  for (const auto& d : snap["vulkan"]["devices"]) {
    if (d["manifest"] != fake("garbage")) continue;
    ++from_fake;
    const std::string name = d["name"];
    EXPECT_EQ(name.find('\x1b'), std::string::npos);
    EXPECT_EQ(name.find('\x07'), std::string::npos);
    EXPECT_LE(name.size(), 3u * 256u);
    EXPECT_TRUE(d["type"].is_null());
    EXPECT_TRUE(d["shader_float64"].is_null());
    EXPECT_LE(d["queue_families"].size(), 64u);
    EXPECT_LE(d["memory_heaps"].size(), 16u);
    EXPECT_LE(d["memory_types"].size(), 32u);
  }
  EXPECT_EQ(from_fake, 64u);
  EXPECT_TRUE(lavapipe(snap)) << snap["vulkan"].dump(2);
}

}  // namespace
}  // namespace gpudoctor
