// Redaction of reports: placeholders that keep the report replayable, the environment
// allow-list, and the secret-looking variables that are never written.
#include "report/redact.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "devices.hpp"
#include "render/query_text.hpp"
#include "report/environment_section.hpp"
#include "snapshot_io.hpp"

namespace gpudoctor {
namespace {

constexpr const char* kUuidA = "2f3a9c41-07be-5d12-8e4a-9b6c1d0e7f21";
constexpr const char* kUuidB = "8c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f";

/// Two NVIDIA GPUs without PCI addresses, each seen through CUDA, NVML, Vulkan and OpenCL:
/// only their UUIDs, each API writing them its own way, join the views.
Snapshot two_gpus_by_uuid() {
  Snapshot s;
  s.cuda = CudaInfo{};
  s.nvml = NvmlInfo{};
  s.vulkan = VulkanInfo{};
  s.opencl = OpenClInfo{};
  OpenClPlatform platform;
  for (const std::string uuid : {kUuidA, kUuidB}) {
    CudaDevice c;
    c.ordinal = static_cast<int>(s.cuda->devices.size());
    c.name = "NVIDIA GeForce RTX 3090";
    c.uuid = "GPU-" + uuid;
    s.cuda->devices.push_back(c);
    NvmlDevice n;
    n.index = c.ordinal;
    n.uuid = "GPU-" + uuid;
    n.serial = "132032800" + std::to_string(c.ordinal);
    s.nvml->devices.push_back(n);
    VulkanDevice v;
    v.manifest = "/usr/share/vulkan/icd.d/nvidia_icd.json";
    v.name = "NVIDIA GeForce RTX 3090";
    v.type = "discrete_gpu";
    v.vendor_id = 0x10de;
    v.device_uuid = uuid;
    s.vulkan->devices.push_back(v);
    OpenClDevice o;
    o.name = "NVIDIA GeForce RTX 3090";
    o.type = "GPU";
    o.vendor_id = 0x10de;
    std::string bare = uuid;
    bare.erase(std::remove(bare.begin(), bare.end(), '-'), bare.end());
    o.uuid = bare;
    platform.devices.push_back(o);
  }
  s.opencl->platforms.push_back(platform);
  return s;
}

TEST(Redact, SameUuidThroughEveryApiKeepsOnePlaceholderAndTheJoinStillWorks) {
  const Snapshot snap = two_gpus_by_uuid();
  const auto before = merge_devices(snap);
  ASSERT_EQ(before.size(), 2u);
  Json report = {{"schema_version", kSchemaVersion}, {"snapshot", query_json(snap, before)}};

  const Redacted r = redact(report, {});
  const std::string text = r.doc.dump();
  EXPECT_EQ(text.find("2f3a9c41"), std::string::npos) << text;
  EXPECT_EQ(text.find("8c1d2e3f"), std::string::npos);
  EXPECT_EQ(r.counts.at("uuid"), 2);
  EXPECT_EQ(r.counts.at("serial_number"), 2);

  // What `check --from` does with the redacted report.
  auto loaded = snapshot_from_json_text(r.doc.dump());
  ASSERT_TRUE(std::holds_alternative<Snapshot>(loaded)) << std::get<std::string>(loaded);
  const Snapshot& back = std::get<Snapshot>(loaded);
  const auto after = merge_devices(back);
  ASSERT_EQ(after.size(), 2u);
  for (const auto& d : after) {
    EXPECT_EQ(d.cuda.size(), 1u);
    EXPECT_EQ(d.nvml.size(), 1u);
    EXPECT_EQ(d.vulkan.size(), 1u);
    EXPECT_EQ(d.opencl.size(), 1u);
  }
  EXPECT_NE(after[0].uuid, after[1].uuid);
  // The shapes survive: CUDA keeps "GPU-" and dashes, OpenCL its 32 bare digits.
  EXPECT_EQ(back.cuda->devices[0].uuid, "GPU-00000000-0000-0000-0000-000000000001");
  EXPECT_EQ(back.opencl->platforms[0].devices[1].uuid, "00000000000000000000000000000002");
  EXPECT_EQ(back.nvml->devices[1].serial, "<serial2>");
}

TEST(Redact, UserNamesInHomeDirectoriesBecomeNumberedPlaceholders) {
  Json doc = {{"prefix", "/home/alice/miniforge3/envs/tf"},
              {"other", "/Users/bob/Library/Python/3.9"},
              {"windows", "C:\\Users\\carol\\venv\\Scripts\\python.exe"},
              {"path_list", "/home/alice/.local/bin:/usr/bin:/Users/Shared/bin"},
              {"elsewhere", "/data/alice/cache"},
              {"os_id", "alice"},
              {"source", "https://github.com/alice/repo"}};
  const Redacted r = redact(doc, {});
  EXPECT_EQ(r.doc["prefix"], "/home/<user1>/miniforge3/envs/tf");
  EXPECT_EQ(r.doc["path_list"], "/home/<user1>/.local/bin:/usr/bin:/Users/Shared/bin");
  EXPECT_EQ(r.doc["elsewhere"], "/data/<user1>/cache");
  // Numbered in the order the document is walked (keys sorted): stable run to run.
  EXPECT_EQ(r.doc["other"], "/Users/<user2>/Library/Python/3.9");
  EXPECT_EQ(r.doc["windows"], "C:\\Users\\<user3>\\venv\\Scripts\\python.exe");
  EXPECT_EQ(r.doc["os_id"], "alice");                           // not a path component: left alone
  EXPECT_EQ(r.doc["source"], "https://github.com/alice/repo");  // rule URLs are ours
  EXPECT_EQ(r.counts.at("user_name"), 3);
}

TEST(Redact, UserNamesFromTheEnvironmentAreFoundOutsideHomeDirectories) {
  const Environment env({{"USER", "dana"}, {"HOME", "/srv/users/dana"}, {"LOGNAME", "root"}});
  const auto names = user_names_from(env);
  EXPECT_EQ(names, std::vector<std::string>{"dana"});
  const Redacted r = redact(Json{{"p", "/srv/users/dana/venv"}, {"q", "/opt/dana"}}, names);
  EXPECT_EQ(r.doc["p"], "/srv/users/<user1>/venv");
  EXPECT_EQ(r.doc["q"], "/opt/<user1>");
}

TEST(Redact, TheAccountNameOnItsOwnIsReplacedToo) {
  // The ROCm probe records who the process runs as (rocm.account.user): the same name as in
  // the paths gets the same placeholder, and a name seen only there is still replaced.
  Json doc{{"rocm", {{"account", {{"uid", 1000}, {"user", "dana"}}}}},
           {"venv", "/home/dana/venv"}};
  const Redacted r = redact(doc, {});
  EXPECT_EQ(r.doc["rocm"]["account"]["user"], "<user1>");
  EXPECT_EQ(r.doc["venv"], "/home/<user1>/venv");
  const Redacted alone = redact(Json{{"account", {{"user", "lee"}}}}, {});
  EXPECT_EQ(alone.doc["account"]["user"], "<user1>");
  EXPECT_EQ(alone.doc.dump().find("lee"), std::string::npos);
}

TEST(Redact, AUserNamedLikeASystemDirectoryLeavesThatDirectoryAlone) {
  const Redacted r = redact(Json{{"venv", "/home/dev/venvs/llm"}, {"node", "/dev/nvidia0"}}, {});
  EXPECT_EQ(r.doc["venv"], "/home/<user1>/venvs/llm");
  EXPECT_EQ(r.doc["node"], "/dev/nvidia0");
}

TEST(Redact, HostNameAndSerialAreReplaced) {
  Json doc = {{"host", {{"hostname", "gpu-box-17.corp.example"}}},
              {"nvml", {{"devices", {{{"serial", "1320328001234"}}}}}}};
  const Redacted r = redact(doc, {});
  EXPECT_EQ(r.doc["host"]["hostname"], "<host>");
  EXPECT_EQ(r.doc["nvml"]["devices"][0]["serial"], "<serial1>");
  EXPECT_EQ(r.counts.at("host_name"), 1);
}

TEST(Redact, LongerHexRunsAreNotUuids) {
  // A torch git_version is 40 hex digits; a sha256 in a direct_url is 64.
  const std::string sha = "a8d6dc0b3cd8b6a7fa4f4b3c3c0f3f0e7c3e7f9f";
  const Redacted r = redact(Json{{"git_version", sha}, {"uuid", sha}}, {});
  EXPECT_EQ(r.doc["git_version"], sha);
  EXPECT_EQ(r.doc["uuid"], sha);
  EXPECT_EQ(r.counts.at("uuid"), 0);
}

TEST(RedactEnvironment, OnlyGpuVariablesUnlessAskedAndNeverSecrets) {
  const Environment env({{"CUDA_VISIBLE_DEVICES", "0"},
                         {"VK_DRIVER_FILES", "/usr/share/vulkan/icd.d/nvidia_icd.json"},
                         {"HSA_OVERRIDE_GFX_VERSION", "10.3.0"},
                         {"LD_LIBRARY_PATH", "/usr/local/cuda/lib64"},
                         {"EDITOR", "vim"},
                         {"HF_TOKEN", "hf_xxx"},
                         {"AWS_SECRET_ACCESS_KEY", "abc"},
                         {"NVIDIA_API_KEY", "nvapi-123"},
                         {"GITHUB_AUTH", "ghp"}});
  const auto redacted = environment_section(env, false);
  EXPECT_EQ(redacted.variables.size(), 4u) << redacted.variables.dump();
  EXPECT_EQ(redacted.variables["CUDA_VISIBLE_DEVICES"], "0");
  EXPECT_FALSE(redacted.variables.contains("EDITOR"));
  EXPECT_EQ(redacted.left_out, 1);
  EXPECT_EQ(redacted.secrets_dropped, 4);

  const auto everything = environment_section(env, true);
  EXPECT_EQ(everything.variables["EDITOR"], "vim");
  for (const char* secret :
       {"HF_TOKEN", "AWS_SECRET_ACCESS_KEY", "NVIDIA_API_KEY", "GITHUB_AUTH"}) {
    EXPECT_FALSE(everything.variables.contains(secret)) << secret;
  }
  EXPECT_EQ(everything.left_out, 0);
}

TEST(RedactEnvironment, NamesThatLookLikeSecrets) {
  EXPECT_TRUE(secret_variable("OPENAI_API_KEY"));
  EXPECT_TRUE(secret_variable("db_password"));
  EXPECT_TRUE(secret_variable("WANDB_CREDENTIALS"));
  EXPECT_FALSE(secret_variable("CUDA_VISIBLE_DEVICES"));
  EXPECT_FALSE(secret_variable("PATH"));
  EXPECT_TRUE(gpu_relevant_variable("OCL_ICD_VENDORS"));
  EXPECT_TRUE(gpu_relevant_variable("ROCR_VISIBLE_DEVICES"));
  EXPECT_TRUE(gpu_relevant_variable("CONDA_PREFIX"));
  EXPECT_FALSE(gpu_relevant_variable("HOME"));
}

}  // namespace
}  // namespace gpudoctor
