#include "collect.hpp"

#include <algorithm>

#include "core/host_platform.hpp"
#include "core/isolate.hpp"
#include "core/root.hpp"
#include "backends.hpp"
#include "live/live_probe.hpp"
#include "probe_list.hpp"

namespace gpudoctor {

namespace {

using Clock = std::chrono::steady_clock;

// What a run does after the children, under its deadline: fold their reports, run the checks,
// write the output. Milliseconds on an idle node; a second, because on a 2-core machine at load
// 20 a 50 s deadline with 400 ms here ended at 50.5 s (the DaemonSet's loop, 52 hanging drivers).
constexpr std::chrono::milliseconds kAfterCollect{1000};

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
  void start(const CollectRequest& request) {
    run_ = std::make_unique<IsolatedRun>(std::move(jobs_));
    if (request.deadline) {
      run_->set_end(request.started + *request.deadline - kAfterCollect, *request.deadline);
    }
    run_->start();
  }
  void wait(std::chrono::milliseconds deadline, const RunProgress& progress) {
    results_ = run_->wait(deadline, progress);
  }
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
  snap.origin = ctx.live ? Origin::live : Origin::sysroot;

  const auto& probes = all_probes();

  // 1. Discovery: file reads only, so the process is still single threaded when it forks.
  for (const auto& p : probes) {
    if (p.discover && wanted(p.backend)) p.discover(ctx, request, snap);
  }

  // 2. Everything that loads a vendor library goes into isolated children: the first few start
  //    now, the rest as slots free up in wait() (IsolatedRun::default_max_children()).
  JobBatch batch;
  std::vector<std::size_t> groups;
  for (const auto& p : probes) {
    groups.push_back(batch.add(p.jobs && wanted(p.backend) ? p.jobs(ctx, snap)
                                                            : std::vector<IsolatedJob>{}));
  }
  batch.start(request);

  // 3. In-process probes (files only) run while the children work; each is its backend's one
  //    outcome.
  for (const auto& p : probes) {
    if (!p.read || !wanted(p.backend)) continue;
    auto t = Clock::now();
    ProbeOutcome out{std::string(p.backend), std::string(p.backend)};
    p.read(ctx, request, snap, out);
    out.label = std::string(p.backend);
    out.seconds = std::chrono::duration<double>(Clock::now() - t).count();
    snap.probes.push_back(std::move(out));
  }

  // 4. Collect the children and fold their reports into their sections.
  batch.wait(request.timeout, request.progress);
  for (std::size_t i = 0; i < probes.size(); ++i) {
    if (probes[i].fold) probes[i].fold(snap, batch.take(groups[i]), ctx.live);
  }

  // 5. The GPUs' live state: NVML's answers per GPU, amdgpu's sysfs files (a few reads), and
  // Level Zero Sysman's answers the Level Zero children brought.
  if (wanted(kBackendNvml) || wanted(kBackendRocm) || wanted(kBackendLevelZero)) {
    snap.live_state = live::assemble(ctx, snap, wanted(kBackendRocm));
  }
  return snap;
}

}  // namespace gpudoctor
