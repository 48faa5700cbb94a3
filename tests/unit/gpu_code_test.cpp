// The binary readers (src/binary) on libraries built here by nvcc and clang (tests/gpu_code),
// checked against cuobjdump's listing of the same builds (tests/gpu_code/cuobjdump.txt, and
// cuobjdump itself when it is installed) and against clang-offload-bundler -list; then on
// malformed input, which must give an error and never a crash or a hang.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "binary/elf_sections.hpp"
#include "binary/fatbin.hpp"
#include "binary/gpu_code.hpp"
#include "binary/offload_bundle.hpp"

namespace gpudoctor::binary {
namespace {

namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string lib_path(const std::string& name) { return std::string(GPUDOCTOR_GPU_CODE) + "/" + name; }

std::set<std::string> as_set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

/// Output of a command, empty when it cannot run.
std::string run(const std::string& cmd) {
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
    ::pclose(p);
  }
  return out;
}

/// cuobjdump's listing of one library: target → how many files it lists.
struct Listing {
  std::map<std::string, int> elf;
  std::map<std::string, int> ptx;
};

/// tests/gpu_code/cuobjdump.txt: "<library> elf|ptx <target> <count>" lines.
std::map<std::string, Listing> golden_listings() {
  std::map<std::string, Listing> out;
  std::istringstream in(slurp(std::string(GPUDOCTOR_GPU_CODE_SRC) + "/cuobjdump.txt"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string lib, kind, target;
    int count = 0;
    words >> lib >> kind >> target >> count;
    (kind == "elf" ? out[lib].elf : out[lib].ptx)[target] = count;
  }
  return out;
}

/// Parses `cuobjdump --list-elf` / `--list-ptx` lines ("ELF file 1: x.1.sm_80.cubin").
Listing parse_cuobjdump(const std::string& elf, const std::string& ptx) {
  Listing l;
  auto take = [](const std::string& text, const char* ext, std::map<std::string, int>& to) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      const auto end = line.rfind(ext);
      const auto dot = end == std::string::npos ? end : line.rfind('.', end - 1);
      if (dot == std::string::npos) continue;
      ++to[line.substr(dot + 1, end - dot - 1)];
    }
  };
  take(elf, ".cubin", l.elf);
  take(ptx, ".ptx", l.ptx);
  return l;
}

/// What the reader found, in cuobjdump's words: it prints a family-specific cubin (sm_100f)
/// without its "f" (the entry's flags carry it; the PTX of one keeps it), and names PTX "sm_".
Listing reader_listing(const FatbinScan& scan) {
  Listing l;
  for (auto s : scan.sass) {
    if (s.back() == 'f') s.pop_back();
    l.elf[s] = 0;
  }
  for (const auto& p : scan.ptx) l.ptx["sm_" + p.substr(8)] = 0;
  return l;
}

std::set<std::string> keys(const std::map<std::string, int>& m) {
  std::set<std::string> out;
  for (const auto& [k, v] : m) out.insert(k);
  return out;
}

int total(const std::map<std::string, int>& m) {
  int n = 0;
  for (const auto& [k, v] : m) n += v;
  return n;
}

FatbinScan scan_library(const std::string& bytes) {
  const ByteSource src = bytes_source(bytes);
  ElfFile elf = read_elf_sections(src);
  EXPECT_FALSE(elf.error) << *elf.error;
  const ElfSection* s = find_section(elf, ".nv_fatbin");
  if (s == nullptr) return {};
  return scan_fatbins(src, s->offset, s->size);
}

std::string cuobjdump_path() {
  if (const char* env = std::getenv("GPUDOCTOR_CUOBJDUMP")) return env;
  for (const char* p : {"/usr/local/cuda/bin/cuobjdump"}) {
    if (fs::exists(p)) return p;
  }
  const std::string on_path = run("command -v cuobjdump 2>/dev/null");
  return on_path.empty() ? "" : on_path.substr(0, on_path.find('\n'));
}

