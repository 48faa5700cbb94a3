#include "binary/elf_sections.hpp"

#include <algorithm>

namespace gpudoctor::binary {

namespace {

// Real libraries have a few dozen sections; the table of a huge one is still far below these.
constexpr std::uint64_t kMaxSections = 1 << 16;
constexpr std::uint64_t kMaxTable = 16 << 20;
constexpr std::uint64_t kMaxNameTable = 4 << 20;
constexpr std::size_t kMaxName = 256;
constexpr std::uint32_t kShtNobits = 8;
constexpr std::uint16_t kShnXindex = 0xffff;

/// Where each field sits, for the two classes.
struct Layout {
  std::size_t header_size;
  std::size_t shoff, shentsize, shnum, shstrndx;  // in the ELF header
  std::size_t min_entry;                          // the smallest valid e_shentsize
  std::size_t name, type, offset, size, link;     // in a section header
  bool wide;                                      // 64-bit offsets and sizes
};
constexpr Layout kElf64{64, 0x28, 0x3a, 0x3c, 0x3e, 64, 0, 4, 24, 32, 40, true};
constexpr Layout kElf32{52, 0x20, 0x2e, 0x30, 0x32, 40, 0, 4, 16, 20, 24, false};

std::uint64_t word(std::string_view bytes, std::size_t pos, bool wide) {
  return wide ? le<std::uint64_t>(bytes, pos) : le<std::uint32_t>(bytes, pos);
}

ElfFile fail(ElfFile elf, std::string why) {
  elf.sections.clear();
  elf.error = std::move(why);
  return elf;
}

}  // namespace

ElfFile read_elf_sections(const ByteSource& src) {
  ElfFile elf;
  auto ident = read_bytes(src, 0, 16);
  if (!ident || ident->compare(0, 4, "\x7f" "ELF") != 0) return fail(elf, "not an ELF file");
  const char cls = (*ident)[4];
  if (cls != 1 && cls != 2) return fail(elf, "unknown ELF class " + std::to_string(cls));
  if ((*ident)[5] != 1) return fail(elf, "big-endian ELF files are not read");
  elf.is_64 = cls == 2;
  const Layout& L = elf.is_64 ? kElf64 : kElf32;
  auto header = read_bytes(src, 0, L.header_size);
  if (!header) return fail(elf, "ELF header cut short");
  elf.machine = le<std::uint16_t>(*header, 18);
  const std::uint64_t shoff = word(*header, L.shoff, L.wide);
  const std::uint64_t entsize = le<std::uint16_t>(*header, L.shentsize);
  std::uint64_t count = le<std::uint16_t>(*header, L.shnum);
  std::uint64_t names_index = le<std::uint16_t>(*header, L.shstrndx);
  if (shoff == 0) return fail(elf, "no section header table");
  if (entsize < L.min_entry) return fail(elf, "section header size " + std::to_string(entsize));
  // With 0xff00 or more sections the real count and name-table index sit in section 0.
  if (count == 0 || names_index == kShnXindex) {
    auto first = read_bytes(src, shoff, entsize);
    if (!first) return fail(elf, "section header table past the end of the file");
    if (count == 0) count = word(*first, L.size, L.wide);
    if (names_index == kShnXindex) names_index = le<std::uint32_t>(*first, L.link);
  }
  if (count > kMaxSections) return fail(elf, std::to_string(count) + " sections");
  if (count * entsize > kMaxTable || !fits(shoff, count * entsize, src.size)) {
    return fail(elf, "section header table past the end of the file");
  }
  auto table = read_bytes(src, shoff, count * entsize);
  if (!table) return fail(elf, "section header table cannot be read");
  if (names_index >= count) return fail(elf, "no section name table");
  auto field = [&](std::uint64_t i, std::size_t pos, bool wide) {
    return word(*table, i * entsize + pos, wide);
  };
  const std::uint64_t names_offset = field(names_index, L.offset, L.wide);
  const std::uint64_t names_size = field(names_index, L.size, L.wide);
  if (names_size > kMaxNameTable || !fits(names_offset, names_size, src.size)) {
    return fail(elf, "section name table out of bounds");
  }
  auto names = read_bytes(src, names_offset, names_size);
  if (!names) return fail(elf, "section name table cannot be read");
  for (std::uint64_t i = 0; i < count; ++i) {
    ElfSection s;
    const std::uint64_t name_at = field(i, L.name, false);
    if (name_at < names->size()) {
      const std::size_t end = names->find('\0', name_at);
      s.name = names->substr(name_at, std::min(end, names->size()) - name_at).substr(0, kMaxName);
    }
    s.type = static_cast<std::uint32_t>(field(i, L.type, false));
    s.offset = field(i, L.offset, L.wide);
    s.size = field(i, L.size, L.wide);
    s.in_file = s.type != kShtNobits;
    elf.sections.push_back(std::move(s));
  }
  return elf;
}

const ElfSection* find_section(const ElfFile& elf, std::string_view name) {
  for (const auto& s : elf.sections) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace gpudoctor::binary
