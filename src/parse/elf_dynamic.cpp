#include "parse/elf_dynamic.hpp"

#include <algorithm>

namespace gpudoctor {

namespace {

constexpr std::uint32_t kPtLoad = 1;
constexpr std::uint32_t kPtDynamic = 2;
constexpr std::uint64_t kDtNull = 0;
constexpr std::uint64_t kDtNeeded = 1;
constexpr std::uint64_t kDtStrtab = 5;
constexpr std::uint64_t kDtSoname = 14;
constexpr std::uint64_t kDtRpath = 15;
constexpr std::uint64_t kDtRunpath = 29;
// Real libraries have a few dozen program headers and a few hundred dynamic entries; these
// bounds keep a corrupt header from asking for gigabytes.
constexpr std::size_t kMaxProgramHeaders = 256;
constexpr std::size_t kMaxDynamicBytes = 64 * 1024;
constexpr std::size_t kMaxString = 4096;

std::uint64_t le(const std::string& b, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}

struct Segment {
  std::uint64_t vaddr, offset, filesz;
};

}  // namespace

std::optional<ElfDynamic> parse_elf_dynamic(const ReadAt& read_at) {
  auto head = read_at(0, 64);
  if (!head || head->size() < 52 || head->compare(0, 4, "\x7f" "ELF") != 0) return std::nullopt;
  const bool is64 = (*head)[4] == 2;
  if ((!is64 && (*head)[4] != 1) || (*head)[5] != 1) return std::nullopt;  // little-endian only
  if (is64 && head->size() < 64) return std::nullopt;
  const int word = is64 ? 8 : 4;
  const std::uint64_t phoff = le(*head, is64 ? 32 : 28, word);
  const std::size_t phentsize = le(*head, is64 ? 54 : 42, 2);
  const std::size_t phnum = le(*head, is64 ? 56 : 44, 2);
  if (phnum == 0 || phnum > kMaxProgramHeaders || phentsize < (is64 ? 56u : 32u)) {
    return std::nullopt;
  }
  auto ph = read_at(phoff, phentsize * phnum);
  if (!ph || ph->size() < phentsize * phnum) return std::nullopt;

  std::vector<Segment> loads;
  std::optional<Segment> dynamic;
  for (std::size_t i = 0; i < phnum; ++i) {
    const std::size_t at = i * phentsize;
    const auto type = static_cast<std::uint32_t>(le(*ph, at, 4));
    Segment s{};
    s.offset = le(*ph, at + (is64 ? 8 : 4), word);
    s.vaddr = le(*ph, at + (is64 ? 16 : 8), word);
    s.filesz = le(*ph, at + (is64 ? 32 : 16), word);
    if (type == kPtLoad) loads.push_back(s);
    if (type == kPtDynamic) dynamic = s;
  }
  if (!dynamic) return std::nullopt;
  auto dyn = read_at(dynamic->offset, std::min<std::uint64_t>(dynamic->filesz, kMaxDynamicBytes));
  if (!dyn) return std::nullopt;

  std::optional<std::uint64_t> strtab;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> entries;  // tag, string offset
  const std::size_t entry = 2 * word;
  for (std::size_t at = 0; at + entry <= dyn->size(); at += entry) {
    const std::uint64_t tag = le(*dyn, at, word);
    const std::uint64_t val = le(*dyn, at + word, word);
    if (tag == kDtNull) break;
    if (tag == kDtStrtab) strtab = val;
    if (tag == kDtNeeded || tag == kDtSoname || tag == kDtRpath || tag == kDtRunpath) {
      entries.emplace_back(tag, val);
    }
  }
  ElfDynamic out;
  out.bits = is64 ? 64 : 32;
  if (!strtab) return out;
  // DT_STRTAB holds an address: the file offset is found through the load segment holding it.
  std::optional<std::uint64_t> strtab_offset;
  for (const auto& s : loads) {
    if (*strtab >= s.vaddr && *strtab < s.vaddr + s.filesz) {
      strtab_offset = s.offset + (*strtab - s.vaddr);
    }
  }
  if (!strtab_offset) return out;
  auto string_at = [&](std::uint64_t off) -> std::optional<std::string> {
    auto bytes = read_at(*strtab_offset + off, kMaxString);
    if (!bytes) return std::nullopt;
    const std::size_t end = bytes->find('\0');
    if (end == std::string::npos) return std::nullopt;
    return bytes->substr(0, end);
  };
  for (const auto& [tag, off] : entries) {
    auto s = string_at(off);
    if (!s) continue;
    if (tag == kDtNeeded) out.needed.push_back(*s);
    if (tag == kDtSoname) out.soname = *s;
    if (tag == kDtRpath) out.rpath = *s;
    if (tag == kDtRunpath) out.runpath = *s;
  }
  return out;
}

ReadAt read_from_string(const std::string& bytes) {
  return [&bytes](std::uint64_t offset, std::size_t size) -> std::optional<std::string> {
    if (offset > bytes.size()) return std::nullopt;
    return bytes.substr(static_cast<std::size_t>(offset), size);
  };
}

}  // namespace gpudoctor
