// The dynamic loader's cache, as ld.so consults it: /etc/ld.so.cache files written by the real
// ldconfig (tests/fixtures/ld-so-cache), `ldconfig -p` text, and LibrarySearch finding a file in
// an ld.so.conf directory only when the cache lists it by that name.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "api/ld_so/ld_cache.hpp"
#include "core/library_search.hpp"
#include "temp_tree.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

std::string fixture_bytes(const std::string& name) {
  std::ifstream in(test::fixture_path("ld-so-cache/" + name), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(LdCache, WslPlainFilesAreCachedUnderTheirSonameOnly) {
  const auto cache = parse_ld_so_cache(fixture_bytes("wsl-plain-files.cache"));
  ASSERT_TRUE(cache);
  ASSERT_EQ(cache->entries.size(), 1u);
  EXPECT_EQ(cache->entries[0].name, "libcuda.so.1");
  EXPECT_EQ(cache->entries[0].path, "/usr/lib/wsl/lib/libcuda.so.1");
  EXPECT_TRUE(cache->lookup("libcuda.so").empty());
}

TEST(LdCache, LinksAreCachedUnderTheLinksOwnNames) {
  const auto cache = parse_ld_so_cache(fixture_bytes("driver-links.cache"));
  ASSERT_TRUE(cache);
  EXPECT_EQ(cache->lookup("libcuda.so"), std::vector<std::string>{"/opt/nvidia/lib/libcuda.so"});
  EXPECT_EQ(cache->lookup("libcuda.so.1"),
            std::vector<std::string>{"/opt/nvidia/lib/libcuda.so.1"});
}

TEST(LdCache, TruncatedOrForeignBytesAreNotACache) {
  const std::string whole = fixture_bytes("driver-links.cache");
  ASSERT_GT(whole.size(), 60u);
  EXPECT_FALSE(parse_ld_so_cache(whole.substr(0, 30)));  // the header cut short
  EXPECT_FALSE(parse_ld_so_cache("\x7f" "ELF not a cache"));
  EXPECT_FALSE(parse_ld_so_cache(""));
  // An old table whose count puts the new one past the end, and one cut inside its entries.
  std::string old_only = "ld.so-1.7.0";
  old_only.push_back('\0');
  const std::uint32_t many = 1;  // fits the count check; its entry and the new table do not
  old_only.append(reinterpret_cast<const char*>(&many), 4);
  EXPECT_FALSE(parse_ld_so_cache(old_only));
  // A count of entries the file cannot hold sizes nothing.
  std::string lying = whole;
  const std::uint32_t huge = 0x7fffffff;
  std::memcpy(lying.data() + 20, &huge, 4);
  EXPECT_FALSE(parse_ld_so_cache(lying));
  // Strings cut off (48-byte header, two 24-byte entries, then the strings): entries whose
  // names run off the end are dropped, the rest kept.
  const auto cut = parse_ld_so_cache(whole.substr(0, 48 + 2 * 24 + 12));
  ASSERT_TRUE(cut);
  EXPECT_LT(cut->entries.size(), 2u);
}

// glibc before 2.32 wrote "compat" caches by default (Ubuntu 20.04's 2.31): the old table first,
// then the new one at the next 8-byte boundary, which ld.so reads alone (glibc
// sysdeps/generic/dl-cache.h, elf/dl-cache.c). Built here by that layout: Debian 12's ldconfig no
// longer writes it.
TEST(LdCache, CompatCacheIsReadThroughItsNewTable) {
  const std::string fresh = fixture_bytes("driver-links.cache");
  std::string old = "ld.so-1.7.0";
  old.push_back('\0');
  const std::uint32_t one = 1;
  old.append(reinterpret_cast<const char*>(&one), 4);
  const std::int32_t flags = 0x0303;
  const std::uint32_t key = 0, value = 0;  // unused: ld.so reads the new table
  old.append(reinterpret_cast<const char*>(&flags), 4);
  old.append(reinterpret_cast<const char*>(&key), 4);
  old.append(reinterpret_cast<const char*>(&value), 4);
  while (old.size() % 8 != 0) old.push_back('\0');
  const auto cache = parse_ld_so_cache(old + fresh);
  ASSERT_TRUE(cache);
  EXPECT_EQ(cache->lookup("libcuda.so"), std::vector<std::string>{"/opt/nvidia/lib/libcuda.so"});
}

TEST(LdCache, LdconfigPrintLinesAsPasted) {
  // microsoft/WSL#8587, as the reporter pasted it.
  const auto cache = parse_ldconfig_print(
      "$ ldconfig -p| grep libcuda\n"
      "        libcudart.so.11.0 (libc6,x86-64) => "
      "/usr/local/cuda/targets/x86_64-linux/lib/libcudart.so.11.0\n"
      "        libcuda.so.1 (libc6,x86-64) => /usr/lib/wsl/lib/libcuda.so.1\r\n");
  ASSERT_TRUE(cache);
  EXPECT_EQ(cache->entries.size(), 2u);
  EXPECT_EQ(cache->lookup("libcuda.so.1"), std::vector<std::string>{"/usr/lib/wsl/lib/libcuda.so.1"});
  EXPECT_FALSE(parse_ldconfig_print("no cache lines here\n"));
}

/// A WSL 2 tree: the three plain files, ld.wsl.conf, and the cache as `ldconfig -p` printed it.
void write_wsl_tree(const test::TempTree& t, bool with_cache) {
  t.write("etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
  t.write("etc/ld.so.conf.d/ld.wsl.conf", "/usr/lib/wsl/lib\n");
  for (const char* n : {"libcuda.so", "libcuda.so.1", "libcuda.so.1.1"}) {
    t.write(std::string("usr/lib/wsl/lib/") + n, "");
  }
  if (with_cache) {
    t.write(".gpudoctor/ldconfig-p.txt",
            "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/wsl/lib/libcuda.so.1\n");
  }
}

TEST(LibrarySearchCache, AConfDirectoryIsSeenThroughTheCacheOnly) {
  test::TempTree t;
  write_wsl_tree(t, true);
  const Root root(t.path());
  const LibrarySearch search(root, Environment{});
  ASSERT_TRUE(search.cache_known());
  EXPECT_EQ(search.cache_source(), "/.gpudoctor/ldconfig-p.txt");
  EXPECT_EQ(search.find("libcuda.so.1"), std::optional<std::string>("/usr/lib/wsl/lib/libcuda.so.1"));
  EXPECT_EQ(search.find("libcuda.so"), std::nullopt);
  EXPECT_TRUE(search.hidden_from_cache("/usr/lib/wsl/lib", "libcuda.so"));
  EXPECT_FALSE(search.hidden_from_cache("/usr/lib/wsl/lib", "libcuda.so.1"));
}

TEST(LibrarySearchCache, LdLibraryPathIsSearchedDirectly) {
  test::TempTree t;
  write_wsl_tree(t, true);
  const Root root(t.path());
  const Environment env(std::map<std::string, std::string>{{"LD_LIBRARY_PATH", "/usr/lib/wsl/lib"}});
  const LibrarySearch search(root, env);
  EXPECT_EQ(search.find("libcuda.so"), std::optional<std::string>("/usr/lib/wsl/lib/libcuda.so"));
  EXPECT_FALSE(search.hidden_from_cache("/usr/lib/wsl/lib", "libcuda.so"));
}

TEST(LibrarySearchCache, WithoutACacheTheDirectoryIsSearchedAsBefore) {
  test::TempTree t;
  write_wsl_tree(t, false);
  const Root root(t.path());
  const LibrarySearch search(root, Environment{});
  EXPECT_FALSE(search.cache_known());
  EXPECT_EQ(search.find("libcuda.so"), std::optional<std::string>("/usr/lib/wsl/lib/libcuda.so"));
}

TEST(LibrarySearchCache, TheRealCacheFileIsPreferred) {
  test::TempTree t;
  write_wsl_tree(t, false);
  t.write("etc/ld.so.cache", fixture_bytes("wsl-plain-files.cache"));
  const Root root(t.path());
  const LibrarySearch search(root, Environment{});
  EXPECT_EQ(search.cache_source(), "/etc/ld.so.cache");
  EXPECT_EQ(search.find("libcuda.so"), std::nullopt);
  EXPECT_TRUE(search.find("libcuda.so.1"));
}

}  // namespace
}  // namespace gpudoctor
