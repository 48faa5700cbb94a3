// Redaction of reports: placeholders that keep the report replayable, the environment
// allow-list, and the secret-looking variables that are never written.
#include "report/redact.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "devices.hpp"
#include "render/query_text.hpp"
#include "report/environment_section.hpp"
#include "report/secrets.hpp"
#include "snapshot_io.hpp"
#include "test_support.hpp"

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
    EXPECT_EQ(d.in("cuda").size(), 1u);
    EXPECT_EQ(d.in("nvml").size(), 1u);
    EXPECT_EQ(d.in("vulkan").size(), 1u);
    EXPECT_EQ(d.in("opencl").size(), 1u);
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
  EXPECT_EQ(r.doc["os_id"], "alice");                           // just the name: left alone
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

TEST(Redact, TheHostNameIsReplacedWhereverItStandsAlone) {
  // As a cluster node shows itself: its FQDN in /proc/sys/kernel/hostname, its short name in a
  // scratch path, a kernel built on the node itself (the "(user@host)" of /proc/version).
  Json doc = {{"host",
               {{"hostname", "gpu-node-17.cluster.example.org"},
                {"os_id", "ubuntu"},
                {"kernel_version",
                 "Linux version 6.5.0-custom (dana@gpu-node-17) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) "
                 "11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #1 SMP PREEMPT_DYNAMIC"}}},
              {"environment",
               {{"TMPDIR", "/scratch/GPU-Node-17/tmp"},
                {"NCCL_SOCKET_IFNAME", "gpu-node-17.cluster.example.org:eth0"},
                {"OTHER", "gpu-node-170 gpu-node-17x"}}},
              {"findings", {{{"id", "gpu.none"}, {"area", "gpu"}}}}};
  const Redacted r = redact(doc, {});
  const std::string text = r.doc.dump();
  EXPECT_EQ(r.doc["host"]["hostname"], "<host>");
  EXPECT_EQ(r.doc["host"]["kernel_version"],
            "Linux version 6.5.0-custom (<user1>@<host>) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) "
            "11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #1 SMP PREEMPT_DYNAMIC");
  EXPECT_EQ(r.doc["environment"]["TMPDIR"], "/scratch/<host>/tmp");
  EXPECT_EQ(r.doc["environment"]["NCCL_SOCKET_IFNAME"], "<host>:eth0");
  // Longer names that merely start with it are other machines.
  EXPECT_EQ(r.doc["environment"]["OTHER"], "gpu-node-170 gpu-node-17x");
  EXPECT_EQ(r.doc["findings"][0]["area"], "gpu");
  EXPECT_EQ(r.counts.at("host_name"), 1);
}

TEST(Redact, AKernelBuiltElsewhereNamesItsBuilderAsAnotherHost) {
  // Ubuntu's own build: the buildd and its machine are no secret, but no rule tells them from a
  // person's, so they are replaced too.
  const Redacted r = redact(
      Json{{"hostname", "ws1"},
           {"kernel_version",
            "Linux version 5.15.0-91-generic (buildd@lcy02-amd64-045) (gcc (Ubuntu "
            "11.4.0-1ubuntu1~22.04) 11.4.0) #101-Ubuntu SMP Tue Nov 14 13:30:08 UTC 2023"}},
      {});
  EXPECT_EQ(r.doc["kernel_version"],
            "Linux version 5.15.0-91-generic (<user1>@<host2>) (gcc (Ubuntu "
            "11.4.0-1ubuntu1~22.04) 11.4.0) #101-Ubuntu SMP Tue Nov 14 13:30:08 UTC 2023");
}

TEST(Redact, AHostNamedAfterItsDistributionOrLocalhostHidesNothing) {
  const Redacted r = redact(Json{{"host", {{"hostname", "ubuntu"}, {"os_id", "ubuntu"}}},
                                 {"path", "/home/ubuntu/venv"}, {"os", "ubuntu"}},
                            {"ubuntu"});
  EXPECT_EQ(r.doc["host"]["hostname"], "<host>");
  EXPECT_EQ(r.doc["host"]["os_id"], "ubuntu");
  EXPECT_EQ(r.doc["os"], "ubuntu");
  EXPECT_EQ(r.doc["path"], "/home/<user1>/venv");
}

TEST(Redact, EveryUuidFormIsReplaced) {
  // ROCm's form, "GPU-" and 16 hex digits, is what rocminfo prints as Uuid and what users put in
  // ROCR_VISIBLE_DEVICES (https://github.com/ollama/ollama/issues/12945).
  Json doc = {
      {"cuda", "GPU-2F3A9C41-07BE-5D12-8E4A-9B6C1D0E7F21"},
      {"same_lower", "GPU-2f3a9c41-07be-5d12-8e4a-9b6c1d0e7f21"},
      {"mig", "MIG-8c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f"},
      {"mig_old", "MIG-GPU-2f3a9c41-07be-5d12-8e4a-9b6c1d0e7f21/1/0"},
      {"amd", "GPU-6f8a2b3c4d5e6f70"},
      {"ROCR_VISIBLE_DEVICES", "GPU-6f8a2b3c4d5e6f70,GPU-0123456789abcdef"},
      {"machine", "machine-id 4c4c4544004d3910804ab4c04f4e3132"},
      {"unique_id_uuid", "6F8A2B3C4D5E6F70"},
      {"plain", "deadbeefcafe1234 sha 0123456789abcdef0123456789abcdef01234567"}};
  const Redacted r = redact(doc, {});
  // Numbered in the order the document is walked (keys sorted, capitals first); one device's
  // UUID keeps one number in every case and form.
  EXPECT_EQ(r.doc["ROCR_VISIBLE_DEVICES"], "GPU-0000000000000001,GPU-0000000000000002");
  EXPECT_EQ(r.doc["amd"], "GPU-0000000000000001");
  EXPECT_EQ(r.doc["unique_id_uuid"], "0000000000000001");
  EXPECT_EQ(r.doc["cuda"], "GPU-00000000-0000-0000-0000-000000000003");
  EXPECT_EQ(r.doc["same_lower"], "GPU-00000000-0000-0000-0000-000000000003");
  EXPECT_EQ(r.doc["mig_old"], "MIG-GPU-00000000-0000-0000-0000-000000000003/1/0");
  EXPECT_EQ(r.doc["machine"], "machine-id 00000000000000000000000000000004");
  EXPECT_EQ(r.doc["mig"], "MIG-00000000-0000-0000-0000-000000000005");
  EXPECT_EQ(r.counts.at("uuid"), 5);
  // 16 hex digits without "GPU-" outside a uuid field, and 40 (a git hash), stay.
  EXPECT_EQ(r.doc["plain"], doc["plain"]);
}

