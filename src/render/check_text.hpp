#pragma once
#include <string>
#include <vector>

#include "devices.hpp"
#include "model/snapshot.hpp"
#include "render/style.hpp"

namespace gpudoctor {

/// `gpudoctor check`, for now: one line per backend (found / not found / failed) and the
/// devices each one sees.
std::string render_check_text(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                              const Style& style);

/// 0 when no backend failed, crashed or timed out; 1 otherwise.
int check_exit_code(const Snapshot& snap);

}  // namespace gpudoctor
