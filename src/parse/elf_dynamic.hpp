#pragma once
// The dynamic section of an ELF shared object: its soname, the libraries it needs and where it
// asks the loader to look (DT_RPATH, DT_RUNPATH). Read through a callback that returns bytes at
// an offset, so a 2 GB library costs a few small reads and tests can hand in a string.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpudoctor {

/// Up to `size` bytes at `offset`; fewer at the end of the file; nullopt when unreadable.
using ReadAt = std::function<std::optional<std::string>(std::uint64_t offset, std::size_t size)>;

struct ElfDynamic {
  int bits = 64;                       ///< 32 or 64
  std::optional<std::string> soname;  ///< DT_SONAME: "libcudnn.so.8"
  std::vector<std::string> needed;     ///< DT_NEEDED, in order
  std::optional<std::string> rpath;    ///< DT_RPATH (also searched for what the object dlopens)
  std::optional<std::string> runpath;  ///< DT_RUNPATH (only for the object's own needs)
};

/// nullopt when the bytes are not a little-endian ELF file with a dynamic segment.
std::optional<ElfDynamic> parse_elf_dynamic(const ReadAt& read_at);

/// A string-backed ReadAt, for tests and for bytes already in memory.
ReadAt read_from_string(const std::string& bytes);

}  // namespace gpudoctor
