#pragma once
// Text from outside (driver strings, file names, os-release, environment values, every string
// of a shared report) reaches a terminal only through here: what a terminal would act on is
// made visible instead. The text renderers return their whole output and the app passes it
// through terminal_text once, so no call site has to remember.
#include <string>
#include <string_view>

#include "render/style.hpp"

namespace gpudoctor {

/// `text` with every C0 control but newline and tab, DEL, every C1 control (U+0080–U+009F),
/// the bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) and the
/// line and paragraph separators shown as escapes ("\x1b", "\r", "\u202e"), and each byte that
/// is not UTF-8 as "\xNN". The escape sequences `style` itself wrote are kept: they carry its
/// private key, which no outside string can know (Style). `one_line` also shows newlines and
/// tabs as "\n" and "\t".
/// When `style` is not Unicode (a locale that is not UTF-8), every code point above ASCII is
/// also written as ascii_fallback writes it.
std::string terminal_text(std::string_view text, const Style& style, bool one_line = false);

/// `text` in ASCII for a terminal whose locale is not UTF-8: gpudoctor's own glyphs as their
/// ASCII forms (✓ +, ✗ x, • -, … ..., · -, → ->, ← <-, × x, – -, — --, ≥ >=, ≤ <=, µ u, ° deg,
/// quotes, box rules), any other code point above ASCII as "?". Bytes that are not UTF-8 are
/// left for terminal_text to escape.
std::string ascii_fallback(std::string_view text);

/// A field that is one line by nature (a device name from a driver or a shared report, a
/// finding's title, a probe's detail) as text renderers put it on a line: every control
/// character, newlines and tabs included, and every hidden code point shown as an escape, so
/// that no field can end its line and forge another ("0 failures"). The one sanitiser for
/// such fields; the renderer's whole output still passes through terminal_text.
std::string single_line(std::string_view field);

/// Text as terminal_text wrote it, with every line wider than `width` columns broken so that
/// none is: at spaces where it can be, inside a word (a path, a URL) where it cannot; the
/// continuation lines are indented under the line's value column (after its label's two
/// spaces) or its own indent. Colour sequences ("\x1b[…m") take no column.
std::string fit_width(std::string_view text, std::size_t width);

}  // namespace gpudoctor
