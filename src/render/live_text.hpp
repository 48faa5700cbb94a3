#pragma once
#include <sstream>

#include "model/snapshot.hpp"
#include "render/style.hpp"

namespace gpudoctor {

/// `gpudoctor query`'s "Live state": per GPU, memory used and free, load, temperature, power,
/// clocks and why they are held down, memory errors, and the processes holding it; then what
/// was not examined. Nothing when the snapshot has no live section or it holds nothing. Every
/// line fits in 80 columns.
void render_live_text(std::ostringstream& os, const Snapshot& snap, const Style& style);

}  // namespace gpudoctor
