#pragma once
// Can this framework use this GPU? For every (framework, GPU) pair the chain of what must hold,
// stage by stage, judged from what was read: the checks' findings where a check concluded, the
// facts themselves where none did, and "not examined" (with why) where neither says. The first
// stage that fails is the diagnosis; the stages after it are not judged (docs/readiness.md).
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checks/checks.hpp"
#include "json.hpp"

namespace gpudoctor {

/// A GPU's vendor as the readiness chain names it, for framework and runtime pairs alike.
enum class GpuVendor { nvidia, amd, intel, apple, other };
GpuVendor vendor_of_device(const MergedDevice& m);
/// "nvidia": the word of the stage table's vendor column.
std::string_view vendor_word(GpuVendor v);
/// "NVIDIA": the vendor's name for people.
std::string vendor_label(GpuVendor v);

/// The stages, in the order a framework's call reaches the GPU.
enum class Stage {
  hardware,           ///< on the bus and identified: vendor, chip, architecture
  kernel_driver,      ///< the right kernel driver bound
  access,             ///< the workload's account can open the device files
  user_driver,        ///< the user-space driver matches the kernel module and is found
  runtime_libraries,  ///< the libraries the framework loads, as its loader finds them
  gpu_code,           ///< the framework carries code this GPU can run
  driver_version,     ///< the driver is new enough for the runtime the framework carries
  smoke,              ///< the verified matmul ran on this GPU through this API
};
GPUDOCTOR_JSON_ENUM(Stage, {{Stage::hardware, "hardware"},
                            {Stage::kernel_driver, "kernel_driver"},
                            {Stage::access, "access"},
                            {Stage::user_driver, "user_driver"},
                            {Stage::runtime_libraries, "runtime_libraries"},
                            {Stage::gpu_code, "gpu_code"},
                            {Stage::driver_version, "driver_version"},
                            {Stage::smoke, "smoke"}})

/// ok: judged and holds. fails: judged and will not work. at_risk: works only under a condition
/// (a JIT from PTX, an override). not_examined: nothing read decides it. not_judged: an earlier
/// stage failed.
enum class StageState { ok, fails, at_risk, not_examined, not_judged };
GPUDOCTOR_JSON_ENUM(StageState, {{StageState::ok, "ok"},
                                 {StageState::fails, "fails"},
                                 {StageState::at_risk, "at_risk"},
                                 {StageState::not_examined, "not_examined"},
                                 {StageState::not_judged, "not_judged"}})

struct StageVerdict {
  Stage stage = Stage::hardware;
  StageState state = StageState::not_examined;
  std::string fact;                   ///< what decided it, or why nothing did
  std::vector<std::string> findings;  ///< the ids of the findings that decided it
};
GPUDOCTOR_JSON(StageVerdict, stage, state, fact, findings)

/// One framework (or runtime) and one GPU it could run on.
struct ReadinessPair {
  std::string framework;               ///< "torch 2.6.0+cu124"
  std::string environment;             ///< "/home/ana/venv (Python 3.11.9)"
  std::string api;                     ///< what it reaches the GPU through: "cuda", "rocm", "xpu",
                                       ///< "mps", "metal"; "none" for a CPU-only build
  std::string device;                  ///< "NVIDIA GeForce RTX 5090 (0000:01:00.0)"
  std::vector<StageVerdict> stages;    ///< every stage that applies to the api, in order
  std::optional<Stage> first_failure;  ///< the diagnosis; stages after it are not_judged
  std::string verdict;                 ///< "ready", "fails at gpu_code", "not confirmed"
};
GPUDOCTOR_JSON(ReadinessPair, framework, environment, api, device, stages, first_failure, verdict)

/// Every pair of a GPU framework found in the snapshot's Python environments and a GPU it
/// targets (a CPU-only build is paired with every GPU a build of it could use).
std::vector<ReadinessPair> readiness(const CheckInput& in, const std::vector<Finding>& findings);
/// The same pairs, in the same order, handed to `each` one at a time and kept nowhere: a
/// report of 16,000 GPUs judges 16,000 pairs a framework, and `check`'s text folds them into a
/// few lines (issue 29 §3: memory linear in the input with a small constant).
void for_each_readiness_pair(const CheckInput& in, const std::vector<Finding>& findings,
                             const std::function<void(ReadinessPair&&)>& each);

/// The runtimes that are not Python packages (readiness_runtimes.cpp): each ollama and
/// llama.cpp install found, and the OpenCL and Vulkan drivers where any is installed, paired with
/// every GPU they could run on. readiness() appends them after the frameworks' pairs.
std::vector<ReadinessPair> runtime_readiness(const CheckInput& in,
                                             const std::vector<Finding>& findings);

/// The stage a finding id belongs to, and which GPUs' vendor and which frameworks it concerns
/// (readiness_stages.cpp: one table for every id a check or a message entry can give).
struct StageOfFinding {
  Stage stage;
  std::string_view vendor;      ///< "nvidia", "amd", "intel", "apple", or "any"
  std::string_view frameworks;  ///< comma separated ("torch,tensorflow"), or "" for every one
  std::string_view except;      ///< frameworks or runtimes it never concerns ("vulkan")
};
/// nullopt for an id that is about no stage (a host fact, an OpenCL ICD, a probe's failure).
std::optional<StageOfFinding> stage_of_finding(std::string_view id);
/// Whether the table has a row for the id (with a stage or explicitly none).
bool stage_table_knows(std::string_view id);

const char* to_string(Stage s);
const char* to_string(StageState s);

}  // namespace gpudoctor
