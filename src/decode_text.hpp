#pragma once
// Text people hand gpudoctor (a report, a dump pasted from a ticket, a dmesg) as whatever made
// it: PowerShell's `>` writes UTF-16 with a byte-order mark, Notepad puts a UTF-8 one first,
// Windows ends lines with CRLF and old Mac tools with a lone CR, and a copy from a terminal can
// carry a stray NUL. Every reader of such input (check --from, diff, summary) decodes it here
// first and decides what it is by parsing, never by its first byte.
#include <optional>
#include <string>
#include <string_view>

#include "model/snapshot.hpp"

namespace gpudoctor {

struct DecodedText {
  std::string text;      ///< UTF-8, a UTF-8 BOM dropped, lines ended by LF, lone NULs dropped
  bool binary = false;   ///< not text: NULs or control bytes at a binary file's density
  std::string encoding;  ///< "UTF-8", "UTF-16LE" or "UTF-16BE" (only from a byte-order mark)
  bool changed = false;  ///< `text` differs from the bytes given
};

/// `bytes` as text: UTF-16 (LE or BE, told by its byte-order mark) converted to UTF-8, with
/// U+FFFD for a lone surrogate or an odd last byte; a UTF-8 byte-order mark dropped; CRLF and
/// lone CR made LF; isolated NUL bytes dropped. `binary` when more NULs than one in 4 KiB (at
/// least two), or more than one byte in 16 a control character no text holds (0x01–0x08,
/// 0x0E–0x1A, 0x1C–0x1F) or a byte that is not UTF-8: an executable, /dev/zero, a core dump.
/// Bytes that are not UTF-8 in text that is otherwise text stay as they are.
DecodedText decode_text(std::string_view bytes);

/// Whether `text` is one JSON document (RFC 8259, white space around it allowed): what a
/// reader of user input asks of text that did not read as a report, before it reads it as a
/// paste. Non-recursive (nlohmann's SAX parser keeps its own stack).
bool is_json_document(std::string_view text);

/// Whether `text` is JSON that ends before its document does (a report cut off by a full disk
/// or a pasting limit): its error is at its end. Such text is a broken report, not a paste.
bool is_json_cut_short(std::string_view text);

/// What input that did not read as a report is, after decode_text.
enum class InputKind {
  json,    ///< a JSON document (or one cut short): not a report (say the report's problem),
           ///< or, when the decoding changed it (UTF-16, a BOM), a report to read again
  text,    ///< a paste: read `text` with read_pasted
  binary,  ///< neither: say the report's problem ("not JSON")
};

struct UserInput {
  InputKind kind = InputKind::binary;
  DecodedText decoded;
};

/// decode_text, then is_json_document and is_json_cut_short on what came out (blank text is
/// binary: nothing to read).
UserInput classify_user_input(std::string_view bytes);

/// What input is, given its bytes, when they did not read as a report (`problem`, which names
/// the input already): exactly one of a snapshot (a report the decoding made readable: UTF-16,
/// a UTF-8 BOM), text to read as a paste (decoded), or `problem` (JSON that is no report,
/// binary, blank; or what the decoded report's reading said, named by `name`).
struct NotAReport {
  std::optional<Snapshot> snapshot;
  std::optional<std::string> paste;
  std::string problem;
};
NotAReport read_not_a_report(std::string_view bytes, const std::string& name,
                             const std::string& problem);

}  // namespace gpudoctor