TEST(Redact, UserNamesAreReplacedInValuesNotOnlyInPaths) {
  const Environment env({{"USER", "dana"}, {"HOME", "/home/dana"}});
  Json doc = {{"KUBECONFIG_OWNER", "owner=dana"},
              {"GIT_REMOTE", "ssh://dana@git.example.org/x.git"},
              {"danaos", "danaos dana_x"},
              {"os_id", "dana"}};
  const Redacted r = redact(doc, user_names_from(env));
  EXPECT_EQ(r.doc["KUBECONFIG_OWNER"], "owner=<user1>");
  EXPECT_EQ(r.doc["GIT_REMOTE"], "ssh://<user1>@git.example.org/x.git");
  EXPECT_EQ(r.doc["danaos"], "danaos dana_x");
  EXPECT_EQ(r.doc["os_id"], "dana");
}

TEST(RedactEnvironment, SecretNamesFromEveryCommonConvention) {
  for (const char* secret :
       {"DB_PASS", "PASS", "MYSQL_PWD", "SMTP_PW", "GITHUB_PAT", "AZURE_DEVOPS_EXT_PAT",
        "SUPABASE_JWT", "SLACK_WEBHOOK_URL", "SENTRY_DSN", "AWS_SESSION_TOKEN", "FLASK_SESSION",
        "COOKIE_JAR", "PGPASSWORD", "DOCKER_AUTH_CONFIG", "HF_TOKEN", "OPENAI_API_KEY",
        "GOOGLE_APPLICATION_CREDENTIALS", "AZURE_STORAGE_CONNECTION_STRING"}) {
    EXPECT_TRUE(secret_variable(secret)) << secret;
  }
  // PWD is the working directory, a path like any other (redacted as paths are).
  for (const char* plain : {"PATH", "PYTHONPATH", "PWD", "OLDPWD", "XDG_SESSION_TYPE",
                            "LD_LIBRARY_PATH", "CUDA_PATH", "PATCH_LEVEL", "PASSAGE"}) {
    EXPECT_FALSE(secret_variable(plain)) << plain;
  }
}

TEST(RedactSecrets, CredentialsInsideUrlsGoWhateverTheVariable) {
  // Index URLs carry credentials in pip's configuration and leak wherever they are printed
  // (https://github.com/pypa/pip/issues/4315, https://github.com/pypa/pipenv/issues/5134).
  int n = 0;
  EXPECT_EQ(strip_url_credentials("https://user:hunter2@pypi.example.org/simple", n),
            "https://<credentials>@pypi.example.org/simple");
  EXPECT_EQ(strip_url_credentials("postgres://app:s3cr%40t@db:5432/x ; "
                                  "https://ghp_16C7e42F292c6912E7710c838347Ae178B4a@github.com/o/r",
                                  n),
            "postgres://<credentials>@db:5432/x ; https://<credentials>@github.com/o/r");
  EXPECT_EQ(strip_url_credentials("git+ssh://git@github.com/o/r https://example.org/a@b", n),
            "git+ssh://git@github.com/o/r https://example.org/a@b");
  EXPECT_EQ(n, 3);
}

TEST(RedactSecrets, NoSecretIsWrittenEvenWithNoRedact) {
  const std::vector<std::string> env{
      "DB_PASS=hunter2-db",
      "MYSQL_PWD=hunter2-mysql",
      "GITHUB_PAT=ghp_hunter2pat",
      "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T0/B0/hunter2hook",
      "SENTRY_DSN=https://hunter2key@o0.ingest.sentry.io/1",
      "PIP_EXTRA_INDEX_URL=https://me:hunter2pip@pypi.example.org/simple",
      "CUDA_CACHE_PATH=https://me:hunter2cuda@cache.example.org/"};
  for (const std::string flag : {"--no-redact", ""}) {
    std::vector<std::string> args{"report", "--sysroot", test::fixture_path("server-a100-sxm4")};
    if (!flag.empty()) args.push_back(flag);
    const auto r = test::run_gpudoctor(args, env);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("hunter2"), std::string::npos) << flag;
    const Json report = Json::parse(r.out);
    EXPECT_GE(report["redaction"]["url_credentials_removed"].get<int>(), 1) << flag;
  }
}

}  // namespace
}  // namespace gpudoctor
