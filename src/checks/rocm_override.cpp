#include "checks/rocm_override.hpp"

#include <algorithm>

#include "checks/check_util.hpp"
#include "compat/compat_query.hpp"
#include "parse/kfd_topology.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kLibhsakmtTopology =
    "https://github.com/ROCm/ROCR-Runtime/blob/amd-staging/libhsakmt/src/topology.c";
/// AMD's reply to an MI210 run as gfx1030: the variable forces ROCr to treat the GPU as another
/// ISA, and its kernels fault ("Memory access fault by GPU node-2 on address (nil)").
constexpr const char* kCrossGenerationReply =
    "https://github.com/ROCm/legacy-rocm-build/issues/5238";

struct NodeTarget {
  std::size_t index;
  const KfdNode* node;
  std::string gfx;
};

/// The GPU nodes (other than `skip`) whose own target has `value` among its known overrides.
std::vector<NodeTarget> nodes_needing(const CheckInput& in, std::size_t skip,
                                      const std::string& value) {
  std::vector<NodeTarget> out;
  const auto& nodes = in.snap.rocm->nodes;
  for (std::size_t j = 0; j < nodes.size(); ++j) {
    if (j == skip || !nodes[j].gfx_target) continue;
    for (const auto& row : rocm_overrides(in.compat, *nodes[j].gfx_target)) {
      if (row.value == value) out.push_back({j, &nodes[j], *nodes[j].gfx_target});
    }
  }
  return out;
}

bool any_release_lists(const CompatData& data, const std::string& gfx) {
  return std::any_of(data.rocm_releases.begin(), data.rocm_releases.end(),
                     [&](const RocmRelease& r) { return lists(r, gfx); });
}

/// What to set instead: the value known to work for this target, or no override at all; per-node
/// variables when another GPU of the process needs the current value.
std::string fix_for(const CheckInput& in, std::size_t i, const std::string& gfx,
                    const std::vector<RocmOverride>& known, const std::string& var,
                    const std::string& value) {
  const KfdNode& n = in.snap.rocm->nodes[i];
  const std::string own_var = "HSA_OVERRIDE_GFX_VERSION_" + std::to_string(n.node);
  const auto others = var == own_var ? std::vector<NodeTarget>{} : nodes_needing(in, i, value);
  std::string fix;
  if (!known.empty()) {
    const RocmOverride& k = known.front();
    fix = "export " + (others.empty() ? var : own_var) + "=" + k.value + ": the runtime then " +
          "runs the " + gfx + " GPU as " + k.runs_as + ", the override named for it in " +
          k.from.url + " (AMD does not support overrides)";
  } else if (any_release_lists(in.compat, gfx)) {
    fix = "unset " + var + ": " + gfx + " is a target ROCm builds for and needs no override";
  } else {
    fix = "unset " + var + ", or set it only to a target of the GPU's own generation (gfx" +
          gfx.substr(3, gfx.size() - 5) + "…) that the ROCm in use supports";
  }
  if (others.empty()) return fix;
  std::vector<std::string> keep;
  for (const auto& o : others) {
    keep.push_back("HSA_OVERRIDE_GFX_VERSION_" + std::to_string(o.node->node) + "=" + value +
                   " for the " + o.gfx + " GPU");
  }
  return fix + "; keep " + join(keep, ", ") + ", and unset " + var +
         " (per-node variables need a libhsakmt that reads them, as " +
         "https://github.com/ollama/ollama/blob/main/docs/gpu.mdx describes), or hide this GPU "
         "with ROCR_VISIBLE_DEVICES";
}

}  // namespace

std::optional<std::pair<std::string, std::string>> node_override(const RocmInfo& r,
                                                                 const KfdNode& n) {
  if (n.hsa_override_gfx_version) {
    return std::make_pair("HSA_OVERRIDE_GFX_VERSION_" + std::to_string(n.node),
                          *n.hsa_override_gfx_version);
  }
  if (r.hsa_override_gfx_version) {
    return std::make_pair(std::string("HSA_OVERRIDE_GFX_VERSION"), *r.hsa_override_gfx_version);
  }
  return std::nullopt;
}

bool report_wrong_override(const CheckSpec& self, const CheckInput& in, std::size_t i,
                           const std::vector<RocmBuild>& builds, std::vector<Finding>& out) {
  const KfdNode& n = in.snap.rocm->nodes[i];
  auto ov = node_override(*in.snap.rocm, n);
  auto own = n.gfx_target ? parse_gfx_target(*n.gfx_target) : std::nullopt;
  if (!ov || !own) return false;
  // Named copies, not a structured binding: C++17 lambdas cannot capture one (clang refuses).
  const std::string var = ov->first;
  const std::string value = ov->second;
  const std::string& gfx = *n.gfx_target;
  const std::string setting = var + "=" + value;
  const auto known = rocm_overrides(in.compat, gfx);
  const std::string label = node_label(in, i);

  Finding f = make_finding(self, Severity::fail, "");
  f.id = "rocm.gfx_override_wrong";
  f.evidence.push_back("GPU target (KFD gfx_target_version): " + gfx);
  f.evidence.push_back(setting);
  for (const auto& k : known) {
    f.evidence.push_back("known override for " + gfx + ": " + k.value + " (" + k.from.url + ")");
  }
  const auto runs_as = hsa_override_accepted(value) ? gfx_override_target(value) : std::nullopt;
  const auto target = runs_as ? parse_gfx_target(*runs_as) : std::nullopt;
  if (!hsa_override_accepted(value)) {
    f.title = setting + " is not MAJOR.MINOR.STEPPING: libhsakmt refuses it (\"" +
              "HSA_OVERRIDE_GFX_VERSION " + value + " is invalid\"), so no HIP program can open " +
              label + " or any other GPU";
    f.source = kLibhsakmtTopology;
  } else if (!target) {
    f.title = setting + " names no GPU target (minor and stepping are one hex digit each in " +
              "LLVM's names): the runtime finds no code object for " + label;
    f.source = kLibhsakmtTopology;
  } else if (target->major != own->major) {
    f.title = setting + " makes the runtime treat " + label + " as " + *runs_as +
              ", another GPU generation: its kernels fault (\"Memory access fault by GPU\") or " +
              "fail with hipErrorNoBinaryForGpu";
    f.source = kCrossGenerationReply;
  } else if (*runs_as != gfx) {
    const bool is_known = std::any_of(known.begin(), known.end(),
                                      [&](const RocmOverride& k) { return k.value == value; });
    if (known.empty() || is_known) return false;
    f.title = setting + " runs " + label + " as " + *runs_as + ", not as the target known to " +
              "work for " + gfx + " (" + known.front().runs_as + ")";
    f.source = known.front().from.url;
  } else {
    // The GPU's own target: no override at all, which helps only where ROCm ships its code.
    const bool native = std::any_of(builds.begin(), builds.end(), [&](const RocmBuild& b) {
      auto row = rocm_release(in.compat, b.version);
      return !row || lists(*row, gfx);  // an unknown release: not judged
    });
    if (known.empty() || native) return false;
    f.severity = builds.empty() ? Severity::warn : Severity::fail;
    f.title = setting + " names " + label + "'s own target: it overrides nothing, and where " +
              "ROCm ships no " + gfx + " code the libraries fail (\"Cannot read " +
              "TensileLibrary.dat\", hipErrorNoBinaryForGpu)";
    for (const auto& b : builds) f.evidence.push_back(b.label + " does not list " + gfx);
    f.source = known.front().from.url;
  }
  f.fix = fix_for(in, i, gfx, known, var, value);
  out.push_back(std::move(f));
  return true;
}

}  // namespace gpudoctor
