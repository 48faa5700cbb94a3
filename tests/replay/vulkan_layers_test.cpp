// Vulkan implicit layers and CPU-only drivers judged from files: the layer manifests and the
// loader's rules for them (LoaderLayerInterface.md, loader_implicit_layer_is_enabled), and
// `gpudoctor check --sysroot` on machines rebuilt from public reports (README of each fixture).
#include "api/vulkan/vulkan_layers.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "api/vulkan/vulkan_search.hpp"
#include "json.hpp"
#include "parse/vulkan_manifest.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"
#include "vulkan/vulkan_layers.hpp"

namespace gpudoctor {
namespace {

// Mesa's device-select layer manifest (src/vulkan/device-select-layer).
constexpr const char* kDeviceSelect = R"({
  "file_format_version" : "1.0.0",
  "layer" : {
    "name": "VK_LAYER_MESA_device_select", "type": "GLOBAL",
    "library_path": "libVkLayer_MESA_device_select.so", "api_version": "1.3.211",
    "implementation_version": "1", "description": "Linux device selection layer",
    "disable_environment": {"NODEVICE_SELECT": "1"}
  }
})";

// The shape of AMDVLK's amd_icd64.json: a driver and its switchable-graphics layer in one file.
constexpr const char* kAmdvlk = R"({
  "file_format_version": "1.0.0",
  "ICD": {"library_path": "/usr/lib/x86_64-linux-gnu/amdvlk64.so", "api_version": "1.2.179"},
  "layer": {
    "name": "VK_LAYER_AMD_switchable_graphics_64", "type": "GLOBAL",
    "library_path": "/usr/lib/x86_64-linux-gnu/amdvlk64.so", "api_version": "1.2.179",
    "implementation_version": "1", "description": "AMD switchable graphics layer",
    "disable_environment": {"DISABLE_LAYER_AMD_SWITCHABLE_GRAPHICS_1": "1"}
  }
})";

// This build machine's Debian lavapipe manifest (/usr/share/vulkan/icd.d/lvp_icd.x86_64.json).
constexpr const char* kLavapipe = R"({
    "ICD": {
        "api_version": "1.1.230",
        "library_path": "/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so"
    },
    "file_format_version": "1.0.0"
})";

Environment env_of(std::initializer_list<std::pair<const std::string, std::string>> vars) {
  return Environment(std::map<std::string, std::string>(vars));
}

std::vector<Json> findings_at(const std::string& root, const std::string& area,
                              std::vector<std::string> env = {}) {
  return test::area_findings(root, area, env);
}

TEST(VulkanLayers, ManifestsReadAsTheLoaderReadsThem) {
  auto m = parse_vulkan_layer_manifest(kDeviceSelect);
  ASSERT_FALSE(m.error);
  ASSERT_EQ(m.layers.size(), 1u);
  EXPECT_EQ(m.layers[0].name, "VK_LAYER_MESA_device_select");
  EXPECT_EQ(m.layers[0].library_path, "libVkLayer_MESA_device_select.so");
  EXPECT_EQ(m.layers[0].disable_environment->first, "NODEVICE_SELECT");
  EXPECT_FALSE(m.layers[0].enable_environment);
  auto two = parse_vulkan_layer_manifest(
      R"({"file_format_version": "1.0.1", "layers": [
          {"name": "VK_LAYER_a", "library_path": "a.so", "enable_environment": {"A_ON": "1"}},
          {"name": "VK_LAYER_meta", "component_layers": ["VK_LAYER_a"]},
          {"library_path": "b.so"}]})");
  ASSERT_EQ(two.layers.size(), 3u);
  EXPECT_EQ(two.layers[0].enable_environment->second, "1");
  EXPECT_TRUE(two.layers[1].meta);
  EXPECT_FALSE(two.layers[1].error);
  EXPECT_EQ(two.layers[2].error, "no \"name\" string");
  EXPECT_EQ(parse_vulkan_layer_manifest("{").error, "not valid JSON");
  EXPECT_EQ(parse_vulkan_layer_manifest(R"({"layer": {}})").error,
            "no \"file_format_version\" string");
  EXPECT_EQ(parse_vulkan_layer_manifest(R"({"file_format_version": "1.0.0"})").error,
            "neither a \"layer\" object nor a \"layers\" array");
}

