#include "host/kernel_log_probe.hpp"

#include <cerrno>
#include <cstring>
#include <string>

#include "parse/kernel_log.hpp"
#include "paste/kernel_log.hpp"
#include "text.hpp"

#if defined(__linux__)
#include <fcntl.h>
#include <unistd.h>
#endif

namespace gpudoctor {

namespace {

/// At most this much of a log is read: its end, where the running boot is.
constexpr std::size_t kMaxLogBytes = 8u << 20;

struct LogFile {
  const char* path;
  KernelLogLayout layout;
};
// Debian and Ubuntu keep the kernel's lines in kern.log and the boot's in dmesg; Red Hat's
// family and others only in messages; syslog has every facility.
constexpr LogFile kLogFiles[] = {{"/var/log/kern.log", KernelLogLayout::kernel},
                                 {"/var/log/dmesg", KernelLogLayout::kernel},
                                 {"/var/log/messages", KernelLogLayout::syslog},
                                 {"/var/log/syslog", KernelLogLayout::syslog}};

#if defined(__linux__)
/// /dev/kmsg's records of the running boot, one message per line; nullopt with `why` when it
/// cannot be opened. Opened non-blocking: a read past the last record ends the walk.
std::optional<std::string> read_kmsg(std::string& why) {
  const int fd = ::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    why = errno == EPERM || errno == EACCES
              ? "/dev/kmsg: " + std::string(std::strerror(errno)) +
                    " (kernel.dmesg_restrict: only root reads the kernel's log)"
              : "/dev/kmsg: " + std::string(std::strerror(errno));
    return std::nullopt;
  }
  std::string text;
  char record[8192];
  for (std::size_t records = 0; text.size() < kMaxLogBytes && records < 1000000; ++records) {
    const ssize_t n = ::read(fd, record, sizeof record);
    if (n < 0 && (errno == EINTR || errno == EPIPE)) continue;  // EPIPE: a record overwritten
    if (n <= 0) break;                                          // EAGAIN: no more records
    const std::string_view msg = kmsg_message(std::string_view(record, static_cast<std::size_t>(n)));
    text.append(msg);
    text.push_back('\n');
  }
  ::close(fd);
  return text;
}
#endif

}  // namespace

KernelLogRead probe_kernel_log(const ProbeContext& ctx, std::vector<Symptom>& symptoms) {
  KernelLogRead out;
  // The log that could be read: its symptoms join the snapshot's.
  auto take = [&](const std::string& text, KernelLogLayout layout, std::string source) {
    out.source = std::move(source);
    for (auto& s : kernel_log_symptoms(text, layout, *out.source, &out.gpu_lines)) {
      symptoms.push_back(std::move(s));
    }
    return out;
  };
  std::vector<std::string> tried;
#if defined(__linux__)
  if (ctx.live && ctx.root.is_host()) {
    std::string why;
    if (auto text = read_kmsg(why)) return take(*text, KernelLogLayout::kernel, "/dev/kmsg");
    tried.push_back(why);
  }
#endif
  for (const LogFile& f : kLogFiles) {
    FileText file = ctx.root.read_tail(f.path, kMaxLogBytes);
    if (file.text) return take(*file.text, f.layout, f.path);
    if (file.error != std::strerror(ENOENT)) tried.push_back(std::string(f.path) + ": " + file.error);
  }
  if (tried.empty()) {
    out.error = ctx.live ? "none of /var/log/kern.log, dmesg, messages or syslog exists (journald keeps "
                           "the log only in its journal: journalctl -k -b)"
                         : "no /var/log/kern.log, dmesg, messages or syslog under the root";
  } else {
    out.error = join(tried, "; ");
  }
  return out;
}

}  // namespace gpudoctor
