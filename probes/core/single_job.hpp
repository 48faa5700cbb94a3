#pragma once
// A backend that runs exactly one isolated job (cuda, nvml, rocm's HIP): making it and folding
// its report.
#include <string>
#include <string_view>
#include <vector>

#include "core/isolate.hpp"

namespace gpudoctor {

/// The job that runs `probe(options)` in a child, named after the first library it will try
/// (options.libraries), or `default_label` when the loader's own search decides.
template <typename Options, typename Probe>
IsolatedJob make_single_job(std::string_view backend, std::string_view default_label,
                            Options options, Probe probe) {
  IsolatedJob job;
  job.backend = std::string(backend);
  job.label = options.libraries.empty() ? std::string(default_label) : options.libraries.front();
  job.library = job.label;
  job.body = [opt = std::move(options), probe] { return probe(opt); };
  return job;
}

/// The job's outcome becomes the backend's; its data, parsed into Info, becomes the section.
/// Data that does not fit the model turns the outcome into a failure that says so.
template <typename Info>
ProbeOutcome assemble_single_job(std::string_view backend, std::string_view what,
                                 std::string_view library, Info& info,
                                 const std::vector<IsolatedResult>& results, bool live) {
  ProbeOutcome out{std::string(backend), std::string(backend), std::nullopt,
                   ProbeStatus::skipped};
  if (!live) {
    out.detail = std::string(library) + " is not loaded under --sysroot";
    return out;
  }
  if (results.empty()) {
    out.detail = "the " + std::string(what) + " probe did not run";
    return out;
  }
  const IsolatedResult& r = results.front();
  out.library = r.outcome.library;
  out.status = r.outcome.status;
  out.detail = r.outcome.detail;
  out.seconds = r.outcome.seconds;
  if (r.data) {
    try {
      info = r.data->get<Info>();
    } catch (const std::exception& e) {
      out.status = ProbeStatus::failed;
      out.detail = "the " + std::string(what) +
                   " probe sent back facts that do not fit the model: " + e.what();
    }
  }
  if (info.library) out.library = info.library;
  return out;
}

}  // namespace gpudoctor