TEST(GpuCodeNvcc, EveryLibraryMatchesCuobjdumpsListing) {
  const auto golden = golden_listings();
  ASSERT_FALSE(golden.empty());
  const std::string cuobjdump = cuobjdump_path();
  if (cuobjdump.empty()) {
    std::printf("cuobjdump not found (pip install nvidia-cuda-cuobjdump, or set "
                "GPUDOCTOR_CUOBJDUMP): compared with tests/gpu_code/cuobjdump.txt only\n");
  }
  int compared = 0;
  for (const auto& [name, want] : golden) {
    const std::string path = lib_path(name);
    if (!fs::exists(path)) {
      std::printf("%s not built (no CUDA 13 nvcc at build time): skipped\n", name.c_str());
      continue;
    }
    const FatbinScan scan = scan_library(slurp(path));
    EXPECT_FALSE(scan.error) << name << ": " << *scan.error;
    const Listing got = reader_listing(scan);
    EXPECT_EQ(keys(got.elf), keys(want.elf)) << name;
    EXPECT_EQ(keys(got.ptx), keys(want.ptx)) << name;
    EXPECT_EQ(scan.sass_entries, static_cast<std::uint64_t>(total(want.elf))) << name;
    EXPECT_EQ(scan.ptx_entries, static_cast<std::uint64_t>(total(want.ptx))) << name;
    if (!cuobjdump.empty()) {
      const Listing live = parse_cuobjdump(run(cuobjdump + " --list-elf " + path + " 2>/dev/null"),
                                           run(cuobjdump + " --list-ptx " + path + " 2>/dev/null"));
      EXPECT_EQ(live.elf, want.elf) << name << ": cuobjdump today differs from the golden listing";
      EXPECT_EQ(live.ptx, want.ptx) << name;
    }
    ++compared;
  }
  if (compared == 0) GTEST_SKIP() << "no nvcc-built library: nvcc 13 was not found at build time";
}

TEST(GpuCodeNvcc, TargetsAreWhatTheGencodeFlagsAskedFor) {
  // Independent of cuobjdump: what CMakeLists.txt asks nvcc for (-gencode code=…).
  const std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> asked = {
      {"libfatbin_sass_only.so", {{"sm_75", "sm_80", "sm_90"}, {}}},
      {"libfatbin_ptx_only.so", {{}, {"compute_80"}}},
      {"libfatbin_sass_and_ptx.so", {{"sm_75", "sm_86"}, {"compute_90"}}},
      {"libfatbin_suffixes.so", {{"sm_90a", "sm_100f", "sm_103", "sm_120a"}, {"compute_110f"}}},
      {"libfatbin_compressed.so", {{"sm_80", "sm_89"}, {"compute_89"}}},
      {"libfatbin_lto.so", {{"sm_80"}, {}}},
  };
  int seen = 0;
  for (const auto& [name, targets] : asked) {
    if (!fs::exists(lib_path(name))) continue;
    const std::string bytes = slurp(lib_path(name));
    GpuCodeLibrary lib = read_gpu_code(bytes_source(bytes), name);
    EXPECT_FALSE(lib.error) << name;
    // nvcc's device-link step adds a container of its own for the cubin targets.
    EXPECT_GE(lib.cuda_fatbins.value_or(0), 2u) << name;
    EXPECT_EQ(as_set(lib.sass), targets.first) << name;
    EXPECT_EQ(as_set(lib.ptx), targets.second) << name;
    if (name == "libfatbin_lto.so") {
      EXPECT_EQ(lib.lto, std::vector<std::string>{"lto_89"});
    }
    if (name == "libfatbin_compressed.so") {
      FatbinScan scan = scan_library(bytes);
      EXPECT_EQ(scan.compressed_entries, scan.entries);
    }
    ++seen;
  }
  if (seen == 0) GTEST_SKIP() << "no nvcc-built library: nvcc 13 was not found at build time";
}

/// A 32-bit little-endian ELF with one section `name` holding `body`, and its name table.
std::string elf32_with(const std::string& name, const std::string& body) {
  auto u16 = [](std::string& s, std::size_t at, std::uint16_t v) {
    s[at] = static_cast<char>(v & 0xff);
    s[at + 1] = static_cast<char>(v >> 8);
  };
  auto u32 = [&](std::string& s, std::size_t at, std::uint32_t v) {
    u16(s, at, v & 0xffff);
    u16(s, at + 2, v >> 16);
  };
  const std::string names = std::string("\0", 1) + name + '\0' + ".shstrtab" + '\0';
  std::string f(52, '\0');
  f.replace(0, 7, "\x7f" "ELF\x01\x01\x01");
  u16(f, 16, 3);   // ET_DYN
  u16(f, 18, 3);   // EM_386
  const std::size_t body_at = f.size();
  f += body;
  while (f.size() % 4) f += '\0';
  const std::size_t names_at = f.size();
  f += names;
  while (f.size() % 4) f += '\0';
  const std::size_t shoff = f.size();
  std::string table(3 * 40, '\0');
  u32(table, 40 + 0, 1);  // name offset of `name`
  u32(table, 40 + 4, 1);  // SHT_PROGBITS
  u32(table, 40 + 16, static_cast<std::uint32_t>(body_at));
  u32(table, 40 + 20, static_cast<std::uint32_t>(body.size()));
  u32(table, 80 + 0, static_cast<std::uint32_t>(name.size() + 2));
  u32(table, 80 + 4, 3);  // SHT_STRTAB
  u32(table, 80 + 16, static_cast<std::uint32_t>(names_at));
  u32(table, 80 + 20, static_cast<std::uint32_t>(names.size()));
  f += table;
  u32(f, 0x20, static_cast<std::uint32_t>(shoff));
  u16(f, 0x2e, 40);
  u16(f, 0x30, 3);
  u16(f, 0x32, 2);
  return f;
}

