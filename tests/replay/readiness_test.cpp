// Issue 26 §1: for every (framework, GPU) pair, the chain of stages, judged from what was read.
// The first failing stage is the diagnosis and the stages after it are not judged; a stage
// nothing decides is "not examined", never ok; `check` shows one line a pair under python.
#include <gtest/gtest.h>

#include "checks/check_list.hpp"
#include "checks/readiness.hpp"
#include "json.hpp"
#include "knowledge/messages.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace readiness_test {

using test::run_gpudoctor;

Json check_json(const std::vector<std::string>& source) {
  std::vector<std::string> args = {"check", "--json", "--no-smoke"};
  args.insert(args.end(), source.begin(), source.end());
  const auto r = run_gpudoctor(args, {"HOME=/nonexistent"});
  Json j = Json::parse(r.out, nullptr, false);
  EXPECT_TRUE(j.is_object()) << r.err;
  return j;
}

const Json* stage(const Json& pair, const std::string& name) {
  for (const auto& s : pair["stages"]) {
    if (s["stage"] == name) return &s;
  }
  return nullptr;
}

// pytorch/pytorch#150733-like: torch 2.5.1+cu121 in a project's .venv (found with no variable
// set) on an RTX 5090 (sm_120) whose libtorch_cuda.so carries sm_50–sm_90 and no PTX.
TEST(Readiness, TheFirstFailingStageIsTheDiagnosisAndLaterStagesAreNotJudged) {
  const Json j =
      check_json({"--sysroot", test::fixture_path("rtx5090-torch-cu121-no-sm120")});
  ASSERT_EQ(j["readiness"].size(), 1u) << j["readiness"].dump(1);
  const Json& p = j["readiness"][0];
  EXPECT_EQ(p["framework"], "torch 2.5.1+cu121");
  EXPECT_EQ(p["api"], "cuda");
  EXPECT_EQ(p["first_failure"], "gpu_code");
  EXPECT_EQ((*stage(p, "hardware"))["state"], "ok");
  EXPECT_NE((*stage(p, "hardware"))["fact"].get<std::string>().find("12.0"), std::string::npos);
  EXPECT_EQ((*stage(p, "kernel_driver"))["state"], "ok");
  EXPECT_EQ((*stage(p, "gpu_code"))["state"], "fails");
  EXPECT_EQ((*stage(p, "gpu_code"))["findings"], Json::array({"python.torch_arch"}));
  EXPECT_EQ((*stage(p, "driver_version"))["state"], "not_judged");
  EXPECT_EQ((*stage(p, "smoke"))["state"], "not_judged");
  // Nothing in a --sysroot tree says which libcuda the loader finds: not ok, not examined.
  EXPECT_EQ((*stage(p, "user_driver"))["state"], "not_examined");
}

TEST(Readiness, CheckShowsOneLineAPairUnderPython) {
  const auto r = run_gpudoctor({"check", "--no-smoke", "--color", "never", "--sysroot",
                                test::fixture_path("rtx5090-torch-cu121-no-sm120")},
                               {"HOME=/nonexistent"});
  // The stage in words; the finding follows with its cause and fix, its id only with -v.
  EXPECT_NE(r.out.find("✗ torch 2.5.1+cu121 on GB202 [GeForce RTX 5090]: fails at code for the GPU\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.exit_code, 1);
  const auto v = run_gpudoctor({"check", "-v", "--no-smoke", "--color", "never", "--sysroot",
                                test::fixture_path("rtx5090-torch-cu121-no-sm120")},
                               {"HOME=/nonexistent"});
  EXPECT_NE(v.out.find("✗ torch 2.5.1+cu121 on GB202 [GeForce RTX 5090]: fails at code for the GPU "
                       "(python.torch_arch)"),
            std::string::npos)
      << v.out;
}

// Eight H100s, torch 2.5.1+cu124 and driver 550: every stage a tree can show holds; the smoke
// matmul cannot run on a tree, so the pair is "not confirmed", never "ready".
TEST(Readiness, AHealthyTreeIsNotConfirmedOnlyByTheStagesItCannotShow) {
  const Json j = check_json({"--sysroot", test::fixture_path("server-h100-torch-cu124")});
  ASSERT_EQ(j["readiness"].size(), 8u);
  for (const auto& p : j["readiness"]) {
    EXPECT_TRUE(p["first_failure"].is_null()) << p.dump(1);
    EXPECT_EQ((*stage(p, "driver_version"))["state"], "ok") << p.dump(1);
    EXPECT_EQ((*stage(p, "smoke"))["state"], "not_examined");
    EXPECT_EQ(p["verdict"].get<std::string>().rfind("not confirmed: smoke matmul", 0), 0u)
        << p["verdict"];
  }
}

// A tree with a torch wheel and no hardware files: the GPU is "not examined", not "no GPU".
TEST(Readiness, NoHardwareInTheInputIsNotExaminedNotAFailure) {
  const Json j = check_json({"--sysroot", test::fixture_path("python-venv-torch-cu124")});
  ASSERT_FALSE(j["readiness"].empty());
  const Json& p = j["readiness"][0];
  EXPECT_TRUE(p["first_failure"].is_null());
  EXPECT_EQ((*stage(p, "hardware"))["state"], "not_examined");
}

// A pasted collect_env: what a paste cannot show (the libraries the loader finds, a smoke run)
// is not examined; what it states is judged.
TEST(Readiness, APasteJudgesWhatItStates) {
  const Json j =
      check_json({"--from", test::fixture_path("pastes/collect_env/pytorch-150733-rtx5090d-sm120.txt")});
  ASSERT_FALSE(j["readiness"].empty()) << j.dump(1).substr(0, 2000);
  const Json& p = j["readiness"][0];
  EXPECT_EQ(p["first_failure"], "gpu_code") << p.dump(1);
}

// Every finding id a check or a message entry can give has a row in the stage table (a stage,
// or explicitly none): a new id is a decision, not a silent gap in the chain.
TEST(Readiness, EveryFindingIdHasAStageRow) {
  std::vector<std::string> ids;
  for (const auto& spec : all_checks()) {
    if (spec.own_id == OwnId::finding) ids.emplace_back(spec.id);
    for (const auto& e : split_words(spec.also_emits, ", ")) ids.push_back(e);
  }
  for (const auto& e : builtin_messages().entries) {
    if (e.finding) ids.push_back(e.finding->id);
  }
  ASSERT_GT(ids.size(), 60u);
  for (const auto& id : ids) EXPECT_TRUE(stage_table_knows(id)) << id;
}

TEST(Readiness, StageRowsScopeByVendorAndFramework) {
  auto arch = stage_of_finding("python.torch_arch");
  ASSERT_TRUE(arch);
  EXPECT_EQ(arch->stage, Stage::gpu_code);
  EXPECT_EQ(arch->vendor, "nvidia");
  EXPECT_EQ(arch->frameworks, "torch");
  auto kfd = stage_of_finding("rocm.kfd_missing");  // a prefix row: rocm.kfd*
  ASSERT_TRUE(kfd);
  EXPECT_EQ(kfd->stage, Stage::kernel_driver);
  EXPECT_FALSE(stage_of_finding("opencl.no_icd"));  // about no framework's chain
  EXPECT_TRUE(stage_table_knows("opencl.no_icd"));
  EXPECT_FALSE(stage_table_knows("made.up_id"));
}

}  // namespace readiness_test
}  // namespace gpudoctor
