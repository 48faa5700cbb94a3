#pragma once
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "model/cuda.hpp"
#include "model/environment_origin.hpp"
#include "model/host.hpp"
#include "model/live.hpp"
#include "model/level_zero.hpp"
#include "model/macos.hpp"
#include "model/metal.hpp"
#include "model/nvidia_system.hpp"
#include "model/nvml.hpp"
#include "model/opencl.hpp"
#include "model/pci.hpp"
#include "model/probe_outcome.hpp"
#include "model/python.hpp"
#include "model/rocm.hpp"
#include "model/runtime.hpp"
#include "model/symptom.hpp"
#include "model/vulkan.hpp"

namespace gpudoctor {

inline constexpr int kSchemaVersion = 1;

/// Where a snapshot's facts come from. Checks that read a fact's absence as "absent" ask it:
/// a paste that shows no module list says nothing about the modules, a tree says what it holds.
enum class Origin {
  live,     ///< this machine: its files and, in isolated children, its vendor libraries
  sysroot,  ///< a tree (--sysroot): files only
  report,   ///< a report read back (check --from report.json): what it recorded
  paste,    ///< text a person pasted: only the sections the text shows
};
GPUDOCTOR_JSON_ENUM(Origin, {{Origin::live, "live"},
                             {Origin::sysroot, "sysroot"},
                             {Origin::report, "report"},
                             {Origin::paste, "paste"}})

/// Everything the probes found, as plain data. Checks and renderers read only this.
/// A section is absent when its backend was not asked for.
struct Snapshot {
  int schema_version = kSchemaVersion;
  std::string tool_version;
  Origin origin = Origin::live;
  std::string root = "/";         ///< the root the file probes read; "/" unless --sysroot
  bool live = true;               ///< vendor libraries were loaded (false under --sysroot)
  std::vector<ProbeOutcome> probes;
  std::optional<HostInfo> host;
  std::optional<PciInfo> pci;
  std::optional<OpenClInfo> opencl;
  std::optional<VulkanInfo> vulkan;
  std::optional<NvidiaSystem> nvidia;
  std::optional<CudaInfo> cuda;
  std::optional<NvmlInfo> nvml;
  std::optional<PythonInfo> python;
  std::optional<MacosInfo> macos;
  std::optional<RocmInfo> rocm;
  std::optional<MetalInfo> metal;
  std::optional<LevelZeroInfo> level_zero;
  std::optional<OllamaInfo> ollama;  ///< from an ollama server log (check --from)
  /// ollama and llama.cpp installs, read from files (probes/runtime)
  std::optional<RuntimeInstalls> runtimes;
  /// The GPUs' live state (memory held, load, temperature, clocks, errors, processes): NVML's
  /// and amdgpu sysfs's, when the nvml or rocm backend ran.
  std::optional<LiveState> live_state;
  std::vector<Symptom> symptoms;     ///< messages seen in a log or pasted dump
  /// Under --sysroot: whose environment the probes honoured (model/environment_origin.hpp).
  std::optional<EnvironmentOrigin> environment;
};
GPUDOCTOR_JSON(Snapshot, schema_version, tool_version, origin, root, live, probes, host, pci, opencl,
               vulkan, nvidia, cuda, nvml, python, macos, rocm, ollama, symptoms, metal,
               live_state, environment, level_zero, runtimes)

}  // namespace gpudoctor
