#include "parse/python_env_files.hpp"

#include <cctype>
#include <cstdint>

#include "text.hpp"

namespace gpudoctor {

namespace {

bool ascii_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

/// The leading "3.11.2" of "3.11.2.final.0" (at most three numeric parts).
std::string numeric_prefix(std::string_view v) {
  std::string out;
  int parts = 0;
  std::size_t i = 0;
  while (i < v.size() && parts < 3 && ascii_digit(v[i])) {
    std::size_t j = i;
    while (j < v.size() && ascii_digit(v[j])) ++j;
    if (!out.empty()) out += '.';
    out += v.substr(i, j - i);
    ++parts;
    if (j >= v.size() || v[j] != '.') break;
    i = j + 1;
  }
  return out;
}

/// "3.11" from text starting at the major digit: "3.11", "3.11.so.1.0", "3.7m", "3.13t".
std::optional<std::string> major_minor(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && ascii_digit(s[i])) ++i;
  if (i == 0 || i >= s.size() || s[i] != '.') return std::nullopt;
  std::size_t j = i + 1;
  while (j < s.size() && ascii_digit(s[j])) ++j;
  if (j == i + 1) return std::nullopt;
  return std::string(s.substr(0, j));
}

std::uint32_t read32(std::string_view b, std::size_t at, bool big_endian) {
  std::uint32_t v = 0;
  for (int k = 0; k < 4; ++k) {
    auto byte = static_cast<std::uint8_t>(b[at + static_cast<std::size_t>(big_endian ? k : 3 - k)]);
    v = (v << 8) | byte;
  }
  return v;
}

std::string macho_cpu(std::uint32_t cputype) {
  switch (cputype) {
    case 0x01000007:
      return "x86_64";
    case 0x0100000c:
      return "arm64";
    case 0x0200000c:
      return "arm64_32";
    case 7:
      return "i386";
    case 12:
      return "arm";
    case 18:
      return "ppc";
    case 0x01000012:
      return "ppc64";
    default:
      return "cputype " + std::to_string(cputype);
  }
}

/// xxxx.yy.zz nibble-packed, as Mach-O stores versions; a zero patch is left out.
std::string packed_version(std::uint32_t v) {
  std::string s = std::to_string(v >> 16) + "." + std::to_string((v >> 8) & 0xff);
  if ((v & 0xff) != 0) s += "." + std::to_string(v & 0xff);
  return s;
}

/// The macOS SDK in the load commands of the thin Mach-O image that starts at `at`.
std::optional<std::string> thin_macos_sdk(std::string_view b, std::size_t at) {
  constexpr std::uint32_t kLcVersionMinMacosx = 0x24;
  constexpr std::uint32_t kLcBuildVersion = 0x32;
  constexpr std::uint32_t kPlatformMacos = 1;
  if (at + 28 > b.size()) return std::nullopt;
  const std::uint32_t magic = read32(b, at, true);
  const bool is64 = magic == 0xcffaedfe || magic == 0xfeedfacf;
  const bool big = magic == 0xfeedfacf || magic == 0xfeedface;
  if (!is64 && magic != 0xcefaedfe && magic != 0xfeedface) return std::nullopt;
  const std::uint32_t ncmds = read32(b, at + 16, big);
  std::size_t off = at + (is64 ? 32 : 28);
  for (std::uint32_t i = 0; i < ncmds && off + 8 <= b.size(); ++i) {
    const std::uint32_t cmd = read32(b, off, big);
    const std::uint32_t size = read32(b, off + 4, big);
    if (size < 8) return std::nullopt;
    if (cmd == kLcBuildVersion && off + 20 <= b.size() &&
        read32(b, off + 8, big) == kPlatformMacos) {
      return packed_version(read32(b, off + 16, big));
    }
    if (cmd == kLcVersionMinMacosx && off + 16 <= b.size()) {
      return packed_version(read32(b, off + 12, big));
    }
    off += size;
  }
  return std::nullopt;
}

std::string elf_machine(std::uint32_t machine) {
  switch (machine) {
    case 0x3e:
      return "x86_64";
    case 0xb7:
      return "aarch64";
    case 0x03:
      return "i386";
    case 0x28:
      return "arm";
    case 0x15:
      return "ppc64";
    case 0x16:
      return "s390x";
    case 0xf3:
      return "riscv64";
    default:
      return "e_machine " + std::to_string(machine);
  }
}

}  // namespace