/// The .nv_fatbin section of an nvcc-built test library; empty when it was not built.
std::string nv_fatbin_of(const std::string& name) {
  if (!fs::exists(lib_path(name))) return {};
  const std::string bytes = slurp(lib_path(name));
  ElfFile elf = read_elf_sections(bytes_source(bytes));
  const ElfSection* s = find_section(elf, ".nv_fatbin");
  return s == nullptr ? std::string() : bytes.substr(s->offset, s->size);
}

TEST(GpuCodeNvcc, Elf32LibraryWithTheSameFatbinariesReadsTheSame) {
  const std::string section = nv_fatbin_of("libfatbin_sass_and_ptx.so");
  if (section.empty()) GTEST_SKIP() << "libfatbin_sass_and_ptx.so not built (no CUDA 13 nvcc)";
  const std::string wrapped = elf32_with(".nv_fatbin", section);
  GpuCodeLibrary lib = read_gpu_code(bytes_source(wrapped), "lib32.so");
  EXPECT_FALSE(lib.error);
  EXPECT_EQ(lib.sass, (std::vector<std::string>{"sm_75", "sm_86"}));
  EXPECT_EQ(lib.ptx, std::vector<std::string>{"compute_90"});
}

TEST(GpuCodeNvcc, EveryTruncationIsAnErrorOrASubsetNeverACrash) {
  const std::string section = nv_fatbin_of("libfatbin_sass_and_ptx.so");
  if (section.empty()) GTEST_SKIP() << "libfatbin_sass_and_ptx.so not built (no CUDA 13 nvcc)";
  const std::string bytes = slurp(lib_path("libfatbin_sass_and_ptx.so"));
  for (std::size_t cut = 0; cut < section.size(); cut += 7) {
    const std::string part = section.substr(0, cut);
    FatbinScan scan = scan_fatbins(bytes_source(part), 0, part.size());
    if (!scan.error) {
      EXPECT_LE(scan.sass.size(), 2u) << cut;
    }
  }
  // The file itself cut short: the section table sits at the end, so the ELF read fails.
  for (std::size_t cut : {std::size_t{0}, std::size_t{10}, std::size_t{100}, bytes.size() / 2}) {
    GpuCodeLibrary lib = read_gpu_code(bytes_source(bytes.substr(0, cut)), "cut.so");
    EXPECT_TRUE(lib.error) << cut;
  }
}

std::string le64(std::uint64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  return s;
}

std::string fatbin_header(std::uint64_t body, std::uint16_t header = 16) {
  std::string h("\x50\xed\x55\xba\x01\x00", 6);
  h += static_cast<char>(header & 0xff);
  h += static_cast<char>(header >> 8);
  return h + le64(body);
}

/// One entry header: kind, header size, payload size, arch and flags where the reader looks.
std::string entry(std::uint16_t kind, std::uint32_t header, std::uint64_t payload,
                  std::uint32_t arch, std::uint64_t flags) {
  std::string e(64, '\0');
  e[0] = static_cast<char>(kind);
  for (int i = 0; i < 4; ++i) e[4 + i] = static_cast<char>((header >> (8 * i)) & 0xff);
  e.replace(8, 8, le64(payload));
  for (int i = 0; i < 4; ++i) e[28 + i] = static_cast<char>((arch >> (8 * i)) & 0xff);
  e.replace(40, 8, le64(flags));
  return e;
}

