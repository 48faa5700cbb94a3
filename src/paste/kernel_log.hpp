#pragma once
// A machine's own kernel log read by the knowledge that reads pasted text: what the GPU
// drivers and the module loader said during the running boot becomes the same symptoms a
// pasted dmesg gives (an NVRM API mismatch, Secure Boot refusing a module, firmware that did
// not load, Xid events), each marked with the log it came from.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/symptom.hpp"

namespace gpudoctor {

/// How the log's lines are laid out.
enum class KernelLogLayout {
  kernel,  ///< every line is the kernel's: dmesg, /var/log/dmesg, kern.log, /dev/kmsg messages
  syslog,  ///< every program's lines: only those marked "kernel:" are read
};

/// At most this many GPU lines of a log are read (the last ones: the newest events).
constexpr std::size_t kKernelLogMaxLines = 20000;

/// The symptoms of a program's own log, read by the knowledge that reads pasted text: the newest
/// `max_lines` lines of `log` (already cut to the part that matters) that `keep` accepts. Each
/// symptom carries values[`key`] = `source` (the file it was read from); `lines_read` gets how
/// many lines were read.
std::vector<Symptom> log_symptoms(std::string_view log,
                                  const std::function<bool(std::string_view)>& keep,
                                  std::size_t max_lines, const std::string& key,
                                  const std::string& source, std::size_t* lines_read = nullptr);

/// The symptoms in the running boot's GPU lines of `log`; each carries values["kernel_log"] =
/// `source` (the file it was read from). `lines_read` gets how many lines were read.
std::vector<Symptom> kernel_log_symptoms(std::string_view log, KernelLogLayout layout,
                                         const std::string& source, std::size_t* lines_read = nullptr);

}  // namespace gpudoctor
