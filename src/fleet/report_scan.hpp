#pragma once
// Reading what summary needs of a report, fast: one pass checks that the whole text is JSON
// (RFC 8259: structure, strings, escapes, UTF-8, numbers) and notes where the top-level
// "brief" value lies, without building a document; only that value (about 1 KB) is parsed.
// A full report of about 46 KB is mostly a snapshot that summary never reads.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "fleet/brief.hpp"

namespace gpudoctor {

/// What one pass over a JSON document found at its top level.
struct TopLevel {
  std::size_t end = 0;  ///< where the document ends (for a stream of several)
  bool is_object = false;
  std::string_view kind;      ///< the "kind" string as written (no escapes decoded)
  std::string_view brief;     ///< the text of the "brief" value, when there is one
  bool has_snapshot = false;  ///< a "snapshot" key (report, query --json, check --json)
};

/// Scans one JSON value starting at text[0] (after blanks). Nesting deeper than 512 is refused,
/// as is anything that is not JSON; the reason names the byte offset.
std::variant<TopLevel, std::string> scan_json(std::string_view text);

/// The documents of a stream of JSON texts separated by blanks (`report --brief` of many
/// nodes piped together), or why the stream breaks off; documents before the break are kept.
struct Documents {
  std::vector<std::string_view> texts;
  std::optional<std::string> error;
};
Documents split_documents(std::string_view stream);

/// The brief record of a report, a brief record, or (slowly, for reports that carry none) one
/// made from the snapshot and findings of any JSON gpudoctor writes; or why it cannot be read.
std::variant<Brief, std::string> read_brief(std::string_view text);

}  // namespace gpudoctor