TEST(GpuCodeMalformed, FatbinHeadersThatLieStopTheWalkWithAnError) {
  struct Case {
    const char* what;
    std::string bytes;
  };
  const std::vector<Case> cases = {
      {"container larger than the section", fatbin_header(1ull << 40)},
      {"size that wraps around", fatbin_header(~0ull - 8)},
      {"entry header size 0", fatbin_header(64) + entry(2, 0, 0, 80, 0)},
      {"entry header size 1 GB", fatbin_header(64) + entry(2, 1u << 30, 0, 80, 0)},
      {"entry payload past its container", fatbin_header(64) + entry(2, 64, 1 << 20, 80, 0)},
      {"container header size below 16", fatbin_header(0, 4)},
      {"not a fatbinary", std::string(16, 'x')},
      {"version 2", std::string("\x50\xed\x55\xba\x02\x00\x10\x00", 8) + le64(0)},
      {"more padding than allowed", std::string(2 << 20, '\0') + fatbin_header(0)},
  };
  for (const auto& c : cases) {
    FatbinScan scan = scan_fatbins(bytes_source(c.bytes), 0, c.bytes.size());
    EXPECT_TRUE(scan.error) << c.what;
    EXPECT_TRUE(scan.sass.empty()) << c.what;
  }
  // What precedes a bad container is kept.
  const std::string good = fatbin_header(64) + entry(2, 64, 0, 86, 0);
  FatbinScan scan = scan_fatbins(bytes_source(good + "garbage!"), 0, good.size() + 8);
  EXPECT_TRUE(scan.error);
  EXPECT_EQ(scan.sass, std::vector<std::string>{"sm_86"});
  // A region past the end of the source.
  EXPECT_TRUE(scan_fatbins(bytes_source(good), 8, good.size()).error);
}

TEST(GpuCodeMalformed, ElfHeadersThatLieAreErrors) {
  std::string elf64(64, '\0');
  elf64.replace(0, 6, "\x7f" "ELF\x02\x01");
  auto with = [&](std::size_t at, std::string v) {
    std::string e = elf64;
    e.replace(at, v.size(), v);
    return e;
  };
  const std::vector<std::pair<const char*, std::string>> cases = {
      {"empty", ""},
      {"not ELF", "MZ\x90\x00"},
      {"big-endian", std::string("\x7f" "ELF\x02\x02", 6) + std::string(58, '\0')},
      {"class 3", std::string("\x7f" "ELF\x03\x01", 6) + std::string(58, '\0')},
      {"no section table", elf64},
      {"table past the end", with(0x28, le64(1ull << 40)) .replace(0x3a, 4, "\x40\x00\x10\x00", 4)},
      {"entry size 0", with(0x28, le64(64)).replace(0x3c, 2, "\x01\x00", 2)},
  };
  for (const auto& [what, bytes] : cases) {
    ElfFile elf = read_elf_sections(bytes_source(bytes));
    EXPECT_TRUE(elf.error) << what;
    EXPECT_TRUE(elf.sections.empty()) << what;
  }
}

/// An uncompressed bundle with the given entry IDs, each entry `size` bytes long.
std::string bundle(const std::vector<std::string>& ids, std::uint64_t size = 0) {
  std::string b = "__CLANG_OFFLOAD_BUNDLE__" + le64(ids.size());
  std::uint64_t header = b.size();
  for (const auto& id : ids) header += 24 + id.size();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    b += le64(header + i * size) + le64(size) + le64(ids[i].size()) + ids[i];
  }
  return b + std::string(ids.size() * size, 'c');
}

TEST(GpuCodeMalformed, OffloadBundlesThatLieStopWithAnError) {
  const std::vector<std::pair<const char*, std::string>> cases = {
      {"2^60 entries", "__CLANG_OFFLOAD_BUNDLE__" + le64(1ull << 60)},
      {"entry past the section", "__CLANG_OFFLOAD_BUNDLE__" + le64(1) + le64(0) + le64(1ull << 50) +
                                     le64(4) + "gfx9"},
      {"ID of 1 TB", "__CLANG_OFFLOAD_BUNDLE__" + le64(1) + le64(0) + le64(0) + le64(1ull << 40)},
      {"cut inside the table", bundle({"hipv4-amdgcn-amd-amdhsa--gfx90a"}).substr(0, 40)},
      {"unknown bytes", "not a bundle at all"},
  };
  for (const auto& [what, bytes] : cases) {
    BundleScan scan = scan_offload_bundles(bytes_source(bytes), 0, bytes.size());
    EXPECT_TRUE(scan.error) << what;
    EXPECT_TRUE(scan.targets.empty()) << what;
  }
}