PyvenvCfg parse_pyvenv_cfg(std::string_view text) {
  PyvenvCfg cfg;
  std::optional<std::string> version_info;
  for (std::string_view line : split_lines(text)) {
    std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string key = to_lower(trim(line.substr(0, eq)));
    const std::string value(trim(line.substr(eq + 1)));
    if (key == "home") cfg.home = value;
    if (key == "version" && !numeric_prefix(value).empty()) cfg.version = numeric_prefix(value);
    if (key == "version_info" && !numeric_prefix(value).empty()) {
      version_info = numeric_prefix(value);
    }
    if (key == "executable") cfg.executable = value;
    if (key == "include-system-site-packages") {
      const std::string v = to_lower(value);
      if (v == "true") cfg.include_system_site_packages = true;
      if (v == "false") cfg.include_system_site_packages = false;
    }
  }
  if (!cfg.version) cfg.version = version_info;
  return cfg;
}

std::vector<std::string> parse_conda_environments(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view line : split_lines(text)) {
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;
    out.emplace_back(line);
  }
  return out;
}

std::optional<std::string> python_version_from_conda_meta(std::string_view name) {
  if (!starts_with(name, "python-") || !ends_with(name, ".json")) return std::nullopt;
  std::string_view rest = name.substr(7);
  std::string_view version = rest.substr(0, rest.find('-'));
  if (version.empty() || !ascii_digit(version.front())) return std::nullopt;
  return std::string(version);
}

std::optional<std::string> python_version_from_name(std::string_view name) {
  if (!starts_with(name, "python")) return std::nullopt;
  std::string_view rest = name.substr(6);
  auto v = major_minor(rest);
  if (!v) return std::nullopt;
  rest.remove_prefix(v->size());
  if (!rest.empty() && rest != "t" && rest != "m" && rest != "d" && rest != "dm")
    return std::nullopt;
  return v;
}

std::optional<std::string> python_version_from_libpython(std::string_view name) {
  if (starts_with(name, "libpython")) return major_minor(name.substr(9));
  // Windows: python311.dll (but not python3.dll, the stable-ABI forwarder).
  if (starts_with(name, "python") && ends_with(to_lower(name), ".dll")) {
    std::string_view digits = name.substr(6, name.size() - 10);
    if (digits.size() >= 2 && parse_uint(digits)) {
      return std::string(digits.substr(0, 1)) + "." + std::string(digits.substr(1));
    }
  }
  return std::nullopt;
}

std::optional<std::vector<std::string>> binary_archs(std::string_view b) {
  if (b.size() >= 20 && b.substr(0, 4) ==
                            "\x7f"
                            "ELF") {
    const bool big = b[5] == 2;
    auto lo = static_cast<std::uint8_t>(b[big ? 19 : 18]);
    auto hi = static_cast<std::uint8_t>(b[big ? 18 : 19]);
    return std::vector<std::string>{elf_machine(static_cast<std::uint32_t>(hi << 8 | lo))};
  }
  if (b.size() < 8) return std::nullopt;
  const std::uint32_t magic = read32(b, 0, true);
  if (magic == 0xcffaedfe || magic == 0xcefaedfe)
    return std::vector<std::string>{macho_cpu(read32(b, 4, false))};
  if (magic == 0xfeedfacf || magic == 0xfeedface)
    return std::vector<std::string>{macho_cpu(read32(b, 4, true))};
  if (magic == 0xcafebabe || magic == 0xcafebabf) {
    const std::uint32_t n = read32(b, 4, true);
    const std::size_t stride = magic == 0xcafebabe ? 20 : 32;
    if (n == 0 || n > 16) return std::nullopt;  // a Java class file shares the magic
    std::vector<std::string> archs;
    for (std::size_t k = 0; k < n && 8 + stride * k + 4 <= b.size(); ++k) {
      archs.push_back(macho_cpu(read32(b, 8 + stride * k, true)));
    }
    if (archs.empty()) return std::nullopt;
    return archs;
  }
  return std::nullopt;
}

std::optional<std::string> macho_macos_sdk(std::string_view b) {
  if (b.size() < 8) return std::nullopt;
  const std::uint32_t magic = read32(b, 0, true);
  if (magic != 0xcafebabe) return thin_macos_sdk(b, 0);
  const std::uint32_t n = read32(b, 4, true);
  if (n == 0 || n > 16) return std::nullopt;  // a Java class file shares the magic
  for (std::size_t k = 0; k < n && 8 + 20 * k + 12 <= b.size(); ++k) {
    if (auto sdk = thin_macos_sdk(b, read32(b, 8 + 20 * k + 8, true))) return sdk;
  }
  return std::nullopt;
}

}  // namespace gpudoctor