TEST(VulkanLayers, DisableFiltersMatchAsTheLoaderDoes) {
  EXPECT_TRUE(
      vulkan_layer_filter_matches("VK_LAYER_MESA_device_select", "VK_LAYER_MESA_device_select", true));
  EXPECT_TRUE(vulkan_layer_filter_matches("vk_layer_mesa_*", "VK_LAYER_MESA_device_select", true));
  EXPECT_TRUE(vulkan_layer_filter_matches("*device*", "VK_LAYER_MESA_device_select", true));
  EXPECT_TRUE(vulkan_layer_filter_matches("*_select", "VK_LAYER_MESA_device_select", true));
  EXPECT_TRUE(vulkan_layer_filter_matches("foo,~implicit~", "VK_LAYER_x", true));
  EXPECT_TRUE(vulkan_layer_filter_matches("~all~", "VK_LAYER_x", true));
  EXPECT_FALSE(vulkan_layer_filter_matches("~explicit~", "VK_LAYER_x", true));
  EXPECT_FALSE(vulkan_layer_filter_matches("VK_LAYER_MESA", "VK_LAYER_MESA_device_select", true));
}

std::optional<std::string> implicit_layer_inactive(const VulkanLayerEntry& layer,
                                                   const Environment& env) {
  auto d = vulkan_layer_decision(layer, true, env);
  return d.active ? std::nullopt : std::optional<std::string>(d.because);
}

TEST(VulkanLayers, ActivityFollowsTheEnvironment) {
  auto layer = parse_vulkan_layer_manifest(kDeviceSelect).layers.at(0);
  EXPECT_EQ(implicit_layer_inactive(layer, Environment{}), std::nullopt);
  EXPECT_EQ(implicit_layer_inactive(layer, env_of({{"NODEVICE_SELECT", ""}})),
            "NODEVICE_SELECT is set");
  EXPECT_EQ(implicit_layer_inactive(layer, env_of({{"VK_LOADER_LAYERS_DISABLE", "*mesa*"}})),
            "VK_LOADER_LAYERS_DISABLE names it");
  EXPECT_EQ(implicit_layer_inactive(layer, env_of({{"VK_LOADER_LAYERS_DISABLE", "~all~"},
                                                   {"VK_LOADER_LAYERS_ALLOW", "*device*"}})),
            std::nullopt);
  VulkanLayerEntry hud;
  hud.name = "VK_LAYER_MANGOHUD_overlay_x86_64";
  hud.enable_environment = std::make_pair("MANGOHUD", "1");
  hud.disable_environment = std::make_pair("DISABLE_MANGOHUD", "1");
  EXPECT_EQ(implicit_layer_inactive(hud, Environment{}), "MANGOHUD is not 1");
  EXPECT_EQ(implicit_layer_inactive(hud, env_of({{"MANGOHUD", "1"}})), std::nullopt);
  EXPECT_EQ(implicit_layer_inactive(hud, env_of({{"VK_LOADER_LAYERS_ENABLE", "*mango*"}})),
            std::nullopt);
  EXPECT_EQ(implicit_layer_inactive(hud, env_of({{"MANGOHUD", "1"}, {"DISABLE_MANGOHUD", "1"}})),
            "DISABLE_MANGOHUD is set");
}

