#include "collect.hpp"

#include <algorithm>

#include "backends.hpp"
#include "core/host_platform.hpp"
#include "core/isolate.hpp"
#include "core/root.hpp"
#include "cuda/cuda_probe.hpp"
#include "host/host_probe.hpp"
#include "macos/macos_probe.hpp"
#include "metal/metal_probe.hpp"
#include "platform/platform.hpp"
#include "nvidia/nvidia_system_probe.hpp"
#include "nvml/nvml_probe.hpp"
#include "opencl/opencl_probe.hpp"
#include "pci/pci_probe.hpp"
#include "python/python_probe.hpp"
#include "rocm/hip_probe.hpp"
#include "rocm/rocm_system_probe.hpp"
#include "vulkan/vulkan_probe.hpp"

namespace gpudoctor {

namespace {

using Clock = std::chrono::steady_clock;

/// Runs an in-process (file-reading) probe and records its outcome and time.
template <typename Fn>
auto timed(Snapshot& snap, std::string_view backend, Fn&& fn) {
  auto t = Clock::now();
  ProbeOutcome out{std::string(backend), std::string(backend)};
  auto value = fn(out);
  out.label = std::string(backend);  // an in-process probe is its backend's only outcome
  out.seconds = std::chrono::duration<double>(Clock::now() - t).count();
  snap.probes.push_back(std::move(out));
  return value;
}

/// The isolated jobs of several backends share one run; each backend gets its slice back.
class JobBatch {
 public:
  std::size_t add(std::vector<IsolatedJob> jobs) {
    std::size_t group = bounds_.size();
    std::size_t begin = jobs_.size();
    std::move(jobs.begin(), jobs.end(), std::back_inserter(jobs_));
    bounds_.emplace_back(begin, jobs_.size());
    return group;
  }
  void start() {
    run_ = std::make_unique<IsolatedRun>(std::move(jobs_));
    run_->start();
  }
  void wait(std::chrono::milliseconds deadline) { results_ = run_->wait(deadline); }
  std::vector<IsolatedResult> take(std::size_t group) {
    auto [b, e] = bounds_[group];
    return {std::make_move_iterator(results_.begin() + static_cast<long>(b)),
            std::make_move_iterator(results_.begin() + static_cast<long>(e))};
  }

 private:
  std::vector<IsolatedJob> jobs_;
  std::vector<std::pair<std::size_t, std::size_t>> bounds_;
  std::unique_ptr<IsolatedRun> run_;
  std::vector<IsolatedResult> results_;
};

/// Folds one backend's children into its section, then records its outcome and theirs.
template <typename Info, typename Assemble>
void fold(Snapshot& snap, std::optional<Info>& section, std::vector<IsolatedResult> results,
          bool live, Assemble&& assemble) {
  if (!section) return;
  snap.probes.push_back(assemble(*section, results, live));
  for (auto& r : results) snap.probes.push_back(std::move(r.outcome));
}

}  // namespace

Snapshot collect(const CollectRequest& request, const Environment& env) {
  const Root root(request.root);
  const ProbeContext ctx{root, env, request.live && root.is_host(), request.smoke,
                         target_platform(root)};
  auto wanted = [&](std::string_view b) {
    return request.backends.empty() ||
           std::find(request.backends.begin(), request.backends.end(), b) !=
               request.backends.end();
  };

  Snapshot snap;
  snap.tool_version = request.tool_version;
  snap.root = root.base().string();
  snap.live = ctx.live;

  // 1. Discovery: file reads only, so the process is still single threaded when it forks.
  if (wanted(kBackendOpenCl)) snap.opencl = opencl::discover(ctx);
  if (wanted(kBackendVulkan)) snap.vulkan = vulkan::discover(ctx);
  if (wanted(kBackendCuda)) snap.cuda = CudaInfo{};
  if (wanted(kBackendNvml)) snap.nvml = NvmlInfo{};
  if (wanted(kBackendMetal) && ctx.platform == kPlatformMacos) snap.metal = MetalInfo{};

  // 2. Everything that loads a vendor library goes into isolated children: the first few start
  //    now, the rest as slots free up in wait() (IsolatedRun::default_max_children()).
  JobBatch batch;
  std::size_t g_opencl = batch.add(snap.opencl ? opencl::jobs(ctx, *snap.opencl)
                                               : std::vector<IsolatedJob>{});
  std::size_t g_vulkan = batch.add(snap.vulkan ? vulkan::jobs(ctx, *snap.vulkan)
                                               : std::vector<IsolatedJob>{});
  std::size_t g_cuda = batch.add(snap.cuda ? cuda::jobs(ctx) : std::vector<IsolatedJob>{});
  std::size_t g_nvml = batch.add(snap.nvml ? nvml::jobs(ctx) : std::vector<IsolatedJob>{});
  std::size_t g_rocm =
      batch.add(wanted(kBackendRocm) ? hip::jobs(ctx) : std::vector<IsolatedJob>{});
  std::size_t g_metal = batch.add(snap.metal ? metal::jobs(ctx) : std::vector<IsolatedJob>{});
  batch.start();

  // 3. In-process probes (files only) run while the children work.
  if (wanted(kBackendHost)) {
    snap.host = timed(snap, kBackendHost, [&](ProbeOutcome&) { return probe_host(ctx); });
  }
  if (wanted(kBackendPci)) {
    snap.pci = timed(snap, kBackendPci, [&](ProbeOutcome& out) { return probe_pci(ctx, out); });
  }
  if (wanted(kBackendNvidia)) {
    snap.nvidia = timed(snap, kBackendNvidia,
                        [&](ProbeOutcome&) { return probe_nvidia_system(ctx); });
  }
  if (wanted(kBackendPython)) {
    snap.python = timed(snap, kBackendPython, [&](ProbeOutcome&) {
      return probe_python(ctx, request.python_env_dirs);
    });
  }
  if (wanted(kBackendMacos)) {
    snap.macos = timed(snap, kBackendMacos, [&](ProbeOutcome& out) {
      return probe_macos(ctx, macos_command_runner(), request.timeout, out);
    });
  }
  if (wanted(kBackendRocm)) {
    snap.rocm = timed(snap, kBackendRocm, [&](ProbeOutcome&) { return probe_rocm_system(ctx); });
  }

  // 4. Collect the children and fold their reports into their sections.
  batch.wait(request.timeout);
  fold(snap, snap.opencl, batch.take(g_opencl), ctx.live, opencl::assemble);
  fold(snap, snap.vulkan, batch.take(g_vulkan), ctx.live, vulkan::assemble);
  fold(snap, snap.cuda, batch.take(g_cuda), ctx.live, cuda::assemble);
  fold(snap, snap.nvml, batch.take(g_nvml), ctx.live, nvml::assemble);
  fold(snap, snap.rocm, batch.take(g_rocm), ctx.live, hip::assemble);
  fold(snap, snap.metal, batch.take(g_metal), ctx.live, metal::assemble);
  return snap;
}

}  // namespace gpudoctor
