#include "probe_list.hpp"

#include "backends.hpp"
#include "cuda/cuda_probe.hpp"
#include "host/dkms_probe.hpp"
#include "host/host_probe.hpp"
#include "host/kernel_log_probe.hpp"
#include "host/service_log_probe.hpp"
#include "level_zero/level_zero_probe.hpp"
#include "macos/macos_probe.hpp"
#include "metal/metal_probe.hpp"
#include "nvidia/nvidia_system_probe.hpp"
#include "nvml/nvml_probe.hpp"
#include "opencl/opencl_probe.hpp"
#include "pci/pci_probe.hpp"
#include "python/python_probe.hpp"
#include "rocm/hip_probe.hpp"
#include "rocm/rocm_system_probe.hpp"
#include "runtime/runtime_probe.hpp"
#include "vulkan/vulkan_probe.hpp"
#include "platform/platform.hpp"

namespace gpudoctor {

namespace {

/// Step 4 for a section filled by children: the backend's own outcome (what assemble() makes
/// of them), then each child's. Nothing when the section was never started.
template <auto Section, auto Assemble>
void fold_section(Snapshot& snap, std::vector<IsolatedResult> results, bool live) {
  auto& section = snap.*Section;
  if (!section) return;
  snap.probes.push_back(Assemble(*section, results, live));
  for (auto& r : results) snap.probes.push_back(std::move(r.outcome));
}

using Request = CollectRequest;
using Context = ProbeContext;

}  // namespace

const std::vector<ProbeSteps>& all_probes() {
  static const std::vector<ProbeSteps> probes = {
      {kBackendHost, nullptr, nullptr,
       [](const Context& ctx, const Request&, Snapshot& s, ProbeOutcome&) {
         s.host = probe_host(ctx);
         // The kernel's log of this boot: its GPU lines read as symptoms (Linux only).
         if (ctx.platform == kPlatformLinux) {
           s.host->kernel_log = probe_kernel_log(ctx, s.symptoms);
           // Slurm's daemons' logs: their GPU lines read the same way.
           s.host->service_logs = probe_service_logs(ctx, s.symptoms);
           // DKMS's builds of GPU modules: for which kernels they failed.
           s.host->dkms_builds = probe_dkms_builds(ctx);
         }
         // ollama and llama.cpp installs: files only, read with the host (probes/runtime).
         auto runtimes = probe_runtimes(ctx);
         if (!runtimes.ollama.empty() || !runtimes.llama_cpp.empty()) s.runtimes = std::move(runtimes);
       }},
      {kBackendPci, nullptr, nullptr,
       [](const Context& ctx, const Request&, Snapshot& s, ProbeOutcome& out) {
         s.pci = probe_pci(ctx, out);
       }},
      {kBackendOpenCl,
       [](const Context& ctx, const Request&, Snapshot& s) { s.opencl = opencl::discover(ctx); },
       [](const Context& ctx, const Snapshot& s) { return opencl::jobs(ctx, *s.opencl); },
       nullptr, fold_section<&Snapshot::opencl, opencl::assemble>},
      {kBackendVulkan,
       [](const Context& ctx, const Request&, Snapshot& s) { s.vulkan = vulkan::discover(ctx); },
       [](const Context& ctx, const Snapshot& s) { return vulkan::jobs(ctx, *s.vulkan); },
       nullptr, fold_section<&Snapshot::vulkan, vulkan::assemble>},
      {kBackendNvidia, nullptr, nullptr,
       [](const Context& ctx, const Request&, Snapshot& s, ProbeOutcome&) {
         s.nvidia = probe_nvidia_system(ctx);
       }},
      {kBackendCuda, [](const Context&, const Request&, Snapshot& s) { s.cuda = CudaInfo{}; },
       [](const Context& ctx, const Snapshot&) { return cuda::jobs(ctx); }, nullptr,
       fold_section<&Snapshot::cuda, cuda::assemble>},
      {kBackendNvml, [](const Context&, const Request&, Snapshot& s) { s.nvml = NvmlInfo{}; },
       [](const Context& ctx, const Snapshot&) { return nvml::jobs(ctx); }, nullptr,
       fold_section<&Snapshot::nvml, nvml::assemble>},
      {kBackendPython, nullptr, nullptr,
       [](const Context& ctx, const Request& req, Snapshot& s, ProbeOutcome&) {
         s.python = probe_python(ctx, req.python_env_dirs);
       }},
      {kBackendMacos, nullptr, nullptr,
       [](const Context& ctx, const Request& req, Snapshot& s, ProbeOutcome& out) {
         s.macos = probe_macos(ctx, macos_command_runner(), req.timeout, out);
       }},
      // Metal exists only on a Mac: a Mac's tree under --sysroot gets the section (not loaded),
      // a Linux machine none.
      {kBackendMetal,
       [](const Context& ctx, const Request&, Snapshot& s) {
         if (ctx.platform == kPlatformMacos) s.metal = MetalInfo{};
       },
       [](const Context& ctx, const Snapshot& s) {
         return s.metal ? metal::jobs(ctx) : std::vector<IsolatedJob>{};
       },
       nullptr, fold_section<&Snapshot::metal, metal::assemble>},
      // ROCm reads its files in process (the KFD topology, installs), and libamdhip64 in a
      // child whose result joins that section.
      {kBackendRocm, nullptr, [](const Context& ctx, const Snapshot&) { return hip::jobs(ctx); },
       [](const Context& ctx, const Request&, Snapshot& s, ProbeOutcome&) {
         s.rocm = probe_rocm_system(ctx);
       },
       fold_section<&Snapshot::rocm, hip::assemble>},
      // Level Zero: the driver libraries on the library path (Linux), then the loader in a child
      // per driver.
      {kBackendLevelZero,
       [](const Context& ctx, const Request&, Snapshot& s) {
         s.level_zero = LevelZeroInfo{};
         level_zero::discover(ctx, *s.level_zero);
       },
       [](const Context& ctx, const Snapshot& s) { return level_zero::jobs(ctx, *s.level_zero); },
       nullptr,
       fold_section<&Snapshot::level_zero, level_zero::assemble>},
  };
  return probes;
}

}  // namespace gpudoctor
