#pragma once
// The kernel's log as a machine keeps it: /dev/kmsg's records, /var/log/kern.log and
// /var/log/dmesg (Debian, Ubuntu), /var/log/messages and /var/log/syslog (every facility, the
// kernel's lines marked "kernel:"). Only the lines of the running boot say anything about the
// machine as it is, and only the GPU drivers' and the module loader's lines are wanted; the
// messages they carry are read by the same knowledge as pasted text (paste/kernel_log.hpp).
#include <string>
#include <string_view>

namespace gpudoctor {

/// The message of one /dev/kmsg record ("6,1234,5678901,-;NVRM: …\n SUBSYSTEM=pci\n"): the text
/// after the first ';' up to the newline, its escapes (\x0a) as written. Empty when the record
/// has no ';'.
std::string_view kmsg_message(std::string_view record);

/// The lines of the last boot in a log that may hold several: from the last line where the
/// kernel starts ("Linux version …", "Command line:"), else all of it (a log rotated after the
/// boot holds only this boot's lines).
std::string_view current_boot(std::string_view log);

/// Whether a line of a syslog file (/var/log/messages, /var/log/syslog) is the kernel's: its
/// program is "kernel:".
bool is_kernel_line(std::string_view line);

/// Whether a kernel line is one the GPU knowledge reads: the GPU drivers' (NVRM, nvidia,
/// nouveau, amdgpu, radeon, kfd, i915, xe), the module loader's and lockdown's refusals, and
/// firmware loads. A pure filter: a line it keeps is still only a line.
bool is_gpu_kernel_line(std::string_view line);

}  // namespace gpudoctor
