// Lines that state a failure of the GPU stack in words no message entry knows: "MIOpen Error: …
// Code object build failed", "RuntimeError: Cannot find ptxas.exe", conda's "Solving
// environment: failed" over a cudatoolkit spec, a person's "the GPU falls back to the CPU". Each
// becomes a "stated.failure" symptom, so a paste that says something failed never reads as all
// clear: the stated-symptom check turns it into a finding of its own when nothing else explains
// it (src/checks/stated_symptom_check.cpp).
#include <array>
#include <regex>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_stated_failures = "stated failures (error lines no entry explains)";

/// Words that say something failed. Lower case; matched inside the lower-cased line.
constexpr std::array<std::string_view, 17> kStatedFailureWords = {
    "error",      "failed",        "failure",       "fatal",          "cannot ",
    "can't ",     "could not ",    "couldn't ",     "unable to ",     "not found",
    "no such file", "unsatisfiable", "unresolvable", "aborted",        "panic",
    "not supported", "exception"};

/// Words that put the line in the GPU stack. Lower case.
constexpr std::array<std::string_view, 30> kStatedGpuWords = {
    "cuda",    "gpu",      "nvidia",   "nvml",      "rocm",       "hip",     "miopen",
    "rocblas", "tensile",  "hsa_",     "amdgpu",    "vulkan",     "vk_",     "opencl",
    "cl_",     "triton",   "ptxas",    "cudnn",     "cublas",     "nccl",    "nvcc",
    "cudatoolkit", "__cuda", "nvidia.com/gpu", "metal", "mps",    "xpu",     "level zero",
    "sycl",    "directml"};

/// What the failure words also say on healthy lines: collect_env's "Could not collect",
/// numba -s's "No errors reported", a count of errors that is zero.
constexpr std::array<std::string_view, 4> kStatedNotFailures = {
    "could not collect", "no errors reported", "errors: 0", "error: 0"};

/// Out-of-memory wordings (torch's OutOfMemoryError, "out of memory", ComfyUI's "Allocation on
/// device"). Lower case.
constexpr std::array<std::string_view, 3> kStatedOutOfMemory = {"out of memory", "outofmemory",
                                                                 "allocation on device"};

/// The line without compiler flags: torch.__config__.show()'s "Build settings: … CXX_FLAGS=
/// -Werror=return-type -DLIBKINETO_NOROCTRACER …" on a healthy machine (a real H200's torch
/// 2.11) names "error" and "rocm" in flags, not in a failure.
std::string without_compiler_flags(const std::string& l) {
  std::string out;
  std::size_t i = 0;
  while (i < l.size()) {
    const bool token_start = i == 0 || l[i - 1] == ' ' || l[i - 1] == '=' || l[i - 1] == ',';
    if (token_start && l[i] == '-' && i + 1 < l.size() &&
        (l[i + 1] == 'w' || l[i + 1] == 'd' || l[i + 1] == 'f')) {
      while (i < l.size() && l[i] != ' ' && l[i] != ',') ++i;
      continue;
    }
    out += l[i++];
  }
  return out;
}

template <std::size_t N>
bool stated_holds_any(std::string_view l, const std::array<std::string_view, N>& words) {
  for (std::string_view w : words) {
    if (l.find(w) != std::string_view::npos) return true;
  }
  return false;
}

/// "falls back to the CPU", "falling back to CPU": the issue's own example of a stated symptom.
bool stated_cpu_fallback(const std::string& l) {
  static const std::regex re("fall(?:s|ing)? ?back to (?:the )?cpu");
  return l.find("back to") != std::string::npos && std::regex_search(l, re);
}

}  // namespace

void read_stated_failures(PasteSink& sink) {
  const auto& lines = sink.lines();
  // Only lines no reader took (or that only gave facts in prose): a line a message entry or a
  // dump's reader read is explained there.
  auto open_line = [&](std::size_t i) {
    return !lines[i].fence && (!sink.claimed(i) || sink.owner(i) == "stated facts");
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!open_line(i)) continue;
    const std::string_view t = trim(lines[i].text);
    if (t.size() < 6 || t.size() > 2000) continue;
    // A markdown heading ("## Error Details") names a section, it states nothing.
    if (t.front() == '#' || starts_with(t, "warn(") || starts_with(t, "warnings.warn(")) continue;
    const std::string l = without_compiler_flags(to_lower(t));
    if (stated_holds_any(l, kStatedNotFailures)) continue;
    const bool fallback = stated_cpu_fallback(l);
    if (!fallback && !stated_holds_any(l, kStatedFailureWords)) continue;
    // The GPU word on the line, or on one of the two lines after it (conda's "Solving
    // environment: failed", then the spec it could not solve).
    bool gpu = fallback || stated_holds_any(l, kStatedGpuWords);
    // The lines after count only for a line that ends in its failure or opens a list ("…:
    // failed", "…were found to be in conflict:"): a warning printed before a version is not about it.
    const bool opens = ends_with(l, "failed") || ends_with(l, ":");
    for (std::size_t k = i + 1, seen = 0; !gpu && opens && k < lines.size() && seen < 2; ++k) {
      const std::string_view n = trim(lines[k].text);
      if (n.empty() || lines[k].fence) continue;
      ++seen;
      gpu = stated_holds_any(to_lower(n), kStatedGpuWords);
    }
    if (!gpu) continue;
    // Memory that ran out is a workload larger than the GPU, on a stack that works: not a
    // failure of the stack (the message entries say it as a note where they know the wording).
    bool memory = stated_holds_any(l, kStatedOutOfMemory);
    for (std::size_t k = i + 1, seen = 0; !memory && k < lines.size() && seen < 2; ++k) {
      const std::string_view n = trim(lines[k].text);
      if (n.empty() || lines[k].fence) continue;
      ++seen;
      memory = stated_holds_any(to_lower(n), kStatedOutOfMemory);
    }
    if (memory) continue;
    sink.symptom("stated.failure", "paste", i);
    sink.claim(i, kFormat_stated_failures);
  }
}

}  // namespace gpudoctor
