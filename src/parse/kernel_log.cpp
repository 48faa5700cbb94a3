#include "parse/kernel_log.hpp"

#include <array>

#include "text.hpp"

namespace gpudoctor {

std::string_view kmsg_message(std::string_view record) {
  const auto semi = record.find(';');
  if (semi == std::string_view::npos) return {};
  std::string_view msg = record.substr(semi + 1);
  const auto nl = msg.find('\n');
  if (nl != std::string_view::npos) msg = msg.substr(0, nl);
  return msg;
}

std::string_view current_boot(std::string_view log) {
  // The kernel's first lines of a boot; the last one in the log starts the running boot.
  constexpr std::array<std::string_view, 2> kBootStarts = {"] Linux version ", "kernel: Linux version "};
  std::size_t start = std::string_view::npos;
  for (const auto marker : kBootStarts) {
    const auto at = log.rfind(marker);
    if (at != std::string_view::npos && (start == std::string_view::npos || at > start)) start = at;
  }
  if (start == std::string_view::npos) {
    // /dev/kmsg's messages carry no timestamp bracket: "Linux version" opens the line.
    const auto at = log.rfind("\nLinux version ");
    if (at != std::string_view::npos) start = at + 1;
    else if (starts_with(log, "Linux version ")) start = 0;
  }
  if (start == std::string_view::npos) return log;
  const auto line_start = log.rfind('\n', start);
  return log.substr(line_start == std::string_view::npos ? 0 : line_start + 1);
}

bool is_kernel_line(std::string_view line) {
  // "Nov 29 04:50:22 host kernel: [   12.3] NVRM: …", or ISO timestamps (rsyslog's high
  // precision format): the program field is "kernel:", and it ends the first ": " of the line
  // (a timestamp's colons are followed by digits), so a program quoting the kernel is not it.
  const auto first = line.find(": ");
  return first != std::string_view::npos && first >= 7 && line.substr(first - 7, 7) == " kernel";
}

bool is_gpu_kernel_line(std::string_view line) {
  // Words as the drivers print them; case matters (the drivers' own prefixes), which keeps
  // ordinary words ("external") out.
  constexpr std::array<std::string_view, 16> kWords = {
      "NVRM", "nvidia", "nouveau", "amdgpu", "radeon", "kfd", "i915", "xe 0000:",
      "Lockdown", "modprobe", "firmware", "Xid", "module verification", "Key was rejected",
      "PCI I/O region", "fallen off the bus"};
  for (const auto w : kWords) {
    if (line.find(w) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace gpudoctor
