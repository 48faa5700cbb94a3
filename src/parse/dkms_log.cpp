#include "parse/dkms_log.hpp"

#include "text.hpp"

namespace gpudoctor {

namespace {

/// The kernel release in a kernel build tree's path, or nothing.
std::optional<std::string> kernel_of_tree(std::string_view line) {
  for (std::string_view marker : {"/lib/modules/", "/usr/src/kernel-headers-",
                                  "/usr/src/linux-headers-", "/usr/src/kernels/"}) {
    const auto at = line.find(marker);
    if (at == std::string_view::npos) continue;
    std::string_view rest = line.substr(at + marker.size());
    rest = rest.substr(0, rest.find_first_of("/':\" \t"));
    if (!rest.empty() && rest.find('.') != std::string_view::npos) return std::string(rest);
  }
  return std::nullopt;
}

/// A line that says the build stopped: make's "*** … Error 2", a compiler's "error:", the
/// driver's own "Bailing out" or "check failed".
bool error_line(std::string_view line) {
  return (line.find("***") != std::string_view::npos &&
          (line.find("Error ") != std::string_view::npos ||
           line.find("Bailing out") != std::string_view::npos)) ||
         line.find("error:") != std::string_view::npos ||
         line.find("check failed") != std::string_view::npos ||
         line.find("ERROR:") != std::string_view::npos;
}

}  // namespace

std::string dkms_kernel_module(const std::string& package) {
  if (starts_with(package, "nvidia")) return "nvidia";
  if (starts_with(package, "amdgpu")) return "amdgpu";
  if (starts_with(package, "intel-i915")) return "i915";
  if (starts_with(package, "intel-xe")) return "xe";
  return package;
}

DkmsMakeLog parse_dkms_make_log(std::string_view text) {
  DkmsMakeLog log;
  std::vector<std::string_view> lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = trim(lines[i]);
    // "DKMS make.log for nvidia-440.82 for kernel 5.4.40-38.lts2019 (x86_64)" (dkms 2);
    // "DKMS (dkms-3.2.0) make.log for amdgpu/6.12.12-2202139.24.04 for kernel … (x86_64)".
    if (i < 3 && starts_with(line, "DKMS") && line.find("make.log for ") != std::string_view::npos) {
      std::string_view rest = line.substr(line.find("make.log for ") + 13);
      const auto for_kernel = rest.find(" for kernel ");
      if (for_kernel != std::string_view::npos) {
        const std::string_view what = rest.substr(0, for_kernel);
        const auto slash = what.find('/');
        const auto dash = what.find('-');
        const auto cut = slash != std::string_view::npos ? slash : dash;
        if (cut != std::string_view::npos) {
          log.module = std::string(what.substr(0, cut));
          log.version = std::string(what.substr(cut + 1));
        }
        std::string_view k = rest.substr(for_kernel + 12);
        k = k.substr(0, k.find(' '));
        if (!k.empty()) log.kernel = std::string(k);
      }
      continue;
    }
    if (!log.kernel && (line.find("Entering directory") != std::string_view::npos ||
                        line.find("Leaving directory") != std::string_view::npos ||
                        line.find("Makefile") != std::string_view::npos)) {
      log.kernel = kernel_of_tree(line);
    }
    // NVIDIA's conftest: "The major and minor number of the compiler used to compile the
    // kernel:" <blank> "gcc version 9.3.1 …" <blank> "does not match the compiler used here:"
    // <blank> "cc (…) 10.1.1 …".
    auto next_text = [&](std::size_t from) -> std::optional<std::string> {
      for (std::size_t j = from + 1; j < lines.size() && j < from + 4; ++j) {
        const std::string_view t = trim(lines[j]);
        if (!t.empty()) return std::string(t);
      }
      return std::nullopt;
    };
    if (starts_with(line, "The major and minor number of the compiler used to")) {
      for (std::size_t j = i + 1; j < lines.size() && j < i + 4; ++j) {
        if (trim(lines[j]).find("compile the kernel") != std::string_view::npos) {
          log.kernel_compiler = next_text(j);
          break;
        }
      }
    }
    if (starts_with(line, "does not match the compiler used here")) log.compiler_here = next_text(i);
    if (error_line(line)) {
      log.failed = true;
      if (log.errors.size() < 4) log.errors.emplace_back(line.substr(0, 240));
    }
  }
  return log;
}

}  // namespace gpudoctor
