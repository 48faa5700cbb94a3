// Issue 26 §1 for the runtimes that are not Python frameworks: ollama and llama.cpp installs,
// vLLM (through its torch), and the OpenCL and Vulkan drivers themselves, each paired with the
// GPUs it could run on, stage by stage (src/checks/readiness_runtimes.cpp). Trees are the
// corpus's (tests/fixtures/corpus.md rows 117-150, two-thirds rows only).
#include <gtest/gtest.h>

#include "checks/readiness.hpp"
#include "checks/rocm_runtime.hpp"
#include "compat/compat_data.hpp"
#include "devices.hpp"
#include "json.hpp"
#include "runtime/runtime_probe.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace readiness_runtimes_test {

Json check_json(const std::string& tree, const std::vector<std::string>& env = {}) {
  std::vector<std::string> e = {"HOME=/nonexistent"};
  e.insert(e.end(), env.begin(), env.end());
  const auto r = test::run_gpudoctor(
      {"check", "--json", "--no-smoke", "--sysroot", test::fixture_path(tree)}, e);
  Json j = Json::parse(r.out, nullptr, false);
  EXPECT_TRUE(j.is_object()) << r.err;
  return j;
}

std::vector<Json> pairs_of(const Json& j, const std::string& framework_prefix) {
  std::vector<Json> out;
  if (!j.contains("readiness")) return out;
  for (const auto& p : j["readiness"]) {
    if (p["framework"].get<std::string>().rfind(framework_prefix, 0) == 0) out.push_back(p);
  }
  return out;
}

Json stage_of(const Json& pair, const std::string& name) {
  for (const auto& s : pair["stages"]) {
    if (s["stage"] == name) return s;
  }
  return Json();
}

// ollama/ollama#11569: ollama's bundled rocBLAS lists no gfx906; the MI50 pair fails at the GPU
// code stage, named by the finding, and the stages after it are not judged.
TEST(RuntimeReadiness, OllamaWithoutTheGpusTargetFailsAtGpuCode) {
  const Json j = check_json("corpus-ollama-mi50-gfx906-not-in-list");
  const auto pairs = pairs_of(j, "ollama");
  ASSERT_EQ(pairs.size(), 1u) << j["readiness"].dump(1);
  const Json& p = pairs[0];
  EXPECT_EQ(p["api"], "rocm");
  EXPECT_EQ(p["first_failure"], "gpu_code");
  EXPECT_EQ(stage_of(p, "runtime_libraries")["state"], "ok");
  EXPECT_EQ(stage_of(p, "gpu_code")["findings"], Json::array({"ollama.gfx_unsupported"}));
  EXPECT_EQ(stage_of(p, "smoke")["state"], "not_judged");
  const Json* f = test::find_finding(j, "ollama.gfx_unsupported");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["severity"], "fail");
  EXPECT_NE((*f)["title"].get<std::string>().find("gfx906"), std::string::npos);
  // No target of gfx906's generation is in the bundle: no override is offered.
  EXPECT_EQ((*f)["fix"].get<std::string>().find("HSA_OVERRIDE_GFX_VERSION"), std::string::npos);
}

// ollama/ollama#8679: the override is in the unit's drop-in, so the service runs the gfx1031 as
// gfx1030: at risk (another target's code), not a failure and no finding.
TEST(RuntimeReadiness, AnOverrideInTheUnitsDropInIsAtRiskNotAFailure) {
  const Json j = check_json("corpus-healthy-ollama-rx6750-service-override");
  EXPECT_EQ(test::find_finding(j, "ollama.gfx_unsupported"), nullptr);
  const auto pairs = pairs_of(j, "ollama");
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_TRUE(pairs[0]["first_failure"].is_null()) << pairs[0].dump(1);
  // The tree's bundle was not shown, so the code stage is judged by ollama's build files: every
  // release carries gfx1030, which the unit's override makes the GPU run as: at risk, never ok.
  EXPECT_EQ(stage_of(pairs[0], "gpu_code")["state"], "at_risk");
  EXPECT_NE(stage_of(pairs[0], "gpu_code").dump().find("runs as gfx1030"), std::string::npos);
  EXPECT_EQ(stage_of(pairs[0], "runtime_libraries")["state"], "not_examined");
}

