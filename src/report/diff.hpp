#pragma once
#include <optional>
#include <string>
#include <vector>

#include "model/finding.hpp"
#include "devices.hpp"
#include "facts/facts.hpp"
#include "json.hpp"
#include "model/snapshot.hpp"

namespace gpudoctor {

/// One machine as diff sees it: its snapshot, merged devices and the findings on it.
struct DiffSide {
  const Snapshot& snap;
  const std::vector<MergedDevice>& devices;
  const std::vector<Finding>& findings;
};

/// One fact that differs; `rank` orders them, lowest (most likely the cause) first.
struct Difference {
  int rank = 0;
  std::string area;  ///< "finding", "driver", "toolkit", "cudnn", "framework", "python", …
  std::string what;  ///< "NVIDIA kernel module", "torch", "nvidia.driver_library_mismatch"
  std::optional<std::string> a;  ///< absent: the machine has no such fact
  std::optional<std::string> b;
};
GPUDOCTOR_JSON(Difference, rank, area, what, a, b)

/// What differs that matters between a machine that works and one that does not: failures,
/// driver (NVIDIA, amdgpu, macOS), GPU device access, toolkit (CUDA, ROCm, HIP), cuDNN/NCCL,
/// framework builds, Python and its architecture, devices (gfx targets, Metal), warnings, the
/// OS, the other APIs; most important first.
std::vector<Difference> diff_machines(const DiffSide& a, const DiffSide& b);

/// The same in two steps, so that a caller can let go of one machine's snapshot before it reads
/// the other (`diff` of two reports of 16,000 GPUs holds one model at a time, issue 29 §3):
/// diff_facts(a), then diff_facts(b), then diff_compared of the two.
std::vector<facts::Compared> diff_facts(const DiffSide& side);
std::vector<Difference> diff_compared(std::vector<facts::Compared> a,
                                      std::vector<facts::Compared> b);

/// Text for people: a block per difference, A and B under it.
std::string render_diff_text(const std::vector<Difference>& diffs, const std::string& a_name,
                             const std::string& b_name);

/// `diff --json`.
Json diff_json(const std::vector<Difference>& diffs, const std::string& a_name,
               const std::string& b_name);

}  // namespace gpudoctor
