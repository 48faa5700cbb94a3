#pragma once
#include "render/style.hpp"

namespace gpudoctor {

/// The style for standard output: Style::for_stream, with the width the terminal reports
/// (TIOCGWINSZ) when it reports one.
Style stdout_style(ColorMode mode, const Environment& env);

}  // namespace gpudoctor
