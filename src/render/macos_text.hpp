#pragma once
#include <sstream>

#include "model/macos.hpp"
#include "render/style.hpp"
#include "render/text_blocks.hpp"

namespace gpudoctor {

/// What system_profiler says about one GPU, as lines of a device block.
void render_macos_gpu(Block& b, const MacGpu& g);

/// The check's one-line view of the Mac: "macOS 12.6, Apple silicon, Apple M1 Pro (16 GPU cores)".
std::string macos_summary(const MacosInfo& m);

/// The macOS section: version, CPU, Apple silicon and Rosetta, memory, the variables that
/// change how macOS reports itself and loads libraries, PlaidML's device.
void render_macos_section(std::ostringstream& os, const MacosInfo& m, const Style& style);

}  // namespace gpudoctor
