// Issue 13, class 7 (blame): a crashing or hanging Vulkan layer is named as the layer, never as
// the driver it was loaded with; when every driver fails the loader is not reported as one.
// The layers are fake ones at the layer ABI (tests/fakes/vulkan/fake_vulkan_layer.c), loaded by
// the real loader; the driver is a fake that works (fake_vk_wrong_result, sane until a shader
// runs, and no shader runs with --no-smoke).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "api/vulkan/vulkan_layers.hpp"
#include "api/vulkan/vulkan_search.hpp"
#include "json.hpp"
#include "parse/vulkan_manifest.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

const std::string kFakes = GPUDOCTOR_FAKES;
const std::string kDriver = kFakes + "/vulkan/fake_vk_wrong_result.json";

/// The Vulkan loader's version from the name its soname links to (libvulkan.so.1.3.239).
std::optional<std::string> loader_version() {
  for (const char* dir :
       {"/usr/lib/x86_64-linux-gnu/", "/usr/lib64/", "/usr/lib/", "/usr/lib/aarch64-linux-gnu/"}) {
    std::error_code ec;
    const fs::path real = fs::canonical(std::string(dir) + "libvulkan.so.1", ec);
    if (!ec) return real.filename().string().substr(std::string("libvulkan.so.").size());
  }
  return std::nullopt;
}

/// VK_LOADER_LAYERS_ENABLE and _DISABLE came with loader 1.3.234.
bool loader_has_layer_filters() {
  auto v = loader_version();
  int major = 0;
  int minor = 0;
  int patch = 0;
  if (!v || std::sscanf(v->c_str(), "%d.%d.%d", &major, &minor, &patch) != 3) return false;
  return major > 1 || (major == 1 && (minor > 3 || (minor == 3 && patch >= 234)));
}

struct CheckRun {
  Json report;
  std::string err;
};

CheckRun check_vulkan(std::vector<std::string> env) {
  env.push_back("VK_DRIVER_FILES=" + kDriver);
  auto r = test::run_gpudoctor(
      {"check", "--json", "--no-smoke", "--backend", "vulkan", "--timeout", "1"}, env);
  return {Json::parse(r.out, nullptr, false), r.err};
}

const Json* outcome_labelled(const Json& report, const std::string& label) {
  for (const auto& p : report.at("snapshot").at("probes")) {
    if (p.value("label", "") == label) return &p;
  }
  return nullptr;
}

/// Findings of `id` whose title names `what`.
int findings_naming(const Json& report, const std::string& id, const std::string& what) {
  int n = 0;
  for (const auto& f : report.at("findings")) {
    if (f.value("id", "") == id && f.value("title", "").find(what) != std::string::npos) ++n;
  }
  return n;
}

class LayerBlame : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!loader_version()) GTEST_SKIP() << "no Vulkan loader (libvulkan1)";
  }
};

TEST_F(LayerBlame, LayerEnabledByVkLoaderLayersEnableThatCrashesIsNamedNotTheDriver) {
  if (!loader_has_layer_filters()) GTEST_SKIP() << "loader older than 1.3.234";
  CheckRun r = check_vulkan({"VK_ADD_LAYER_PATH=" + kFakes + "/vulkan/layers",
                             "VK_LOADER_LAYERS_ENABLE=VK_LAYER_GPUDOCTOR_fake_crash"});
  ASSERT_TRUE(r.report.is_object()) << r.err;
  const Json* driver = outcome_labelled(r.report, "fake_vk_wrong_result.json");
  ASSERT_NE(driver, nullptr) << r.report.at("snapshot").at("probes").dump(2);
  EXPECT_EQ(driver->at("status"), "ok") << driver->dump(2);
  EXPECT_EQ(r.report.at("snapshot").at("vulkan").at("devices").size(), 1u);

  const Json* layer = outcome_labelled(r.report, "layer VK_LAYER_GPUDOCTOR_fake_crash");
  ASSERT_NE(layer, nullptr) << r.report.at("snapshot").at("probes").dump(2);
  EXPECT_EQ(layer->at("status"), "crashed");
  EXPECT_NE(layer->at("library").get<std::string>().find("libfake_vk_layer_crash.so"),
            std::string::npos);
  const std::string detail = layer->at("detail");
  EXPECT_NE(detail.find("SIGSEGV"), std::string::npos) << detail;
  EXPECT_NE(detail.find("VK_LOADER_LAYERS_ENABLE"), std::string::npos) << detail;

  EXPECT_EQ(findings_naming(r.report, "probe.crashed", "libfake_vk_layer_crash.so"), 1)
      << r.report.at("findings").dump(2);
  EXPECT_EQ(findings_naming(r.report, "probe.crashed", "libfake_vk_wrong_result.so"), 0);
}

