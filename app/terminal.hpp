#pragma once
#include <cstddef>
#include <optional>

#include "render/style.hpp"

namespace gpudoctor {

/// The style for standard output: Style::for_stream, with the width the terminal reports
/// (TIOCGWINSZ) when it reports one.
Style stdout_style(ColorMode mode, const Environment& env);

/// The columns of the terminal on `fd`, as it reports them (TIOCGWINSZ); nullopt when `fd` is
/// no terminal or it reports none.
std::optional<std::size_t> terminal_columns(int fd);

}  // namespace gpudoctor
