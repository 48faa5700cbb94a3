#pragma once
#include <string>
#include <string_view>
#include <variant>

#include "model/snapshot.hpp"

namespace gpudoctor {

/// A recorded snapshot from any JSON gpudoctor writes (`query --json`, `check --json`), or a
/// one-line reason it cannot be used.
std::variant<Snapshot, std::string> snapshot_from_json_text(std::string_view text);

}  // namespace gpudoctor