TEST_F(LayerBlame, LayerNamedInVkInstanceLayersThatHangsIsNamedNotTheDriver) {
  CheckRun r = check_vulkan({"VK_ADD_LAYER_PATH=" + kFakes + "/vulkan/layers",
                             "VK_INSTANCE_LAYERS=VK_LAYER_GPUDOCTOR_fake_hang"});
  ASSERT_TRUE(r.report.is_object()) << r.err;
  const Json* driver = outcome_labelled(r.report, "fake_vk_wrong_result.json");
  ASSERT_NE(driver, nullptr);
  EXPECT_EQ(driver->at("status"), "ok") << driver->dump(2);
  const Json* layer = outcome_labelled(r.report, "layer VK_LAYER_GPUDOCTOR_fake_hang");
  ASSERT_NE(layer, nullptr) << r.report.at("snapshot").at("probes").dump(2);
  EXPECT_EQ(layer->at("status"), "timed_out");
  EXPECT_EQ(findings_naming(r.report, "probe.timed_out", "libfake_vk_layer_hang.so"), 1);
  EXPECT_EQ(findings_naming(r.report, "probe.timed_out", "libfake_vk_wrong_result.so"), 0);
}

TEST_F(LayerBlame, ImplicitLayerThatCrashesIsNamedAndItsDisableVariableHonoured) {
  const std::string xdg = "XDG_DATA_HOME=" + kFakes + "/vulkan/xdg";
  CheckRun r = check_vulkan({xdg});
  ASSERT_TRUE(r.report.is_object()) << r.err;
  const Json* layer = outcome_labelled(r.report, "layer VK_LAYER_GPUDOCTOR_fake_implicit_crash");
  ASSERT_NE(layer, nullptr) << r.report.at("snapshot").at("probes").dump(2);
  EXPECT_EQ(layer->at("status"), "crashed");
  EXPECT_NE(layer->at("detail").get<std::string>().find("implicit"), std::string::npos);
  EXPECT_EQ(outcome_labelled(r.report, "fake_vk_wrong_result.json")->at("status"), "ok");

  // Disabled the way its manifest says: applications do not get it, so it is not tried.
  CheckRun off = check_vulkan({xdg, "GPUDOCTOR_FAKE_LAYER_OFF=1"});
  ASSERT_TRUE(off.report.is_object()) << off.err;
  EXPECT_EQ(outcome_labelled(off.report, "layer VK_LAYER_GPUDOCTOR_fake_implicit_crash"), nullptr);
}