// A Vulkan driver for the GPU: the RX 5700 XT's RADV manifest; the llama.cpp build whose
// backends are not read (a static build) is said so, not passed.
TEST(RuntimeReadiness, VulkanDriverPairAndAStaticLlamaCppBuild) {
  const Json j = check_json("corpus-healthy-llamacpp-radv-5700xt", {"HSA_OVERRIDE_GFX_VERSION=10.3.0"});
  const auto vk = pairs_of(j, "Vulkan");
  ASSERT_EQ(vk.size(), 1u) << j["readiness"].dump(1);
  EXPECT_EQ(stage_of(vk[0], "user_driver")["state"], "ok");
  EXPECT_NE(stage_of(vk[0], "user_driver")["fact"].get<std::string>().find("libvulkan_radeon"),
            std::string::npos);
  EXPECT_TRUE(vk[0]["first_failure"].is_null());
  // The build in the user's home directory is not where the probe looks: no llama.cpp pair.
  EXPECT_TRUE(pairs_of(j, "llama.cpp").empty());
}

// ROCm 3.0's amdocl64.icd names a library the loader does not find in the tree: the OpenCL pair
// fails at the user-space driver with the ICD's error.
TEST(RuntimeReadiness, AnOpenClIcdWhoseLibraryIsNotFoundFailsAtTheUserSpaceDriver) {
  const Json j = check_json("corpus-rocm30-opencl-no-comgr");
  const auto cl = pairs_of(j, "OpenCL");
  ASSERT_EQ(cl.size(), 1u) << j["readiness"].dump(1);
  EXPECT_EQ(cl[0]["first_failure"], "user_driver");
  EXPECT_NE(stage_of(cl[0], "user_driver")["fact"].get<std::string>().find("amdocl64"),
            std::string::npos);
}

// No ICD at all (SaschaWillems/OpenCLCapsViewer#7): no OpenCL pair; the finding says it once.
TEST(RuntimeReadiness, NoIcdMeansNoOpenClPair) {
  const Json j = check_json("corpus-opencl-no-icd-vega10-apu");
  EXPECT_TRUE(pairs_of(j, "OpenCL").empty());
  EXPECT_NE(test::find_finding(j, "opencl.no_icd"), nullptr);
}

// In process: llama.cpp builds are paired by their backend libraries.
TEST(RuntimeReadiness, LlamaCppPairsFollowItsBackends) {
  Snapshot s;
  s.origin = Origin::sysroot;
  s.pci = PciInfo{};
  PciDevice nv;
  nv.address = "0000:01:00.0";
  nv.vendor_id = 0x10de;
  nv.device_id = 0x2204;
  nv.class_code = 0x030000;
  nv.driver = "nvidia";
  s.pci->devices.push_back(nv);
  s.runtimes = RuntimeInstalls{};
  LlamaCppInstall l;
  l.dir = "/usr/local/bin";
  l.binaries = {"llama-server"};
  s.runtimes->llama_cpp.push_back(l);
  const auto devices = merge_devices(s);
  const auto findings = test::run_all_checks(s);
  auto pairs = runtime_readiness(CheckInput{s, devices, builtin_compat()}, findings);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].api, "unknown");  // a static build: its backends are not read
  s.runtimes->llama_cpp[0].backends = {"cpu", "cuda"};
  pairs = runtime_readiness(CheckInput{s, devices, builtin_compat()}, findings);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].api, "cuda");
  s.runtimes->llama_cpp[0].backends = {"cpu", "hip"};  // no backend reaches an NVIDIA GPU
  pairs = runtime_readiness(CheckInput{s, devices, builtin_compat()}, findings);
  EXPECT_TRUE(pairs.empty());
}

// SaschaWillems/Vulkan#188: a Fermi NVS 5400M and no Vulkan manifest at all: no Vulkan pair
// (nothing of Vulkan's drivers is installed; the vulkan area says so), the loader alone.
TEST(RuntimeReadiness, NoVulkanManifestMeansNoVulkanPair) {
  const Json j = check_json("corpus-vulkan-fermi-nvs5400m");
  EXPECT_TRUE(pairs_of(j, "Vulkan").empty());
}

// vLLM 0.12 with torch 2.11.0+cu130 on driver 570.86.10 (modelscope/FunASR#2973): the vLLM pair
// is its torch's chain under vLLM's name, and fails where that torch's does.
TEST(RuntimeReadiness, VllmIsJudgedThroughItsTorch) {
  const Json j = check_json("corpus-vllm-torch211-driver-570");
  const auto v = pairs_of(j, "vllm");
  ASSERT_EQ(v.size(), 1u) << j["readiness"].dump(1);
  EXPECT_EQ(v[0]["framework"], "vllm 0.12.0 (torch 2.11.0+cu130)");
  EXPECT_EQ(v[0]["api"], "cuda");
  const auto t = pairs_of(j, "torch");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(v[0]["first_failure"], t[0]["first_failure"]);
}

