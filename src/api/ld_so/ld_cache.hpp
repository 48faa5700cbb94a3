#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// One entry of the dynamic loader's cache: the name dlopen() is asked for, and the file it gets.
struct LdCacheEntry {
  std::string name;  ///< "libcuda.so.1"
  std::string path;  ///< "/usr/lib/wsl/lib/libcuda.so.1"
};

/// The loader's cache. glibc's ld.so looks a bare name up here, by exact name, after
/// LD_LIBRARY_PATH and before its default directories; the directories ld.so.conf names are
/// seen only through it (ldconfig(8); glibc elf/dl-load.c, _dl_map_object). ldconfig caches a
/// library under its DT_SONAME, and a symbolic link under the link's own name: a plain file
/// whose name differs from its soname (WSL's /usr/lib/wsl/lib/libcuda.so) is not in the cache
/// under that name.
struct LdCache {
  std::vector<LdCacheEntry> entries;
  /// The files the cache gives for `name` (several where 32- and 64-bit libraries share it).
  std::vector<std::string> lookup(std::string_view name) const;
};

/// /etc/ld.so.cache as glibc 2.32 and later write it ("glibc-ld.so.cache1.1"), or the older
/// file that begins with the "ld.so-1.7.0" table and may carry the new one after it.
/// Nothing when the bytes are neither.
std::optional<LdCache> parse_ld_so_cache(std::string_view bytes);

/// The same from `ldconfig -p`'s lines ("\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/wsl/lib/…"),
/// as a person pastes them or a fixture records them. Nothing when no line is one.
std::optional<LdCache> parse_ldconfig_print(std::string_view text);

}  // namespace gpudoctor