TEST(DriverBlame, WhenEveryIcdFailsTheLoaderIsNotReportedAsABrokenDriver) {
  test::TempTree empty;
  auto r = test::run_gpudoctor(
      {"check", "--json", "--no-smoke", "--backend", "opencl", "--timeout", "1"},
      {"OCL_ICD_VENDORS=" + empty.path(),
       "OCL_ICD_FILENAMES=" + kFakes + "/opencl/libfake_opencl_crash.so"});
  const Json report = Json::parse(r.out, nullptr, false);
  ASSERT_TRUE(report.is_object()) << r.err;
  EXPECT_EQ(findings_naming(report, "probe.crashed", "libfake_opencl_crash.so"), 1);
  for (const auto& f : report.at("findings")) {
    EXPECT_EQ(f.value("title", "").find("libOpenCL"), std::string::npos) << f.dump(2);
    EXPECT_EQ(f.value("fix", "").find("libOpenCL"), std::string::npos) << f.dump(2);
  }
  const Json* own = outcome_labelled(report, "opencl");
  ASSERT_NE(own, nullptr);
  EXPECT_TRUE(own->at("library").is_null()) << own->dump(2);
}

TEST(DriverBlame, WhenEveryVulkanDriverFailsTheLoaderIsNotReportedAsABrokenDriver) {
  auto r = test::run_gpudoctor(
      {"check", "--json", "--no-smoke", "--backend", "vulkan", "--timeout", "1"},
      {"VK_DRIVER_FILES=" + kFakes + "/vulkan/fake_vk_crash.json:" + kFakes +
       "/vulkan/fake_vk_abort.json"});
  const Json report = Json::parse(r.out, nullptr, false);
  ASSERT_TRUE(report.is_object()) << r.err;
  EXPECT_EQ(findings_naming(report, "probe.crashed", "libfake_vk_crash.so"), 1);
  EXPECT_EQ(findings_naming(report, "probe.crashed", "libfake_vk_abort.so"), 1);
  for (const auto& f : report.at("findings")) {
    EXPECT_EQ(f.value("title", "").find("libvulkan"), std::string::npos) << f.dump(2);
  }
}

// --- which layers an application gets (pure) ------------------------------------------------

Environment env_of(std::map<std::string, std::string> vars) { return Environment(std::move(vars)); }

VulkanLayerEntry layer(std::string name, std::optional<std::string> disable,
                       std::optional<std::pair<std::string, std::string>> enable = std::nullopt) {
  VulkanLayerEntry e;
  e.name = std::move(name);
  e.library_path = "lib" + *e.name + ".so";
  if (disable) e.disable_environment = std::make_pair(*disable, std::string("1"));
  e.enable_environment = std::move(enable);
  return e;
}

std::optional<std::string> vulkan_layer_active_because(const VulkanLayerEntry& l, bool implicit,
                                                       const Environment& env) {
  auto d = vulkan_layer_decision(l, implicit, env);
  return d.active ? std::optional<std::string>(d.because) : std::nullopt;
}

TEST(VulkanLayerRules, ImplicitLayersAsTheLoaderEnablesThem) {
  auto select = layer("VK_LAYER_MESA_device_select", "NODEVICE_SELECT");
  EXPECT_EQ(vulkan_layer_active_because(select, true, env_of({})), "implicit");
  EXPECT_FALSE(vulkan_layer_active_because(select, true, env_of({{"NODEVICE_SELECT", ""}})));
  EXPECT_FALSE(vulkan_layer_active_because(select, true,
                                           env_of({{"VK_LOADER_LAYERS_DISABLE", "~implicit~"}})));
  EXPECT_FALSE(vulkan_layer_active_because(
      select, true, env_of({{"VK_LOADER_LAYERS_DISABLE", "*device_SELECT"}})));
  // Enabling wins over the filter, not over the layer's own disable variable.
  EXPECT_EQ(vulkan_layer_active_because(select, true,
                                        env_of({{"VK_LOADER_LAYERS_DISABLE", "~all~"},
                                                {"VK_LOADER_LAYERS_ENABLE", "vk_layer_mesa*"}})),
            "VK_LOADER_LAYERS_ENABLE");
  EXPECT_FALSE(vulkan_layer_active_because(
      select, true, env_of({{"VK_LOADER_LAYERS_ENABLE", "*"}, {"NODEVICE_SELECT", "1"}})));

  auto obs = layer("VK_LAYER_OBS_HOOK", "DISABLE_VULKAN_OBS_CAPTURE",
                   std::make_pair(std::string("OBS_VKCAPTURE"), std::string("1")));
  EXPECT_FALSE(vulkan_layer_active_because(obs, true, env_of({})));
  EXPECT_FALSE(vulkan_layer_active_because(obs, true, env_of({{"OBS_VKCAPTURE", "0"}})));
  EXPECT_EQ(vulkan_layer_active_because(obs, true, env_of({{"OBS_VKCAPTURE", "1"}})),
            "implicit, OBS_VKCAPTURE=1");
}

