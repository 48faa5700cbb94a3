// The smoke matmul on every device of every API (CUDA, OpenCL, Vulkan, Metal): a device that
// computes wrong numbers, or whose driver dies running a kernel, fails; one that could not be
// tested is a note saying why.
#include "backends.hpp"
#include "checks/check_list.hpp"
#include "checks/check_util.hpp"

namespace gpudoctor {

namespace {

std::string api_name(const std::string& api) {
  const Backend* b = find_backend(api);
  return b ? std::string(b->title) : api;
}

Finding smoke_finding(const CheckSpec& self, const SmokeResult& s, bool macos) {
  const bool wrong = s.max_abs_error.has_value();  // it ran; the numbers were wrong
  const std::string what = "The " + api_name(s.api) + " smoke matmul on " + s.device;
  if (s.status == "skip") {
    Finding f = make_finding(self, Severity::info,
                             what + " did not run: " + s.reason.value_or("no reason given"));
    f.area = s.api;
    return f;
  }
  Finding f =
      make_finding(self, Severity::fail, what + (wrong ? " gave wrong results" : " failed"));
  f.area = s.api;
  f.evidence.push_back(s.reason.value_or(""));
  if (s.n) f.evidence.push_back("n=" + std::to_string(*s.n) + (s.kernel ? ", " + *s.kernel : ""));
  if (s.library) f.evidence.push_back("driver: " + *s.library);
  if (macos) {
    // Metal, OpenCL.framework and the GPU drivers are part of macOS; MoltenVK is not.
    const std::string update = s.api == "vulkan" ? "update MoltenVK (the Vulkan SDK)"
                                                 : "install the macOS updates (System Settings → "
                                                   "Software Update)";
    f.fix = wrong ? update + "; if it persists, run Apple Diagnostics (hold D at startup)"
                  : update + "; every program that runs a kernel on this device will fail the "
                             "same way";
    return f;
  }
  f.fix =
      wrong ? "update the driver; if it persists, test the GPU's memory (e.g. DCGM "
              "diagnostics on NVIDIA) and check its cooling and clocks"
            : "update or reinstall the driver" +
                  (s.library ? " (dpkg -S " + *s.library + " names its package)" : std::string()) +
                  "; every program that runs a kernel on this device will fail the same way";
  return f;
}

}  // namespace

void check_smoke_results(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  for (const SmokeResult* s : smoke_results(in.snap)) {
    if (s->status == "fail" || s->status == "skip") {
      out.push_back(smoke_finding(self, *s, on_macos(in.snap)));
    }
  }
}

}  // namespace gpudoctor
