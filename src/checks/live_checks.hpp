#pragma once
// The checks of the GPUs' live state (live_checks.cpp); their specs are in check_list.cpp.
#include <vector>

#include "checks/checks.hpp"

namespace gpudoctor {

/// live.memory_held: the processes NVML lists hold at least this share of a GPU's memory.
inline constexpr double kLiveMemoryHeldShare = 0.5;
/// ... or, where no process list was read (amdgpu), this share of it is in use.
inline constexpr double kLiveMemoryFullShare = 0.9;

/// Their specs, in the order they run (after the runtime checks).
std::vector<CheckSpec> live_checks();

void check_live_memory_held(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_live_throttled(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_live_pending_reset(const CheckSpec&, const CheckInput&, std::vector<Finding>&);
void check_live_ecc_uncorrected(const CheckSpec&, const CheckInput&, std::vector<Finding>&);

}  // namespace gpudoctor
