// What `nvcc --version`, `/proc/version` and `uname -a` print, whole or a piece of it inside a
// sentence ("3. Kernel version: Linux version 5.10.16.3-microsoft-standard-WSL2"), and the
// prompt line that ran them. WSL's kernels say "microsoft" in their release: WSL 2's
// "…-microsoft-standard-WSL2" (https://github.com/microsoft/WSL2-Linux-Kernel, its config's
// CONFIG_LOCALVERSION), WSL 1's "4.4.0-19041-Microsoft" (the Windows build as the release;
// https://github.com/microsoft/WSL/issues/5554, a maintainer: "That kernel version indicates that
// you are using WSL1").
#include <regex>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_system_strings = "nvcc --version, /proc/version, uname -a";

/// The lines nvcc --version prints around its release line.
bool strings_nvcc_banner(std::string_view t) {
  return starts_with(t, "nvcc: NVIDIA (R) Cuda compiler driver") ||
         (starts_with(t, "Copyright (c) 2005-") && t.find("NVIDIA Corporation") != std::string_view::npos) ||
         (starts_with(t, "Built on ") && t.find('_') != std::string_view::npos) ||
         starts_with(t, "Build cuda_");
}

bool strings_nvcc_release(PasteSink& sink, const std::string& t, std::size_t i) {
  static const std::regex re(R"(Cuda compilation tools, release (\d+\.\d+), V(\d+\.\d+\.\d+))");
  if (t.find("Cuda compilation tools") == std::string::npos) return false;
  std::smatch m;
  if (!std::regex_search(t, m, re)) return false;
  if (!sink.snap.nvidia || sink.snap.nvidia->toolkits.empty()) add_nvcc_toolkit(sink, m[2].str(), i);
  else sink.fact("nvcc.version", m[2].str(), i);
  return true;
}

/// The kernel's release wherever it stands: after "Linux version " (/proc/version), as uname -a's
/// third word, or alone when it is a WSL kernel's.
bool strings_kernel_release(PasteSink& sink, const std::string& t, std::size_t i) {
  static const std::regex proc_version(R"(Linux version (\d+\.\d+\.\d+[^\s(]*))");
  static const std::regex uname(R"((?:^|\s)Linux \S+ (\d+\.\d+\.\d+\S*) #\d)");
  static const std::regex wsl(R"((?:^|[\s:=(])(\d+\.\d+\.\d+(?:\.\d+)?-(?:microsoft-standard(?:-WSL2)?|\d+-Microsoft))\b)");
  if (t.find("Linux") == std::string::npos && t.find("icrosoft") == std::string::npos) return false;
  std::smatch m;
  if (!std::regex_search(t, m, proc_version) && !std::regex_search(t, m, uname) &&
      !std::regex_search(t, m, wsl)) {
    return false;
  }
  const std::string release = m[1].str();
  HostInfo& h = sink.host();
  if (!h.kernel_release) h.kernel_release = release;
  sink.fact("kernel", release, i);
  const std::string l = to_lower(release);
  if (l.find("microsoft") != std::string::npos) {
    h.wsl = true;
    if (!h.wsl_version) {
      if (release.find("WSL2") != std::string::npos || l.find("microsoft-standard") != std::string::npos) {
        h.wsl_version = "2";
      } else if (ends_with(release, "-Microsoft")) {
        h.wsl_version = "1";
      }
    }
  }
  return true;
}

/// "(base) user@host:~$ nvcc --version": the prompt that ran one of these commands.
bool runs_system_command(std::string_view t) {
  for (std::string_view c : {"nvcc --version", "nvcc -V", "uname -a", "cat /proc/version"}) {
    if (ends_with(t, c)) return true;
  }
  return false;
}

}  // namespace

void read_system_strings(PasteSink& sink) {
  const auto& lines = sink.lines();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].fence) continue;
    const std::string t(trim(lines[i].text));
    if (t.empty() || t.size() > 2000) continue;
    // A line a message entry took may still name the kernel it runs on (DKMS's "kernel headers
    // for kernel 4.4.0-19041-Microsoft cannot be found"): the fact is read, the line stays the
    // entry's.
    if (sink.claimed(i)) {
      if (t.find("icrosoft") != std::string::npos) strings_kernel_release(sink, t, i);
      continue;
    }
    bool took = strings_nvcc_banner(t);
    took = strings_nvcc_release(sink, t, i) || took;
    took = strings_kernel_release(sink, t, i) || took;
    if (took) sink.claim(i, kFormat_system_strings);
  }
  // The prompt line right above what it printed.
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    const std::string_view next = trim(lines[i + 1].text);
    if (!sink.claimed(i) && runs_system_command(trim(lines[i].text)) &&
        (sink.owner(i + 1) == kFormat_system_strings || strings_nvcc_banner(next) ||
         starts_with(next, "Linux "))) {
      sink.claim(i, kFormat_system_strings);
    }
  }
}

}  // namespace gpudoctor
