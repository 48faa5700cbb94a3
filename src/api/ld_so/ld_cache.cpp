#include "api/ld_so/ld_cache.hpp"

#include <cstdint>
#include <cstring>

#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr std::string_view kNewMagic = "glibc-ld.so.cache1.1";  // magic "glibc-ld.so.cache" + "1.1"
constexpr std::string_view kOldMagic = "ld.so-1.7.0";

std::optional<std::uint32_t> u32(std::string_view b, std::size_t at) {
  if (at > b.size() || b.size() - at < 4) return std::nullopt;
  std::uint32_t v = 0;
  std::memcpy(&v, b.data() + at, 4);  // the cache is in the machine's byte order
  return v;
}

/// A NUL-terminated string at `at`; nothing when it runs off the end.
std::optional<std::string> c_string(std::string_view b, std::size_t at) {
  if (at >= b.size()) return std::nullopt;
  const auto end = b.find('\0', at);
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(b.substr(at, end - at));
}

/// The new table at `base`: a 48-byte header (magic and version, 20 bytes; nlibs; length of the
/// strings; flags and padding; extension offset; 3 unused words), then 24-byte entries (flags,
/// key, value, osversion, hwcap). Keys and values are offsets from `base`.
std::optional<LdCache> parse_new(std::string_view b, std::size_t base) {
  if (base > b.size() || b.substr(base, kNewMagic.size()) != kNewMagic) return std::nullopt;
  const auto n = u32(b, base + 20);
  if (!n) return std::nullopt;
  constexpr std::size_t kHeader = 48, kEntry = 24;
  // Every entry must fit: a count from a corrupt file does not size anything.
  if (*n > (b.size() - base) / kEntry) return std::nullopt;
  LdCache cache;
  cache.entries.reserve(*n);
  for (std::uint32_t i = 0; i < *n; ++i) {
    const std::size_t at = base + kHeader + std::size_t{i} * kEntry;
    const auto key = u32(b, at + 4);
    const auto value = u32(b, at + 8);
    if (!key || !value) return std::nullopt;
    auto name = c_string(b, base + *key);
    auto path = c_string(b, base + *value);
    if (!name || !path) continue;
    cache.entries.push_back({std::move(*name), std::move(*path)});
  }
  return cache;
}

/// The old table: the 11-byte magic padded to 12, nlibs, then 12-byte entries (flags, key,
/// value) whose offsets count from the end of the entries.
std::optional<LdCache> parse_old(std::string_view b) {
  const auto n = u32(b, 12);
  if (!n || *n > b.size() / 12) return std::nullopt;
  const std::size_t strings = 16 + std::size_t{*n} * 12;
  // glibc places the new table after the old one, aligned to 8, and reads only it when present.
  const std::size_t next = (strings + 7) & ~std::size_t{7};
  if (auto fresh = parse_new(b, next)) return fresh;
  LdCache cache;
  for (std::uint32_t i = 0; i < *n; ++i) {
    const std::size_t at = 16 + std::size_t{i} * 12;
    const auto key = u32(b, at + 4);
    const auto value = u32(b, at + 8);
    if (!key || !value) return std::nullopt;
    auto name = c_string(b, strings + *key);
    auto path = c_string(b, strings + *value);
    if (name && path) cache.entries.push_back({std::move(*name), std::move(*path)});
  }
  return cache;
}

}  // namespace

std::vector<std::string> LdCache::lookup(std::string_view name) const {
  std::vector<std::string> out;
  for (const auto& e : entries) {
    if (e.name == name) out.push_back(e.path);
  }
  return out;
}

std::optional<LdCache> parse_ld_so_cache(std::string_view bytes) {
  if (bytes.substr(0, kNewMagic.size()) == kNewMagic) return parse_new(bytes, 0);
  if (bytes.substr(0, kOldMagic.size()) == kOldMagic) return parse_old(bytes);
  return std::nullopt;
}

std::optional<LdCache> parse_ldconfig_print(std::string_view text) {
  LdCache cache;
  for (std::string_view line : split_lines(text)) {
    line = trim(line);
    const auto arrow = line.find(" => ");
    const auto paren = line.find(" (");
    if (arrow == std::string_view::npos || paren == std::string_view::npos || paren > arrow) {
      continue;
    }
    std::string_view name = trim(line.substr(0, paren));
    std::string_view path = trim(line.substr(arrow + 4));
    if (name.empty() || path.empty() || path.front() != '/' ||
        name.find(' ') != std::string_view::npos) {
      continue;
    }
    cache.entries.push_back({std::string(name), std::string(path)});
  }
  if (cache.entries.empty()) return std::nullopt;
  return cache;
}

}  // namespace gpudoctor
