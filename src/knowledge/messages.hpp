#pragma once
// Messages programs print that name a cause, as data: data/messages/*.json (schema in its
// README), compiled into the binary like data/compat. An entry says which lines are the message
// (regular expressions with named captures), what it names (the captures become the Symptom's
// values) and, where the message alone is enough, the finding it yields. Pure code: the files
// come in as text, nothing is read from disk here.
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// How a capture's text becomes a value: as matched (trimmed), or its leading dotted number
/// ("11040)" -> "11040", "12.1.105 (nvcc)" -> "12.1.105").
enum class CaptureKind { kText, kVersion };

/// A real line from a public ticket: the entry's test.
struct MessageExample {
  std::string text;  ///< the line as posted; several lines ("\n") where the message needs them
  std::string url;   ///< the thread it was copied from
  std::map<std::string, std::string> values;  ///< captures it must yield (those listed)
};

/// The finding a message yields by itself; {name} in the title and fix is a capture's value.
struct MessageFinding {
  std::string id;                     ///< "cuda.driver_too_old"
  std::optional<std::string> area;    ///< default: the id's prefix
  std::string severity;               ///< "fail", "warn" or "info" (docs/severity.md)
  std::string title;
  std::string fix;
  std::optional<std::string> source;  ///< the document behind the fix; none: the message itself
};

/// One pattern, compiled: std::regex has no named groups, so "(?<name>" is rewritten to "(" and
/// the group numbers kept; `literal` is a run of text every match contains, tested first.
struct CompiledPattern {
  std::regex re;
  std::vector<std::string> group_names;  ///< [k] names group k+1; "" for an unnamed group
  std::string literal;
};

/// An entry whose capture is an error code of a vendor API: the code's name or number is looked up
/// in the code tables (the first API in order that has it), and its name, number, meaning and
/// usual cause become values the finding's templates can use ({code_name}, {code_number},
/// {meaning}, {cause}); a code row that names a finding id gives the finding that id.
struct ErrorCodeRef {
  std::vector<std::string> apis;  ///< "cuda_runtime", "cuda_driver", …, tried in order
  std::string capture;            ///< the capture holding the name or the number
};

/// The values an error-code entry adds to its captures.
inline const char* const kErrorCodeValues[] = {"code_name", "code_number", "meaning", "cause"};

struct MessageEntry {
  std::string file;    ///< "torch.json"
  std::string id;      ///< the Symptom's id: "torch.driver_too_old"
  std::string tool;    ///< who prints it: "torch", "dmesg", …
  std::string format = "messages";  ///< the paste part its line counts for ("kernel log", …)
  std::vector<std::string> patterns;
  bool icase = false;
  std::map<std::string, CaptureKind> captures;
  /// cuInit's CUresult the message stands for: a number ("999") or "{name}" of a capture that
  /// holds the CUresult's name.
  std::optional<std::string> cuda_init_error;
  /// Where code recognises the message (multi-line or stateful): the file. With patterns too,
  /// the patterns cover other wordings of the same symptom.
  std::optional<std::string> read_by;
  /// Tried only after every other entry of its format missed (a generic wording such as
  /// "CUDA error 803" that a specific entry may word better).
  bool fallback = false;
  std::optional<ErrorCodeRef> error_code;
  std::optional<MessageFinding> finding;
  std::string source;  ///< where the message's text is stated (the program's source, its docs)
  std::vector<MessageExample> examples;
  std::vector<CompiledPattern> compiled;
};

/// One error code of a vendor API (cudaError_t, CUresult, hipError_t, ze_result_t).
struct ErrorCode {
  std::string api;   ///< "cuda_runtime", "cuda_driver", "hip", "level_zero"
  long long code = 0;
  std::string name;  ///< "cudaErrorInsufficientDriver"
  std::string meaning;
  std::optional<std::string> cause;  ///< the usual cause, where a thread or the docs state one
  std::string source;
  /// The finding an error-code message of this code yields instead of its entry's (the id
  /// another check gives the same cause: 803 is nvidia.driver_library_mismatch), and its
  /// severity; none: the entry's.
  std::optional<std::string> finding;
  std::optional<std::string> severity;
};

struct MessageTable {
  std::vector<MessageEntry> entries;  ///< files in name order, entries in file order
  std::vector<ErrorCode> codes;
};

struct MessageLoad {
  MessageTable table;
  std::vector<std::string> errors;  ///< "torch.json: entries[3] (torch.x): …"; empty when all is well
};

/// Parses data/messages files ({"schema": 1, "title", "entries": [...]} or
/// {"schema": 1, "title", "codes": [...]}) and validates them as data/compat is validated.
MessageLoad load_messages(const std::map<std::string, std::string_view>& files);

/// The files of data/messages as compiled into this binary.
const std::map<std::string, std::string_view>& embedded_message_files();

/// load_messages(embedded_message_files()), once. The tests keep its errors empty.
const MessageTable& builtin_messages();

/// The entry of this symptom id, or nullptr.
const MessageEntry* message_entry(const MessageTable& table, std::string_view id);

/// The code `name` of `api`, or nullptr.
const ErrorCode* error_code_named(const MessageTable& table, std::string_view api,
                                  std::string_view name);
const ErrorCode* error_code(const MessageTable& table, std::string_view api, long long code);

/// A line as patterns see it: ANSI colour codes taken off, trimmed.
std::string normalise_message_line(std::string_view line);

struct MessageMatch {
  const MessageEntry* entry = nullptr;
  std::map<std::string, std::string> values;  ///< every declared capture; "" where it did not match
  std::size_t lines = 1;  ///< 2 when the message was wrapped onto the next line
};

/// The first entry of `format` (in table order) whose pattern matches `line`, or `line` joined
/// with `next` where the match runs over the line break (a terminal's wrap). Entries without
/// patterns (read by code alone) are skipped.
std::optional<MessageMatch> match_message(const MessageTable& table, std::string_view format,
                                          std::string_view line, std::string_view next = {});

/// For an error-code entry: the code its capture names (by name or number, the entry's APIs in
/// order), or nullptr.
const ErrorCode* code_of_match(const MessageTable& table, const MessageEntry& entry,
                               const std::map<std::string, std::string>& values);

/// The values an error-code message adds to what it captured (code_name, code_number, meaning,
/// cause, code_api; code_finding and code_severity where the code's row names a finding), so
/// every reader of pasted text and of the kernel log words the code the same way. False where
/// the entry has no code or the table does not list it.
bool add_code_values(const MessageTable& table, const MessageEntry& entry,
                     std::map<std::string, std::string>& values);

/// `text` with every {name} replaced by values[name].
std::string fill_template(std::string_view text, const std::map<std::string, std::string>& values);

}  // namespace gpudoctor