TEST(VulkanLayers, SearchOrderIsTheLoaders) {
  auto plan = vulkan_layer_search_plan(env_of({{"HOME", "/home/me"}}), true);
  std::vector<std::string> paths;
  for (const auto& p : plan.places) paths.push_back(p.path);
  EXPECT_EQ(paths,
            (std::vector<std::string>{
                "/home/me/.config/vulkan/implicit_layer.d", "/etc/xdg/vulkan/implicit_layer.d",
                "/etc/vulkan/implicit_layer.d", "/home/me/.local/share/vulkan/implicit_layer.d",
                "/usr/local/share/vulkan/implicit_layer.d", "/usr/share/vulkan/implicit_layer.d"}));
  // Loaders from 1.3.296 search only VK_IMPLICIT_LAYER_PATH; older ones (Debian 12 has
  // 1.3.239) do not know it and still search the rest, so both are searched.
  auto only = vulkan_layer_search_plan(
      env_of({{"VK_IMPLICIT_LAYER_PATH", "/opt/l"}, {"VK_ADD_IMPLICIT_LAYER_PATH", "/x"}}), true);
  EXPECT_EQ(only.override_variable, "VK_IMPLICIT_LAYER_PATH");
  ASSERT_GE(only.places.size(), 2u);
  EXPECT_EQ(only.places[0].path, "/opt/l");
  EXPECT_EQ(only.places[1].path, "/x");
  EXPECT_EQ(only.places.back().path, "/usr/share/vulkan/implicit_layer.d");
  auto add = vulkan_layer_search_plan(env_of({{"VK_ADD_IMPLICIT_LAYER_PATH", "/x"}}), true);
  EXPECT_EQ(add.places.front().path, "/x");
}

TEST(VulkanLayerScenario, ForcedDefaultDeviceHidesTheArc) {
  // lutris/lutris#3447: MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE=1 left only the TGL iGPU.
  const std::string root = test::fixture_path("vulkan-devselect-force-default");
  auto fs = findings_at(root, "vulkan", {"MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE=1"});
  const Json* f = test::find_finding(fs, "vulkan.layer_hides_devices");
  ASSERT_NE(f, nullptr) << Json(fs).dump(2);
  EXPECT_EQ((*f)["severity"], "warn");
  EXPECT_NE((*f)["title"].get<std::string>().find("every GPU but the default one"),
            std::string::npos);
  EXPECT_NE(f->dump().find("MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE=1"), std::string::npos);
  EXPECT_EQ((*f)["fix"],
            "unset MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE, or export "
            "VK_LOADER_LAYERS_DISABLE=VK_LAYER_MESA_device_select (Vulkan loaders built with "
            "headers 1.3.234 or later), or export NODEVICE_SELECT=1");
  EXPECT_EQ((*f)["source"], "https://docs.mesa3d.org/envvars.html");
  // "vid:did!" does the same; the layer switched off, or the variable unset, nothing is said.
  EXPECT_NE(test::find_finding(findings_at(root, "vulkan", {"MESA_VK_DEVICE_SELECT=8086:56a1!"}),
                    "vulkan.layer_hides_devices"),
            nullptr);
  EXPECT_EQ(test::find_finding(findings_at(root, "vulkan"), "vulkan.layer_hides_devices"), nullptr);
  EXPECT_EQ(
      test::find_finding(findings_at(root, "vulkan",
                          {"MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE=1", "NODEVICE_SELECT=1"}),
              "vulkan.layer_hides_devices"),
      nullptr);
}

