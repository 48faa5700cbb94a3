#include "checks/code_targets.hpp"

#include "binary/offload_bundle.hpp"

namespace gpudoctor {

namespace {

bool cubin_runs(const ComputeCapability& gpu, const ComputeCapability& t) {
  if (t.suffix == "a") return t.major == gpu.major && t.minor == gpu.minor;
  return t.major == gpu.major && t.minor <= gpu.minor;
}

bool ptx_runs(const ComputeCapability& gpu, const ComputeCapability& t) {
  if (t.suffix == "a") return t.major == gpu.major && t.minor == gpu.minor;
  if (t.suffix == "f") return t.major == gpu.major && t.minor <= gpu.minor;
  return t.major < gpu.major || (t.major == gpu.major && t.minor <= gpu.minor);
}

/// The best target of `names` that `runs` accepts: the highest compute capability.
std::optional<std::string> best(const ComputeCapability& gpu, const std::vector<std::string>& names,
                                bool (*runs)(const ComputeCapability&, const ComputeCapability&)) {
  std::optional<std::string> out;
  std::optional<ComputeCapability> top;
  for (const auto& name : names) {
    auto t = parse_sm(name);
    if (!t || !runs(gpu, *t)) continue;
    if (!top || compare_cc(*t, *top) > 0) {
      top = *t;
      out = name;
    }
  }
  return out;
}

}  // namespace

CudaFitResult cuda_fit(const ComputeCapability& gpu, const std::vector<std::string>& sass,
                       const std::vector<std::string>& ptx) {
  if (auto s = best(gpu, sass, cubin_runs)) return {CudaFit::native, s};
  if (auto p = best(gpu, ptx, ptx_runs)) return {CudaFit::ptx_jit, p};
  return {};
}

std::optional<std::string> amdgpu_match(const std::string& gfx,
                                        const std::vector<std::string>& targets) {
  for (const auto& t : targets) {
    if (binary::gfx_processor(t) == gfx) return t;
  }
  return std::nullopt;
}

std::string sm_name(const Version& cc, const char* prefix) {
  const auto major = cc.parts.empty() ? 0 : cc.parts[0];
  const auto minor = cc.parts.size() > 1 ? cc.parts[1] : 0;
  return prefix + std::to_string(major) + std::to_string(minor);
}

}  // namespace gpudoctor