TEST(RuntimeProbe, UnitEnvironmentLines) {
  std::map<std::string, std::string> env;
  apply_unit_environment("[Service]\nEnvironment=\"HSA_OVERRIDE_GFX_VERSION=10.3.0\" OLLAMA_HOST=0.0.0.0\n"
                         "Environment=\"PATH=/usr/bin:/bin\"\n",
                         env);
  EXPECT_EQ(env["HSA_OVERRIDE_GFX_VERSION"], "10.3.0");
  EXPECT_EQ(env["OLLAMA_HOST"], "0.0.0.0");
  EXPECT_EQ(env["PATH"], "/usr/bin:/bin");
  apply_unit_environment("Environment=\n", env);  // an empty assignment resets the list
  EXPECT_TRUE(env.empty());
}

TEST(RuntimeProbe, OverrideValuesAndTargets) {
  EXPECT_EQ(gfx_of_override("10.3.0"), std::optional<std::string>("gfx1030"));
  EXPECT_EQ(gfx_of_override("9.0.10"), std::optional<std::string>("gfx90a"));
  EXPECT_EQ(gfx_of_override("11.0.0"), std::optional<std::string>("gfx1100"));
  EXPECT_EQ(gfx_of_override("10.3"), std::nullopt);
  EXPECT_EQ(gfx_of_override("a.b.c"), std::nullopt);
  EXPECT_EQ(override_of_gfx("gfx1030"), "10.3.0");
  EXPECT_EQ(override_of_gfx("gfx90a"), "9.0.10");
  EXPECT_EQ(ollama_nearest_gfx("gfx1035", {"gfx1030", "gfx1100", "gfx906"}),
            std::optional<std::string>("gfx1030"));
  EXPECT_EQ(ollama_nearest_gfx("gfx1103", {"gfx1030", "gfx1100", "gfx1101"}),
            std::optional<std::string>("gfx1100"));
  EXPECT_EQ(ollama_nearest_gfx("gfx906", {"gfx1030", "gfx1100"}), std::nullopt);
}

// In process: an AMD GPU and an ollama install whose lib/ollama bundles CUDA only fails at the
// runtime libraries (its AMD GPU runs on the CPU); an NVIDIA GPU beside it is judged on CUDA.
TEST(RuntimeReadiness, AnOllamaBundleWithoutRocmFailsAtRuntimeLibrariesForAnAmdGpu) {
  Snapshot s;
  s.origin = Origin::sysroot;
  s.pci = PciInfo{};
  PciDevice amd;
  amd.address = "0000:03:00.0";
  amd.vendor_id = 0x1002;
  amd.device_id = 0x73bf;
  amd.class_code = 0x030000;
  amd.driver = "amdgpu";
  s.pci->devices.push_back(amd);
  s.runtimes = RuntimeInstalls{};
  OllamaInstall o;
  o.binary = "/usr/local/bin/ollama";
  o.lib_dir = "/usr/local/lib/ollama";
  o.backends = {"cuda_v12"};
  s.runtimes->ollama.push_back(o);
  const auto devices = merge_devices(s);
  const auto findings = test::run_all_checks(s);
  const auto pairs = runtime_readiness(CheckInput{s, devices, builtin_compat()}, findings);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].framework, "ollama");
  ASSERT_TRUE(pairs[0].first_failure.has_value());
  EXPECT_EQ(*pairs[0].first_failure, Stage::runtime_libraries);
  // With ROCm's bundle it passes that stage (the code stage is then not examined: no rocBLAS).
  s.runtimes->ollama[0].backends = {"cuda_v12", "rocm"};
  const auto again = runtime_readiness(CheckInput{s, devices, builtin_compat()}, findings);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_FALSE(again[0].first_failure.has_value());
}