TEST(VulkanLayerScenario, AmdvlkLayerHidesRadv) {
  test::TempTree root;
  root.write("etc/vulkan/implicit_layer.d/amd_icd64.json", kAmdvlk);
  root.write("etc/vulkan/icd.d/amd_icd64.json", kAmdvlk);
  root.write("usr/lib/x86_64-linux-gnu/amdvlk64.so", "");
  root.write(
      "usr/share/vulkan/icd.d/radeon_icd.x86_64.json",
      R"({"ICD": {"api_version": "1.3.255", "library_path": )"
      R"("/usr/lib/x86_64-linux-gnu/libvulkan_radeon.so"}, "file_format_version": "1.0.0"})");
  root.write("usr/lib/x86_64-linux-gnu/libvulkan_radeon.so", "");
  auto fs = findings_at(root.path(), "vulkan");
  const Json* f = test::find_finding(fs, "vulkan.layer_hides_devices");
  ASSERT_NE(f, nullptr) << Json(fs).dump(2);
  EXPECT_NE(f->dump().find("libvulkan_radeon.so"), std::string::npos);
  EXPECT_NE((*f)["fix"].get<std::string>().find("DISABLE_LAYER_AMD_SWITCHABLE_GRAPHICS_1=1"),
            std::string::npos);
  EXPECT_EQ((*f)["source"], "https://github.com/ValveSoftware/Proton/pull/4931");
  EXPECT_EQ(
      test::find_finding(findings_at(root.path(), "vulkan", {"DISABLE_LAYER_AMD_SWITCHABLE_GRAPHICS_1=1"}),
              "vulkan.layer_hides_devices"),
      nullptr);
}

TEST(VulkanLayerScenario, StaleLayerManifestIsNamedByFile) {
  // A per-user manifest left behind by a removed program, its library gone.
  test::TempTree root;
  root.write(
      "home/me/.local/share/vulkan/implicit_layer.d/steamoverlay_x86_64.json",
      R"({"file_format_version": "1.0.0", "layer": {"name": "VK_LAYER_VALVE_steam_overlay_64",
          "type": "GLOBAL",
          "library_path": "/home/me/.local/share/Steam/ubuntu12_64/steamoverlayvulkanlayer.so",
          "api_version": "1.2.136",
          "disable_environment": {"DISABLE_VK_LAYER_VALVE_steam_overlay_1": "1"}}})");
  auto fs = findings_at(root.path(), "vulkan", {"HOME=/home/me"});
  const Json* f = test::find_finding(fs, "vulkan.layer_broken");
  ASSERT_NE(f, nullptr) << Json(fs).dump(2);
  EXPECT_EQ((*f)["severity"], "warn");
  EXPECT_NE((*f)["title"].get<std::string>().find(
                "/home/me/.local/share/vulkan/implicit_layer.d/steamoverlay_x86_64.json"),
            std::string::npos);
  EXPECT_NE((*f)["fix"].get<std::string>().find(
                "VK_LOADER_LAYERS_DISABLE=VK_LAYER_VALVE_steam_overlay_64"),
            std::string::npos);
  EXPECT_EQ(test::find_finding(findings_at(root.path(), "vulkan",
                                {"HOME=/home/me", "DISABLE_VK_LAYER_VALVE_steam_overlay_1=1"}),
                    "vulkan.layer_broken"),
            nullptr);
}

TEST(VulkanSoftwareOnly, MullinsOnRadeonHasNoVulkanGpu) {
  // vinegarhq/sober#98: a Mullins APU held by radeon; RADV needs amdgpu.
  auto fs = findings_at(test::fixture_path("vulkan-mullins-radeon-kmd"), "vulkan");
  const Json* f = test::find_finding(fs, "vulkan.radeon_kernel_driver");
  ASSERT_NE(f, nullptr) << Json(fs).dump(2);
  EXPECT_EQ((*f)["severity"], "warn");
  EXPECT_NE(f->dump().find("CHIP_MULLINS, Sea Islands (GCN 2) APU"), std::string::npos);
  EXPECT_NE((*f)["fix"].get<std::string>().find("radeon.cik_support=0 amdgpu.cik_support=1"),
            std::string::npos);
  EXPECT_EQ(test::find_finding(fs, "vulkan.software_only"), nullptr);  // one cause, one finding
}