TEST(GpuCodeBundles, CompressedBundlesAreCountedNotGuessed) {
  // LLVM's compressed layout: "CCOB", u16 version, u16 method, then v2: u32 total size, v3: u64.
  auto ccob = [](std::uint16_t version, std::uint64_t total) {
    std::string h = "CCOB";
    h += static_cast<char>(version);
    h += '\0';
    h += std::string("\x01\x00", 2);  // zstd
    if (version == 2) {
      h += le64(total).substr(0, 4) + le64(total).substr(0, 4);
    } else {
      h += le64(total) + le64(total);
    }
    h += le64(0x1234);
    return h + std::string(total - h.size(), 'z');
  };
  const std::string plain = bundle({"host-x86_64-unknown-linux", "hipv4-amdgcn-amd-amdhsa--gfx1030"}, 16);
  const std::string section = ccob(2, 64) + ccob(3, 80) + std::string(32, '\0') + plain;
  BundleScan scan = scan_offload_bundles(bytes_source(section), 0, section.size());
  EXPECT_FALSE(scan.error) << *scan.error;
  EXPECT_EQ(scan.compressed, 2u);
  EXPECT_EQ(scan.bundles, 1u);
  EXPECT_EQ(scan.targets, std::vector<std::string>{"gfx1030"});
  // Version 1 records no size: what follows cannot be reached, and the scan says so.
  const std::string v1 = std::string("CCOB\x01\x00\x01\x00", 8) + std::string(64, 'z') + plain;
  BundleScan old = scan_offload_bundles(bytes_source(v1), 0, v1.size());
  EXPECT_TRUE(old.error);
  EXPECT_EQ(old.compressed, 1u);
  EXPECT_TRUE(old.targets.empty());
}

TEST(GpuCodeBundles, EntryIdsNameTheirTarget) {
  EXPECT_EQ(amdgpu_target_id("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-"), "gfx90a:xnack-");
  EXPECT_EQ(amdgpu_target_id("hip-amdgcn-amd-amdhsa-gfx906"), "gfx906");
  EXPECT_EQ(amdgpu_target_id("hipv4-amdgcn-amd-amdhsa--gfx10-3-generic"), "gfx10-3-generic");
  EXPECT_EQ(amdgpu_target_id("openmp-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"),
            "gfx942:sramecc+:xnack-");
  EXPECT_FALSE(amdgpu_target_id("host-x86_64-unknown-linux"));
  EXPECT_FALSE(amdgpu_target_id("openmp-nvptx64-nvidia-cuda--sm_70"));
  EXPECT_EQ(gfx_processor("gfx90a:xnack-"), "gfx90a");
}

/// The AMD targets clang-offload-bundler -list names in a bundle file.
std::set<std::string> bundler_list(const std::string& file) {
  std::set<std::string> out;
  std::istringstream in(run(std::string(GPUDOCTOR_OFFLOAD_BUNDLER) +
                            " -list -type=o -inputs=" + file + " 2>/dev/null"));
  std::string line;
  while (std::getline(in, line)) {
    if (auto t = amdgpu_target_id(line)) out.insert(*t);
  }
  return out;
}

TEST(GpuCodeBundles, ClangBuiltBundlesMatchClangOffloadBundler) {
  const std::string hipfb = lib_path("kernels.hipfb");
  const std::string so = lib_path("libhip_kernels.so");
  if (!fs::exists(hipfb) || !fs::exists(so)) {
    GTEST_SKIP() << "clang-14 / clang-offload-bundler were not found at build time "
                    "(Debian: clang-14, clang-tools-14)";
  }
  const std::set<std::string> want = {"gfx1030", "gfx803", "gfx906", "gfx90a:xnack-"};
  const std::string bytes = slurp(hipfb);
  BundleScan scan = scan_offload_bundles(bytes_source(bytes), 0, bytes.size());
  EXPECT_FALSE(scan.error);
  EXPECT_EQ(as_set(scan.targets), want);
  EXPECT_EQ(bundler_list(hipfb), want);
  // The library clang's HIP driver links: one bundle per translation unit in .hip_fatbin.
  GpuCodeLibrary lib = read_gpu_code(bytes_source(slurp(so)), so);
  EXPECT_FALSE(lib.error);
  EXPECT_EQ(as_set(lib.amdgpu), want);
  EXPECT_EQ(lib.offload_bundles, 2u);
  EXPECT_EQ(lib.compressed_bundles, 0u);
  EXPECT_FALSE(lib.cuda_fatbins);
}

}  // namespace
}  // namespace gpudoctor::binary