// ollama's releases by their build files (data/compat/rocm.json, kind runtime_targets: the
// AMDGPU_TARGETS of each release's Linux ROCm runner), for an install whose own files are not
// there to read: a target no release carries is certain, one only some carry is not.
TEST(RuntimeReadiness, OllamasReleasesAreJudgedByTheirBuildFilesWhereNoFileSays) {
  OllamaInstall bare;
  bare.binary = "/usr/bin/ollama";
  const auto code = ollama_gfx_code(bare, builtin_compat());
  ASSERT_TRUE(code.has_value());
  EXPECT_FALSE(code->from_files);
  for (const char* g : {"gfx900", "gfx906", "gfx1030", "gfx1100", "gfx1151", "gfx1201", "gfx803"}) {
    EXPECT_NE(std::find(code->gfx.begin(), code->gfx.end(), g), code->gfx.end()) << g;
  }
  // The RDNA 2 and 3 iGPUs and the Navi 22/23/24 cards: never in any release's list.
  for (const char* g : {"gfx1031", "gfx1032", "gfx1034", "gfx1035", "gfx1036", "gfx90c"}) {
    EXPECT_EQ(std::find(code->gfx.begin(), code->gfx.end(), g), code->gfx.end()) << g;
    EXPECT_EQ(ollama_releases_carrying(*code, g), "") << g;
  }
  // v0.18.0 built ROCm 7 with gfx1103; v0.31.2 removed it (ollama#17010).
  EXPECT_EQ(ollama_releases_carrying(*code, "gfx1103"), "0.18.0–0.31.1");
  EXPECT_EQ(ollama_releases_carrying(*code, "gfx803"), "0.1.18–0.1.24");
  // gfx906 left with v0.12.4 (its rocBLAS files deleted by the Dockerfile).
  EXPECT_EQ(ollama_releases_carrying(*code, "gfx906"), "0.1.18–0.12.3");
  EXPECT_TRUE(ollama_every_release_carries(*code, "gfx1030"));
  EXPECT_FALSE(ollama_every_release_carries(*code, "gfx906"));

  // A lib/ollama without rocBLAS is judged by its backends, not by the table.
  OllamaInstall with_lib = bare;
  with_lib.lib_dir = "/usr/lib/ollama";
  EXPECT_FALSE(ollama_gfx_code(with_lib, builtin_compat()).has_value());
  // Files, where read, win.
  OllamaInstall read = with_lib;
  read.rocblas_read = true;
  read.rocblas_gfx = {"gfx1030", "gfx1100"};
  read.rocblas_dir = "/usr/lib/ollama/rocm/rocblas/library";
  const auto files = ollama_gfx_code(read, builtin_compat());
  ASSERT_TRUE(files.has_value());
  EXPECT_TRUE(files->from_files);
  EXPECT_EQ(files->where, "/usr/lib/ollama/rocm/rocblas/library");
  EXPECT_FALSE(ollama_every_release_carries(*files, "gfx1103"));
}

// The install script of ollama 0.3.x and 0.4.x put the ROCm bundle in
// /usr/share/ollama/lib/rocm (https://github.com/ollama/ollama/blob/v0.4.0/scripts/install.sh):
// its rocBLAS files are read there when no lib/ollama holds any.
TEST(RuntimeReadiness, TheOldInstallScriptsRocmBundleIsRead) {
  test::TempTree tree;
  tree.write("usr/local/bin/ollama", "");
  tree.write("usr/share/ollama/lib/rocm/rocblas/library/TensileLibrary_lazy_gfx1030.dat", "");
  tree.write("usr/share/ollama/lib/rocm/rocblas/library/Kernels.so-000-gfx906-xnack-.hsaco", "");
  const Root root(tree.path());
  const Environment env(std::map<std::string, std::string>{});
  const RuntimeInstalls r = probe_runtimes(ProbeContext{root, env, false});
  ASSERT_EQ(r.ollama.size(), 1u);
  EXPECT_TRUE(r.ollama[0].rocblas_read);
  EXPECT_EQ(r.ollama[0].rocblas_dir, "/usr/share/ollama/lib/rocm/rocblas/library");
  EXPECT_EQ(r.ollama[0].rocblas_gfx, (std::vector<std::string>{"gfx1030", "gfx906"}));
}

// The fix names the place ollama reads its environment from: inside the ollama:rocm container
// (no unit) it is the container's -e, never systemctl. corpus-healthy-ollama-rocm-docker-rx6600
// run without the override its replay.txt sets: the gfx1032 fails, with that fix.
TEST(RuntimeReadiness, TheOverrideFixIsTheContainersEnvironmentInAContainer) {
  const Json j = check_json("corpus-healthy-ollama-rocm-docker-rx6600");
  const Json* f = test::find_finding(j, "ollama.gfx_unsupported");
  ASSERT_NE(f, nullptr);
  const std::string fix = (*f)["fix"].get<std::string>();
  EXPECT_NE(fix.find("-e HSA_OVERRIDE_GFX_VERSION=10.3.0"), std::string::npos) << fix;
  EXPECT_EQ(fix.find("systemctl"), std::string::npos) << fix;
  // With the container's override set, as the thread ran it: nothing fails.
  const Json with = check_json("corpus-healthy-ollama-rocm-docker-rx6600",
                               {"HSA_OVERRIDE_GFX_VERSION=10.3.0"});
  EXPECT_EQ(test::find_finding(with, "ollama.gfx_unsupported"), nullptr);
}

}  // namespace readiness_runtimes_test
}  // namespace gpudoctor
