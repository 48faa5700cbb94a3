#include "collect.hpp"

#include <algorithm>

#include "backends.hpp"
#include "core/isolate.hpp"
#include "core/root.hpp"
#include "host/host_probe.hpp"
#include "opencl/opencl_probe.hpp"
#include "pci/pci_probe.hpp"
#include "vulkan/vulkan_probe.hpp"

namespace gpudoctor {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

Snapshot collect(const CollectRequest& request, const Environment& env) {
  const Root root(request.root);
  const ProbeContext ctx{root, env, root.is_host()};
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

  // 2. Everything that loads a vendor library goes into isolated children, all at once.
  std::vector<IsolatedJob> jobs;
  std::size_t n_opencl = 0;
  if (snap.opencl) {
    jobs = opencl::jobs(ctx, *snap.opencl);
    n_opencl = jobs.size();
  }
  if (snap.vulkan) {
    auto vk = vulkan::jobs(ctx, *snap.vulkan);
    std::move(vk.begin(), vk.end(), std::back_inserter(jobs));
  }
  IsolatedRun run(std::move(jobs));
  run.start();

  // 3. In-process probes run while the children work.
  if (wanted(kBackendHost)) {
    auto t = std::chrono::steady_clock::now();
    snap.host = probe_host(ctx);
    snap.probes.push_back({std::string(kBackendHost), std::string(kBackendHost), std::nullopt,
                           ProbeStatus::ok, "", seconds_since(t), std::nullopt});
  }
  if (wanted(kBackendPci)) {
    auto t = std::chrono::steady_clock::now();
    ProbeOutcome out{std::string(kBackendPci), std::string(kBackendPci)};
    snap.pci = probe_pci(ctx, out);
    out.seconds = seconds_since(t);
    snap.probes.push_back(std::move(out));
  }

  // 4. Collect the children and fold their reports into their sections.
  std::vector<IsolatedResult> results = run.wait(request.timeout);
  std::vector<IsolatedResult> cl_results(std::make_move_iterator(results.begin()),
                                         std::make_move_iterator(results.begin() + n_opencl));
  std::vector<IsolatedResult> vk_results(std::make_move_iterator(results.begin() + n_opencl),
                                         std::make_move_iterator(results.end()));
  if (snap.opencl) snap.probes.push_back(opencl::assemble(*snap.opencl, cl_results, ctx.live));
  for (auto& r : cl_results) snap.probes.push_back(std::move(r.outcome));
  if (snap.vulkan) snap.probes.push_back(vulkan::assemble(*snap.vulkan, vk_results, ctx.live));
  for (auto& r : vk_results) snap.probes.push_back(std::move(r.outcome));
  return snap;
}

}  // namespace gpudoctor
