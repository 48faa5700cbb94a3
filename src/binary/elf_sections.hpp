#pragma once
// The section table of a little-endian ELF file (32 or 64 bit), from its section headers only:
// where .nv_fatbin or .hip_fatbin lie in a shared library of 2 GB without reading the rest.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "binary/byte_source.hpp"

namespace gpudoctor::binary {

struct ElfSection {
  std::string name;  ///< ".nv_fatbin"
  std::uint32_t type = 0;
  std::uint64_t offset = 0;  ///< in the file
  std::uint64_t size = 0;
  bool in_file = true;  ///< false for SHT_NOBITS (.bss): no bytes in the file
};

struct ElfFile {
  bool is_64 = true;
  std::uint16_t machine = 0;  ///< e_machine: 62 x86-64, 183 aarch64, 224 amdgpu
  std::vector<ElfSection> sections;
  std::optional<std::string> error;  ///< why the table could not be read (sections stay empty)
};

/// Reads the ELF header, the section header table and the section names. Counts, sizes and
/// offsets are checked against the source's size and fixed limits before anything is read.
ElfFile read_elf_sections(const ByteSource& src);

/// The first section called `name`, or nullptr.
const ElfSection* find_section(const ElfFile& elf, std::string_view name);

}  // namespace gpudoctor::binary
