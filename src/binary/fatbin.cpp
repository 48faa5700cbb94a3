#include "binary/fatbin.hpp"

#include <set>
#include <utility>

namespace gpudoctor::binary {

namespace {

constexpr std::size_t kContainerHeader = 16;
constexpr std::size_t kEntryHeader = 64;
constexpr std::uint32_t kMaxHeader = 4096;  // seen: 64 to 120 bytes
// libtorch_cuda.so holds a few thousand containers of about ten entries each.
constexpr std::uint64_t kMaxContainers = 1 << 20;
constexpr std::uint64_t kMaxEntries = 1 << 22;
constexpr std::uint64_t kMaxPadding = 1 << 20;

constexpr std::uint16_t kKindPtx = 1;
constexpr std::uint16_t kKindElf = 2;
constexpr std::uint16_t kKindLto = 8;
constexpr std::uint64_t kFlagArchSpecific = 0x100000;
constexpr std::uint64_t kFlagFamilySpecific = 0x200000;
constexpr std::uint64_t kFlagsCompressed = 0x2000 | 0x8000;

/// (arch, suffix): sorts sm_90 < sm_90a < sm_100.
using Target = std::pair<std::uint32_t, char>;

std::vector<std::string> names(const std::set<Target>& targets, const char* prefix) {
  std::vector<std::string> out;
  for (const auto& [arch, suffix] : targets) {
    out.push_back(prefix + std::to_string(arch) + (suffix ? std::string(1, suffix) : ""));
  }
  return out;
}

struct Walk {
  HeaderReader reader;
  FatbinScan scan;
  std::set<Target> sass, ptx, lto;

  bool stop(std::string why) {
    scan.error = std::move(why);
    return false;
  }

  /// One entry at `at`, inside a container ending at `end`; advances `at` past its payload.
  bool entry(std::uint64_t& at, std::uint64_t end) {
    if (end - at < kEntryHeader) return stop("entry header cut short at " + hex(at));
    auto h = reader.at(at, kEntryHeader);
    if (!h) return stop("entry header at " + hex(at) + " cannot be read");
    const auto kind = le<std::uint16_t>(*h, 0);
    const auto header_size = le<std::uint32_t>(*h, 4);
    const auto payload = le<std::uint64_t>(*h, 8);
    const auto arch = le<std::uint32_t>(*h, 28);
    const auto flags = le<std::uint64_t>(*h, 40);
    if (header_size < kEntryHeader || header_size > kMaxHeader) {
      return stop("entry at " + hex(at) + " has a header size of " + std::to_string(header_size));
    }
    if (!fits(at + header_size, payload, end)) {
      return stop("entry at " + hex(at) + " runs past its container");
    }
    if (++scan.entries > kMaxEntries) return stop("more than " + std::to_string(kMaxEntries) +
                                                  " entries");
    const char suffix = (flags & kFlagArchSpecific)     ? 'a'
                        : (flags & kFlagFamilySpecific) ? 'f'
                                                        : 0;
    if (kind == kKindElf) {
      sass.insert({arch, suffix});
      ++scan.sass_entries;
    }
    if (kind == kKindPtx) {
      ptx.insert({arch, suffix});
      ++scan.ptx_entries;
    }
    if (kind == kKindLto) lto.insert({arch, suffix});
    if (flags & kFlagsCompressed) ++scan.compressed_entries;
    at += header_size + payload;
    return true;
  }

  /// The container at `at` (region ends at `end`); advances `at` past it.
  bool container(std::uint64_t& at, std::uint64_t end) {
    if (end - at < kContainerHeader) return stop("container header cut short at " + hex(at));
    auto h = reader.at(at, kContainerHeader);
    if (!h) return stop("container header at " + hex(at) + " cannot be read");
    if (le<std::uint32_t>(*h, 0) != kFatbinMagic) {
      return stop("no fatbinary header at " + hex(at));
    }
    const auto version = le<std::uint16_t>(*h, 4);
    const auto header_size = le<std::uint16_t>(*h, 6);
    const auto body = le<std::uint64_t>(*h, 8);
    if (version != 1) return stop("fatbinary version " + std::to_string(version) + " at " + hex(at));
    if (header_size < kContainerHeader || !fits(at + header_size, body, end)) {
      return stop("fatbinary at " + hex(at) + " runs past the section");
    }
    if (++scan.containers > kMaxContainers) {
      return stop("more than " + std::to_string(kMaxContainers) + " containers");
    }
    std::uint64_t e = at + header_size;
    const std::uint64_t container_end = e + body;
    while (e < container_end) {
      if (!entry(e, container_end)) return false;
    }
    at = container_end;
    return true;
  }
};

}  // namespace

FatbinScan scan_fatbins(const ByteSource& src, std::uint64_t offset, std::uint64_t size) {
  Walk w{HeaderReader(src), {}, {}, {}, {}};
  if (auto why = walk_containers(w.reader, src.size, offset, size, kMaxPadding,
                                 [&w](std::uint64_t& at, std::uint64_t end) {
                                   return w.container(at, end);
                                 })) {
    w.scan.error = std::move(why);
  }
  w.scan.sass = names(w.sass, "sm_");
  w.scan.ptx = names(w.ptx, "compute_");
  w.scan.lto = names(w.lto, "lto_");
  return std::move(w.scan);
}

}  // namespace gpudoctor::binary
