#pragma once
// Parsers for the files and names that describe a Python environment: pyvenv.cfg, conda's
// environments.txt, the names that carry the interpreter's version, and an executable's
// header. Each takes text or a name; none touches the system.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// pyvenv.cfg as written by `python -m venv` ("version = 3.11.2"), virtualenv
/// ("version_info = 3.11.2.final.0") and uv ("version_info = 3.11.2").
struct PyvenvCfg {
  std::optional<std::string> home;
  std::optional<std::string> version;  ///< "3.11.2": "version", else "version_info" trimmed
  std::optional<std::string> executable;
  std::optional<bool> include_system_site_packages;
};
PyvenvCfg parse_pyvenv_cfg(std::string_view text);

/// ~/.conda/environments.txt: one prefix per line; blanks and comments dropped, order kept.
std::vector<std::string> parse_conda_environments(std::string_view text);

/// "3.11.9" from conda-meta's "python-3.11.9-h932a869_0_cpython.json"; nullopt for other
/// packages ("python-dateutil-2.8.2-…", "python_abi-3.11-4_cp311.json").
std::optional<std::string> python_version_from_conda_meta(std::string_view file_name);

/// "3.11" from "python3.11" (a lib directory or an executable's name; "python3.13t" too).
std::optional<std::string> python_version_from_name(std::string_view name);

/// "3.11" from "libpython3.11.so.1.0", "libpython3.11.dylib", "libpython3.7m.so", "python311.dll".
std::optional<std::string> python_version_from_libpython(std::string_view file_name);

/// The CPU architectures an ELF or Mach-O file is built for, from its first bytes:
/// {"x86_64"}, {"aarch64"}, {"arm64"}, {"x86_64", "arm64"} for a universal binary;
/// nullopt when the header is neither (or a script, such as a pyenv shim).
std::optional<std::vector<std::string>> binary_archs(std::string_view head);

/// The macOS SDK a Mach-O executable was linked against ("10.14"), from LC_BUILD_VERSION or
/// LC_VERSION_MIN_MACOSX; in a universal binary, of the first slice the bytes reach. Below 11
/// macOS tells the process it is 10.16 (unless SYSTEM_VERSION_COMPAT=0). nullopt when the
/// bytes end before the load command.
std::optional<std::string> macho_macos_sdk(std::string_view head);

}  // namespace gpudoctor
