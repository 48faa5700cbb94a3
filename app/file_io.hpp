#pragma once
// The one place the commands read their input files and write anything: inputs only from
// regular files (or standard input, named "-") and never more than a cap; outputs to a regular
// file written atomically with its old mode kept, to a device or FIFO in place, never
// replacing one; every write to standard output and standard error checked, and text for
// people passed through terminal_text on its way.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "json_pull.hpp"
#include "json_writer.hpp"
#include "render/style.hpp"

namespace gpudoctor {

/// The exit status when output cannot be written (a file, standard output): EX_IOERR, as
/// kExitOutput in cli.hpp; input that cannot be read is exit 2.
inline constexpr int kExitIoError = 74;

/// Call first in main: descriptors 0, 1 and 2 that were closed are opened on /dev/null, so no
/// file opened later takes their number (and receives what was meant for the terminal), and
/// writing to a standard output that was closed (`gpudoctor check >&-`) fails instead of
/// vanishing.
void guard_standard_streams();

/// All of `text` on standard output: "" on success, else the one-line reason.
std::string write_stdout(std::string_view text);

/// Writes `text` to standard output (through terminal_text with `style` when `for_people`) and
/// returns `exit_code`; when it cannot be written, says why on standard error and returns
/// kExitIoError.
int emit(std::string_view text, int exit_code, bool for_people, const Style& style);

/// The JSON document `write` writes, indented by 2 and followed by a newline, streamed to
/// standard output as it is made (no DOM, no whole text in memory); `exit_code`, or
/// kExitIoError (said on standard error) when it cannot be written.
int emit_json(const std::function<void(JsonWriter&)>& write, int exit_code);

/// "gpudoctor: MESSAGE" as one line on standard error, control characters made visible.
void print_error(std::string_view message);

/// Text as it is (lines of CLI usage errors) on standard error, control characters but newlines
/// made visible.
void write_stderr(std::string_view text);

/// An input opened for reading: a regular file, or standard input for "-".
class InputFile {
 public:
  InputFile(int fd, bool owned, std::string name) : fd_(fd), owned_(owned), name_(std::move(name)) {}
  InputFile(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  InputFile& operator=(InputFile&&) = delete;
  ~InputFile();

  /// A JsonPull::Refill over the file: reads as the parser asks, and turns a read error into a
  /// JsonSyntaxError saying "cannot be read (…)".
  JsonPull::Refill refill();
  /// The whole content, at most `max_bytes`; nullopt with `why` set when it is larger or
  /// cannot be read.
  std::optional<std::string> read_all(std::uint64_t max_bytes, std::string& why);

 private:
  int fd_;
  bool owned_;
  std::string name_;
};

/// Opens `path` ("-": standard input) for reading: only a regular file or a pipe the shell
/// handed over by name (`<(…)`), refused with its kind otherwise (a named FIFO, a device, a
/// socket or a directory: reading one could block forever or never end), and refused when
/// larger than `max_bytes`. The reason names the path.
std::variant<InputFile, std::string> open_input(const std::string& path, std::uint64_t max_bytes);

/// Why `path` cannot take output (a directory, a block device, a socket, a missing directory),
/// or "" when it can. Lets a long command (bench --plot) refuse before it starts.
std::string output_problem(const std::string& path);

/// A path a command reads or writes, with the option that names it ("-o", "--from", "diff").
struct NamedPath {
  std::string option;
  std::string path;
};

/// Why a command must not start (a usage error, exit 2), or "", checked before anything is
/// read or written: an output that is also an input (`check --from r.json --prometheus
/// r.json` would replace the report with metrics) or another output (`-o X --html X` loses
/// one), compared by device and inode where the file exists and by normalised path where it
/// does not; or, running as root, an output that is a symbolic link or whose directory other
/// accounts can write without the sticky bit. "-", devices and FIFOs are not files and never
/// clash.
std::string io_conflict(const std::vector<NamedPath>& outputs,
                        const std::vector<NamedPath>& inputs);

/// Writes `text` to `path`, returning "" or the one-line reason naming the path:
/// - "-" is standard output, and so is any path that is the file standard output already is
///   (/dev/stdout, /proc/self/fd/1);
/// - an existing character device or FIFO (/dev/null, a named pipe with a reader) is written
///   in place, opened without creating or truncating anything; a FIFO without a reader is
///   refused rather than waited on;
/// - a block device, a socket or a directory is refused;
/// - a regular file is replaced atomically: a temporary file beside the path as named
///   (O_EXCL, O_NOFOLLOW, in the directory opened once), fsync, rename over the name, keeping
///   the old file's permission bits (and owner, when running as root); a new file gets 0666
///   less the umask. A link to a regular file is itself replaced, never followed: the file
///   it named is left as it was. As root, a link, or a directory other accounts can write
///   without the sticky bit, is refused.
std::string write_output(const std::string& path, std::string_view text);

/// write_output of the JSON document `write` writes (indented by 2, a newline after it),
/// written piece by piece as it is made: a large report never stands whole in memory.
std::string write_output_json(const std::string& path,
                              const std::function<void(JsonWriter&)>& write);

}  // namespace gpudoctor
