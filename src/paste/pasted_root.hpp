#pragma once

namespace gpudoctor {

/// Snapshot::root of a snapshot read from pasted text (check --from): nothing was examined that
/// the paste does not show, so renderers say "unknown" where a machine's snapshot says "none".
inline constexpr const char* kPastedRoot = "(pasted text)";

}  // namespace gpudoctor