TEST(VulkanSoftwareOnly, OnlyLavapipeNextToARadeonIsJudgedFromTheManifests) {
  // The Vega 64 desktop's real PCI files (dasunsrule32/radeon-scripts#6) with only lavapipe's
  // manifest: Vulkan runs on the CPU. With RADV's manifest too, nothing is said.
  test::TempTree root;
  std::filesystem::copy(
      test::fixture_path("desktop-radeon-vega64"), root.path(),
      std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks);
  root.write("usr/share/vulkan/icd.d/lvp_icd.x86_64.json", kLavapipe);
  root.write("usr/lib/x86_64-linux-gnu/libvulkan_lvp.so", "");
  auto fs = findings_at(root.path(), "vulkan");
  const Json* f = test::find_finding(fs, "vulkan.software_only");
  ASSERT_NE(f, nullptr) << Json(fs).dump(2);
  EXPECT_NE(f->dump().find("lavapipe"), std::string::npos);
  EXPECT_EQ((*f)["fix"], "install mesa-vulkan-drivers (RADV)");
  root.write(
      "usr/share/vulkan/icd.d/radeon_icd.x86_64.json",
      R"({"ICD": {"api_version": "1.3.255", "library_path": )"
      R"("/usr/lib/x86_64-linux-gnu/libvulkan_radeon.so"}, "file_format_version": "1.0.0"})");
  root.write("usr/lib/x86_64-linux-gnu/libvulkan_radeon.so", "");
  root.write("dev/dri/renderD128", "");
  EXPECT_EQ(test::find_finding(findings_at(root.path(), "vulkan"), "vulkan.software_only"), nullptr);
}

TEST(VulkanSoftwareOnly, OnlyPoclNextToAGpuIsJudgedFromTheIcdFiles) {
  test::TempTree root;
  std::filesystem::copy(
      test::fixture_path("desktop-radeon-vega64"), root.path(),
      std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks);
  root.write("etc/OpenCL/vendors/pocl.icd", "libpocl.so.2.10.0\n");
  root.write("usr/lib/x86_64-linux-gnu/libpocl.so.2.10.0", "");
  auto fs = findings_at(root.path(), "opencl");
  const Json* f = test::find_finding(fs, "opencl.cpu_only");
  ASSERT_NE(f, nullptr) << Json(fs).dump(2);
  EXPECT_NE(f->dump().find("PoCL"), std::string::npos);
}

TEST(VulkanLayers, LibraryPathsWithLibTokenAreExpandedAsLdSoDoes) {
  // A manifest may name "/usr/$LIB/…": ld.so puts the process's library directory there.
  test::TempTree tree;
  tree.write("usr/lib/x86_64-linux-gnu/mangohud/libMangoHud_shim.so", "");
  Root root(tree.path());
  LibrarySearch libs(root, Environment{});
  EXPECT_EQ(
      vulkan::resolve_manifest_library(root, libs, "/usr/share/vulkan/implicit_layer.d/m.json",
                                       "/usr/$LIB/mangohud/libMangoHud_shim.so"),
      "/usr/lib/x86_64-linux-gnu/mangohud/libMangoHud_shim.so");
  EXPECT_EQ(vulkan::resolve_manifest_library(
                root, libs, "/usr/share/vulkan/implicit_layer.d/m.json",
                "../../../lib/x86_64-linux-gnu/mangohud/libMangoHud_shim.so"),
            "/usr/lib/x86_64-linux-gnu/mangohud/libMangoHud_shim.so");
  EXPECT_EQ(vulkan::resolve_manifest_library(root, libs, "/m.json", "/usr/$LIB/none.so"),
            std::nullopt);
}

TEST(VulkanLayers, ExplainKnowsTheNewFindings) {
  for (const char* id : {"vulkan.layer_broken", "vulkan.layer_hides_devices",
                         "vulkan.radeon_kernel_driver", "compat.newer_than_tables"}) {
    auto r = test::run_gpudoctor({"explain", id});
    EXPECT_EQ(r.exit_code, 0) << id << r.err;
    EXPECT_NE(r.out.find("https://"), std::string::npos) << id;
  }
}

}  // namespace
}  // namespace gpudoctor
