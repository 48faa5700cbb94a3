#include "file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#if defined(__linux__)
#include <sys/vfs.h>
#endif
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "render/terminal_text.hpp"
#include "terminal.hpp"

namespace gpudoctor {

namespace {

/// Which of 0, 1, 2 were closed when gpudoctor started.
std::array<bool, 3> g_closed{};

std::string errno_text(int err) { return std::strerror(err); }

bool write_all(int fd, std::string_view text, int& err) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      err = n < 0 ? errno : EIO;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

/// "a FIFO", "a character device", … for a file that is not a regular one.
std::string kind_text(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

/// A pipe the shell handed over by name (`<(…)` is /dev/fd/63): it lives in pipefs, unlike a
/// named FIFO in a directory, which may have no writer and would block its reader forever.
#if defined(__linux__)
bool anonymous_pipe(const std::string& path) {
  constexpr long kPipefsMagic = 0x50495045;  // linux/magic.h PIPEFS_MAGIC
  struct statfs fs {};
  return ::statfs(path.c_str(), &fs) == 0 && static_cast<long>(fs.f_type) == kPipefsMagic;
}
#else
bool anonymous_pipe(const std::string&) { return false; }
#endif

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/// Standard output is this very file (the path is /dev/stdout, /proc/self/fd/1, or the file
/// the shell redirected it to).
bool is_stdout(const struct stat& st) {
  struct stat out {};
  return !g_closed[1] && ::fstat(STDOUT_FILENO, &out) == 0 && same_file(st, out);
}

std::string parent_dir(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// A descriptor closed when it goes out of scope.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  Fd& operator=(Fd&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_ = -1;
};

/// Why root must not write into the directory `dir` (its `st`): an account other than root
/// could put a link where the output goes, or swap the file between a check and the write.
/// A directory such an account can write without the sticky bit (chmod o+w, or g+w for a
/// group other than root's) is one; /tmp's sticky bit lets nobody replace root's files.
std::string unsafe_for_root(const std::string& dir, const struct stat& st) {
  const bool others = (st.st_mode & S_IWOTH) != 0 || ((st.st_mode & S_IWGRP) != 0 && st.st_gid != 0);
  if (!others || (st.st_mode & S_ISVTX) != 0) return "";
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  return "its directory " + dir + " is writable by other accounts (mode " + mode +
         ") and not sticky; as root gpudoctor writes only where no other account can put a "
         "link";
}

/// Why root must not write below `dir_name`: one of its components is a symbolic link that an
/// account other than root owns (that account chose where root writes), or stands in a
/// directory such an account may change (unsafe_for_root: it could put a link there). The
/// final directory itself is checked by the caller. "" when every component is root's to
/// trust. Issue 29 §1: `-o d/sub/x.json` with d/sub a link another account made in d wrote
/// root's file wherever that link pointed.
std::string unsafe_components_for_root(const std::string& dir_name) {
  std::string prefix;
  std::size_t at = 0;
  if (!dir_name.empty() && dir_name[0] == '/') {
    prefix = "/";
    at = 1;
  } else {
    prefix = ".";
  }
  while (at < dir_name.size()) {
    std::size_t end = dir_name.find('/', at);
    if (end == std::string::npos) end = dir_name.size();
    const std::string component = dir_name.substr(at, end - at);
    at = end + 1;
    if (component.empty() || component == ".") continue;
    struct stat holder {};
    if (::stat(prefix.c_str(), &holder) == 0 && component != "..") {
      if (std::string why = unsafe_for_root(prefix, holder); !why.empty()) return why;
    }
    const std::string next = prefix == "/" ? "/" + component : prefix + "/" + component;
    struct stat own {};
    if (::lstat(next.c_str(), &own) == 0 && S_ISLNK(own.st_mode) && own.st_uid != 0) {
      return "its directory goes through " + next + ", a symbolic link of another account (uid " +
             std::to_string(own.st_uid) +
             "); as root gpudoctor follows no link another account made";
    }
    prefix = next;
  }
  return "";
}

/// Opens a new temporary file in `dir`, named after `name` (so beside the path as named,
/// never beside a link's target), with mode 0666 so that the umask (and a default ACL) applies
/// as to any new file. O_EXCL and O_NOFOLLOW: a name someone else made is never opened.
int open_temporary(int dir, const std::string& name, std::string& temp) {
  static std::atomic<unsigned> counter{0};
  const std::string stem = "." + name + ".gpudoctor-" + std::to_string(::getpid()) + "-";
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp = stem + std::to_string(counter++);
    const int fd = ::openat(dir, temp.c_str(),
                            O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

/// Writes a file's content to `fd`: false with `err` set when it could not.
using WriteBody = std::function<bool(int fd, int& err)>;

/// The JSON document `write` writes, indented by 2 and followed by a newline, made and
/// written to `fd` piece by piece.
WriteBody json_body(const std::function<void(JsonWriter&)>& write) {
  return [&write](int fd, int& err) {
    JsonWriter out([fd, &err](std::string_view piece) { return write_all(fd, piece, err); });
    write(out);
    out.raw("\n");
    return out.flush();
  };
}

/// What an output path is: refused (problem set; `for_root` when only because gpudoctor runs
/// as root), standard output, in place (a device or FIFO), or a name in `dir` to replace
/// (`old` set when a file, or a link to one, stands there).
struct OutputTarget {
  std::string problem;
  bool for_root = false;
  bool to_stdout = false;
  bool in_place = false;
  bool follow = false;  ///< in place through a link (never as root)
  mode_t mode = 0;      ///< in place: what it was when looked at
  Fd dir;
  std::string dir_name;
  std::string name;
  std::optional<struct stat> old;
};

/// Replaces the name `t.name` in `t.dir` (or creates it) with what `body` writes: a temporary
/// file beside it, renamed over it. A link standing there is replaced, never followed.
std::string replace_atomically(const std::string& path, const OutputTarget& t,
                               const WriteBody& body) {
  std::string temp;
  const int fd = open_temporary(t.dir.get(), t.name, temp);
  if (fd < 0) {
    return path + ": cannot be written (no temporary file in " + t.dir_name + ": " +
           errno_text(errno) + ")";
  }
  int err = 0;
  bool ok = true;
  if (t.old) {
    // The old file's permission bits stay: a 0600 report is not made readable by all.
    if (::fchmod(fd, t.old->st_mode & 07777) != 0) {
      ok = false;
      err = errno;
    }
    // As root, a user's report stays theirs; a failure here only leaves root as the owner.
    if (ok && ::geteuid() == 0 && (t.old->st_uid != 0 || t.old->st_gid != 0)) {
      (void)!::fchown(fd, t.old->st_uid, t.old->st_gid);
      (void)!::fchmod(fd, t.old->st_mode & 07777);  // chown clears set-id bits
    }
  }
  if (ok) ok = body(fd, err);
  if (ok && ::fsync(fd) != 0) {
    ok = false;
    err = errno;
  }
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && ::renameat(t.dir.get(), temp.c_str(), t.dir.get(), t.name.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlinkat(t.dir.get(), temp.c_str(), 0);
    return path + ": cannot be written (" + errno_text(err) + ")";
  }
  // The rename is durable once the directory is on disk too; a failure here loses nothing.
  (void)::fsync(t.dir.get());
  return "";
}

/// Writes into an existing character device or FIFO without creating or truncating anything.
std::string write_in_place(const std::string& path, const OutputTarget& t, const WriteBody& body) {
  // O_NONBLOCK: opening a FIFO that nobody reads fails (ENXIO) instead of waiting forever.
  const int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK | (t.follow ? 0 : O_NOFOLLOW);
  const int fd = ::openat(t.dir.get(), t.name.c_str(), flags);
  if (fd < 0) {
    if (errno == ENXIO && S_ISFIFO(t.mode)) return path + ": cannot be written (a FIFO nobody reads)";
    return path + ": cannot be written (" + errno_text(errno) + ")";
  }
  // What was opened is checked, not what was looked at: a regular file put there since would
  // be overwritten in place, not replaced.
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
    ::close(fd);
    return path + ": cannot be written (it changed while gpudoctor was writing it)";
  }
  const int now = ::fcntl(fd, F_GETFL);
  if (now >= 0) (void)::fcntl(fd, F_SETFL, now & ~O_NONBLOCK);
  int err = 0;
  bool ok = body(fd, err);
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  return ok ? "" : path + ": cannot be written (" + errno_text(err) + ")";
}

bool refused_kind(mode_t mode) {
  return !(S_ISREG(mode) || S_ISCHR(mode) || S_ISFIFO(mode));
}

std::string kind_problem(const std::string& path, mode_t mode) {
  return path + ": cannot be written (" + kind_text(mode) +
         "; gpudoctor writes to files, character devices and FIFOs)";
}

OutputTarget classify_output(const std::string& path) {
  OutputTarget t;
  if (path == "-") {
    t.to_stdout = true;
    return t;
  }
  // Through links, for what the path leads to: standard output, or a kind never written.
  struct stat followed {};
  const bool leads_somewhere = ::stat(path.c_str(), &followed) == 0;
  const int follow_err = errno;
  if (leads_somewhere && is_stdout(followed)) {
    t.to_stdout = true;  // written to descriptor 1: nothing is opened or replaced
    return t;
  }
  if (leads_somewhere && refused_kind(followed.st_mode)) {
    t.problem = kind_problem(path, followed.st_mode);
    return t;
  }
  if (!leads_somewhere && follow_err != ENOENT) {
    t.problem = path + ": cannot be written (" + errno_text(follow_err) + ")";
    return t;
  }
  t.dir_name = parent_dir(path);
  t.name = base_name(path);
  t.dir = Fd(::open(t.dir_name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (t.dir.get() < 0) {
    t.problem = path + ": cannot be written (its directory does not exist)";
    return t;
  }
  const bool root = ::geteuid() == 0;
  struct stat dir_st {};
  if (root && ::fstat(t.dir.get(), &dir_st) == 0) {
    std::string why = unsafe_for_root(t.dir_name, dir_st);
    if (why.empty()) why = unsafe_components_for_root(t.dir_name);
    if (!why.empty()) {
      t.problem = path + ": cannot be written (" + why + ")";
      t.for_root = true;
      return t;
    }
  }
  struct stat own {};
  if (::fstatat(t.dir.get(), t.name.c_str(), &own, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno != ENOENT) t.problem = path + ": cannot be written (" + errno_text(errno) + ")";
    return t;  // a new file
  }
  if (S_ISLNK(own.st_mode)) {
    if (root) {
      // Whoever put the link there would choose which file root replaces or writes into.
      t.problem = path +
                  ": cannot be written (a symbolic link; as root gpudoctor writes no output "
                  "through a link, which another account may have put there: name the file "
                  "itself)";
      t.for_root = true;
    } else if (!leads_somewhere) {
      t.problem = path + ": cannot be written (a symbolic link to a file that does not exist)";
    } else if (S_ISREG(followed.st_mode)) {
      t.old = followed;  // the link is replaced by the new file, keeping the content's mode
    } else {
      t.in_place = true;
      t.follow = true;
      t.mode = followed.st_mode;
    }
    return t;
  }
  if (S_ISREG(own.st_mode)) {
    t.old = own;
  } else if (S_ISCHR(own.st_mode) || S_ISFIFO(own.st_mode)) {
    t.in_place = true;
    t.mode = own.st_mode;
  } else {
    t.problem = kind_problem(path, own.st_mode);
  }
  return t;
}

}  // namespace

void guard_standard_streams() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    g_closed[static_cast<std::size_t>(fd)] = true;
    // The lowest free descriptor is `fd` itself, as those below it are open by now.
    const int opened = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (opened >= 0 && opened != fd) {
      ::dup2(opened, fd);
      ::close(opened);
    }
  }
}

std::string write_stdout(std::string_view text) {
  if (g_closed[1]) return "standard output: cannot be written (it is closed)";
  int err = 0;
  if (!write_all(STDOUT_FILENO, text, err)) {
    return "standard output: cannot be written (" + errno_text(err) + ")";
  }
  return "";
}

int emit(std::string_view text, int exit_code, bool for_people, const Style& style) {
  if (text.empty()) return exit_code;
  // For people: what a terminal would act on made visible, in ASCII where the locale is not
  // UTF-8, and no line wider than the terminal.
  std::string shown = for_people ? terminal_text(text, style) : std::string(text);
  if (for_people && style.width()) shown = fit_width(shown, *style.width());
  const std::string why = write_stdout(shown);
  if (why.empty()) return exit_code;
  print_error(why);
  return kExitIoError;
}

int emit_json(const std::function<void(JsonWriter&)>& write, int exit_code) {
  std::string why = g_closed[1] ? "standard output: cannot be written (it is closed)" : "";
  if (int err = 0; why.empty() && !json_body(write)(STDOUT_FILENO, err)) {
    why = "standard output: cannot be written (" + errno_text(err) + ")";
  }
  if (why.empty()) return exit_code;
  print_error(why);
  return kExitIoError;
}

void print_error(std::string_view message) {
  std::string line = "gpudoctor: " + terminal_text(message, Style::plain(), true);
  // At a terminal, wrapped at its width like standard output (continuation lines indented).
  if (::isatty(STDERR_FILENO) != 0) {
    if (const auto columns = terminal_columns(STDERR_FILENO)) {
      line = Style::plain().with_width(*columns).fill(line, 0, 2);
    }
  }
  write_stderr(line + "\n");
}

void write_stderr(std::string_view text) {
  if (g_closed[2] || text.empty()) return;
  int err = 0;
  // Nowhere is left to say that this failed.
  (void)write_all(STDERR_FILENO, terminal_text(text, Style::plain()), err);
}

InputFile::InputFile(InputFile&& other) noexcept
    : fd_(other.fd_), owned_(other.owned_), name_(std::move(other.name_)) {
  other.owned_ = false;
}

InputFile::~InputFile() {
  if (owned_) ::close(fd_);
}

JsonPull::Refill InputFile::refill() {
  return [fd = fd_](char* buf, std::size_t size) -> std::size_t {
    for (;;) {
      const ssize_t n = ::read(fd, buf, size);
      if (n >= 0) return static_cast<std::size_t>(n);
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        throw JsonSyntaxError("cannot be read (it has nothing to read now; give - for "
                              "standard input)");
      }
      throw JsonSyntaxError("cannot be read (" + errno_text(errno) + ")");
    }
  };
}

std::optional<std::string> InputFile::read_all(std::uint64_t max_bytes, std::string& why) {
  std::string text;
  char buf[64 * 1024];
  const auto read = refill();
  try {
    for (std::size_t n; (n = read(buf, sizeof buf)) > 0;) {
      if (text.size() + n > max_bytes) {
        why = name_ + ": cannot be read (larger than " + mib(max_bytes) + ")";
        return std::nullopt;
      }
      text.append(buf, n);
    }
  } catch (const JsonSyntaxError& e) {
    why = name_ + ": " + e.what();
    return std::nullopt;
  }
  return text;
}

std::variant<InputFile, std::string> open_input(const std::string& path, std::uint64_t max_bytes) {
  if (path == "-") {
    if (g_closed[0]) return std::string("standard input: cannot be read (it is closed)");
    struct stat st {};
    if (::fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode) &&
        static_cast<std::uint64_t>(st.st_size) > max_bytes) {
      return "standard input: cannot be read (larger than " + mib(max_bytes) + ")";
    }
    return InputFile(STDIN_FILENO, false, "standard input");
  }
  // Looked at before opening: opening a device can act on it (a tape rewinds, a watchdog
  // starts), and opening a FIFO for reading can wait for a writer.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return path + ": cannot be read (" + errno_text(errno) + ")";
  if (S_ISDIR(st.st_mode)) return path + ": cannot be read (a directory, not a file)";
  const bool handed_pipe = anonymous_pipe(path);
  if (!S_ISREG(st.st_mode) && !handed_pipe) {
    return path + ": cannot be read (" + kind_text(st.st_mode) +
           ", not a regular file; give - to read standard input)";
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return path + ": cannot be read (" + errno_text(errno) + ")";
  InputFile file(fd, true, path);
  // Checked again on what was opened: the path may have changed in between.
  if (::fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || (handed_pipe && S_ISFIFO(st.st_mode)))) {
    return path + ": cannot be read (not a regular file)";
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    return path + ": cannot be read (larger than " + mib(max_bytes) + ")";
  }
  return file;
}

std::string output_problem(const std::string& path) { return classify_output(path).problem; }

namespace {

/// Which file a path is, for telling two paths apart: its device and inode when it exists,
/// else its absolute path with its directory resolved through links. Empty when it is no
/// file that one command could both write and read (standard streams, devices, FIFOs).
std::optional<std::string> file_identity(const std::string& path) {
  if (path == "-") return std::nullopt;
  std::error_code ec;
  const std::filesystem::path normal = std::filesystem::absolute(path, ec).lexically_normal();
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 || ::stat(normal.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return std::nullopt;
    return "inode " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  }
  const std::filesystem::path dir = std::filesystem::weakly_canonical(normal.parent_path(), ec);
  return "path " + (ec ? normal : dir / normal.filename()).string();
}

}  // namespace

std::string io_conflict(const std::vector<NamedPath>& outputs,
                        const std::vector<NamedPath>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto id = file_identity(outputs[i].path);
    if (!id) continue;
    for (const auto& in : inputs) {
      if (file_identity(in.path) == id) {
        return outputs[i].option + " " + outputs[i].path + " is also the input " + in.option +
               " " + in.path + ": writing it would replace what is read; write elsewhere";
      }
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (file_identity(outputs[j].path) == id) {
        return outputs[j].option + " " + outputs[j].path + " and " + outputs[i].option + " " +
               outputs[i].path + " are the same file: one would replace the other";
      }
    }
  }
  for (const auto& out : outputs) {
    const OutputTarget t = classify_output(out.path);
    if (t.for_root) return out.option + " " + t.problem;
  }
  return "";
}

namespace {

std::string write_output_body(const std::string& path, const WriteBody& body) {
  OutputTarget t = classify_output(path);
  if (!t.problem.empty()) return t.problem;
  if (t.to_stdout) {
    if (g_closed[1]) return path + ": standard output: cannot be written (it is closed)";
    int err = 0;
    if (body(STDOUT_FILENO, err)) return "";
    return path + ": standard output: cannot be written (" + errno_text(err) + ")";
  }
  if (t.in_place) return write_in_place(path, t, body);
  return replace_atomically(path, t, body);
}

}  // namespace

std::string write_output(const std::string& path, std::string_view text) {
  return write_output_body(path, [text](int fd, int& err) { return write_all(fd, text, err); });
}

std::string write_output_json(const std::string& path,
                              const std::function<void(JsonWriter&)>& write) {
  return write_output_body(path, json_body(write));
}

}  // namespace gpudoctor