TEST(VulkanLayerRules, ExplicitLayersOnlyWhenNamed) {
  auto v = layer("VK_LAYER_KHRONOS_validation", std::nullopt);
  EXPECT_FALSE(vulkan_layer_active_because(v, false, env_of({})));
  EXPECT_EQ(
      vulkan_layer_active_because(
          v, false, env_of({{"VK_INSTANCE_LAYERS", "VK_LAYER_A:VK_LAYER_KHRONOS_validation"}})),
      "VK_INSTANCE_LAYERS");
  EXPECT_EQ(vulkan_layer_active_because(v, false, env_of({{"VK_LOADER_LAYERS_ENABLE", "*valid*"}})),
            "VK_LOADER_LAYERS_ENABLE");
}

TEST(VulkanLayerRules, FilterSyntax) {
  EXPECT_TRUE(vulkan_layer_filter_matches("a,VK_LAYER_X", "vk_layer_x", false));
  EXPECT_TRUE(vulkan_layer_filter_matches("vk_layer_*", "VK_LAYER_X", false));
  EXPECT_TRUE(vulkan_layer_filter_matches("*_x", "VK_LAYER_X", false));
  EXPECT_FALSE(vulkan_layer_filter_matches("vk_layer", "VK_LAYER_X", false));
  EXPECT_TRUE(vulkan_layer_filter_matches("~explicit~", "VK_LAYER_X", false));
  EXPECT_FALSE(vulkan_layer_filter_matches("~explicit~", "VK_LAYER_X", true));
}

// Hostile manifests: nested absurdly deep, not JSON; the parser says why and gives no layer.
TEST(VulkanLayerManifests, HostileFiles) {
  auto deep = parse_vulkan_layer_manifest(std::string(100000, '['));
  EXPECT_TRUE(deep.layers.empty());
  EXPECT_TRUE(deep.error);
  EXPECT_TRUE(parse_vulkan_layer_manifest("not json").layers.empty());
  auto many = parse_vulkan_layer_manifest(R"({"file_format_version": "1.0.1", "layers": [
      {"name": "A", "library_path": "a.so"}, {"name": "B", "component_layers": ["A"]}]})");
  ASSERT_EQ(many.layers.size(), 2u);
  EXPECT_TRUE(many.layers[1].meta);
}

TEST(VulkanLayerSearch, ImplicitAndExplicitDirectories) {
  auto plan = vulkan_layer_search_plan(env_of({{"HOME", "/home/u"}}), true);
  ASSERT_FALSE(plan.places.empty());
  EXPECT_EQ(plan.places.front().path, "/home/u/.config/vulkan/implicit_layer.d");
  EXPECT_EQ(plan.places.back().path, "/usr/share/vulkan/implicit_layer.d");
  auto only = vulkan_layer_search_plan(env_of({{"VK_LAYER_PATH", "/a:/b"}}), false);
  ASSERT_EQ(only.places.size(), 2u);
  EXPECT_EQ(only.override_variable, "VK_LAYER_PATH");
  auto added = vulkan_layer_search_plan(env_of({{"VK_ADD_LAYER_PATH", "/x"}}), false);
  EXPECT_EQ(added.places.front().path, "/x");
  EXPECT_EQ(added.places.back().path, "/usr/share/vulkan/explicit_layer.d");
}

}  // namespace
}  // namespace gpudoctor
