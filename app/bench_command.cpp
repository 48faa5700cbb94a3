#include "bench_command.hpp"

#include <unistd.h>

#include <iostream>

#include "bench_runners/bench_jobs.hpp"
#include "bench/bench_math.hpp"
#include "bench/bench_report.hpp"
#include "bench/bench_svg.hpp"
#include "bench/bench_text.hpp"
#include "bench/vendor_blas.hpp"
#include "collect.hpp"
#include "core/root.hpp"
#include "file_io.hpp"
#include "render/terminal_text.hpp"
#include "report_command.hpp"
#include "terminal.hpp"
#include "tool_version.hpp"

namespace gpudoctor {

namespace {

/// One line on a terminal, rewritten as each child starts; nothing when stderr is not one.
class Progress {
 public:
  explicit Progress(std::string sizes)
      : tty_(::isatty(STDERR_FILENO) != 0), sizes_(std::move(sizes)) {}
  ~Progress() {
    if (tty_) std::cerr << "\r\033[K" << std::flush;
  }
  void operator()(std::size_t index, std::size_t count, const IsolatedJob& job) const {
    if (!tty_) return;
    // The label is a driver's file name: anything may be in it.
    std::cerr << "\r\033[Kbench [" << index + 1 << "/" << count << "] " << job.backend << " "
              << terminal_text(job.label, Style::plain(), true) << ": matmul n=" << sizes_
              << ", then copies" << std::flush;
  }

 private:
  bool tty_;
  std::string sizes_;
};

std::string sizes_text(const std::vector<int>& sizes) {
  std::string s;
  for (int n : sizes) s += (s.empty() ? "" : ",") + std::to_string(n);
  return s;
}

bool any_failure(const BenchReport& report) {
  for (const auto& j : report.jobs) {
    if (j.status == ProbeStatus::failed || j.status == ProbeStatus::crashed ||
        j.status == ProbeStatus::timed_out) {
      return true;
    }
  }
  for (const auto& r : report.results) {
    for (const auto& p : r.series.points) {
      if (p.error) return true;
    }
  }
  return false;
}

}  // namespace

int run_bench_command(const Options& opt, const Environment& env) {
  // The plot's place is checked before minutes of benchmarking, not after.
  if (opt.plot) {
    const std::string why = output_problem(*opt.plot);
    if (!why.empty()) {
      print_error("--plot " + why);
      return kExitIoError;
    }
  }
  const std::vector<int> sizes =
      bench::normalized_sizes(opt.sizes.empty() ? bench::kDefaultSizes : opt.sizes);
  // These probes read files only: the CPU's name, every GPU's PCIe link, and where the CUDA
  // toolkits and Python environments (cuBLAS and MKL wheels) are.
  CollectRequest req;
  req.backends = {"host", "pci", "nvidia", "python"};
  req.tool_version = kToolVersion;
  const Snapshot snap = collect(req, env);

  const Root root;
  const ProbeContext ctx{root, env, true, false};
  bench::BenchPlan plan;
  plan.sizes = sizes;
  plan.backends = opt.backends;
  if (snap.host && snap.host->cpu_model) plan.cpu_name = *snap.host->cpu_model;
  plan.vendor_blas = bench::vendor_blas_paths(snap);
  plan.vendor_series = !opt.no_vendor_blas;
  bench::BenchRun run;
  {
    const Progress progress(sizes_text(sizes));
    run = bench::run_bench(bench::bench_jobs(ctx, plan), opt.timeout, std::cref(progress));
  }
  BenchReport report = bench::assemble_report(std::move(run.series), snap.pci, sizes);
  report.tool_version = kToolVersion;
  report.jobs = std::move(run.jobs);

  if (opt.plot) {
    const std::string why = write_output(*opt.plot, bench::render_svg(report));
    if (!why.empty()) {
      print_error("--plot " + why);
      return kExitIoError;
    }
  }
  const int code = any_failure(report) ? 1 : 0;
  if (opt.json) return emit(dump_json(Json(report), 2) + "\n", code, false, Style::plain());
  const Style style = stdout_style(opt.color, env);
  return emit(bench::render_text(report, style.width()), code, true, style);
}

}  // namespace gpudoctor
