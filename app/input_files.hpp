#pragma once
// The files commands read: reports (any JSON gpudoctor writes), brief records, and text pasted
// from a ticket, from a regular file or standard input ("-"), each with a size cap.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "model/snapshot.hpp"
#include "snapshot_io.hpp"

namespace gpudoctor {

/// Over five times the largest report measured (45 MB); a larger input is refused, not read,
/// so memory stays bounded whatever is given (a 2 GB file, /dev/zero on standard input).
inline constexpr std::uint64_t kMaxReportBytes = std::uint64_t{256} << 20;

/// Any JSON gpudoctor writes (query/check --json, report), read back as a snapshot, streamed
/// with a size cap; or a one-line reason naming the file.
std::variant<Snapshot, std::string> read_snapshot_file(const std::string& path);

/// The file's bytes; nullopt, with `why` naming the file and the reason, when it has none.
std::optional<std::string> read_text_file(const std::string& path, std::string& why);

/// Text that is no report: what a person pasted.
struct PastedText {
  std::string text;
};

/// What `--from` names: a report or brief record, else pasted text; or a one-line reason
/// (empty or binary input, a JSON document that is no report, a file that cannot be read).
std::variant<RecordedMachine, PastedText, std::string> read_from(const std::string& path);

}  // namespace gpudoctor
