#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <set>

#include "core/library_search.hpp"
#include "environment.hpp"
#include "nvidia/nvidia_readers.hpp"
#include "parse/nvidia_toolkit.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// WSL2's driver libraries live here; the loader sees them only when ld.so.conf (ld.wsl.conf)
/// or LD_LIBRARY_PATH names the directory.
constexpr const char* kWslLibDir = "/usr/lib/wsl/lib";

}  // namespace

std::optional<int> elf_bits(const Root& paths, const std::string& path) {
  auto head = paths.read(path, 5);
  if (!head || head->size() < 5 || head->compare(0, 4, "\x7f" "ELF") != 0) return std::nullopt;
  if ((*head)[4] == 1) return 32;
  if ((*head)[4] == 2) return 64;
  return std::nullopt;
}

std::optional<ElfDynamic> read_elf_dynamic(const Root& paths, const std::string& path) {
  std::ifstream in(paths.host_path(paths.resolve(path)), std::ios::binary);
  if (!in) return std::nullopt;
  return parse_elf_dynamic([&in](std::uint64_t offset, std::size_t size) -> std::optional<std::string> {
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset));
    if (!in) return std::nullopt;
    std::string buf(size, '\0');
    in.read(buf.data(), static_cast<std::streamsize>(size));
    buf.resize(static_cast<std::size_t>(in.gcount()));
    return buf;
  });
}

std::vector<LibraryFile> find_loader_libraries(const ProbeContext& ctx, const Root& paths,
                                               const std::string& stem) {
  const LibrarySearch search(ctx.root, ctx.env);
  std::vector<std::pair<std::string, bool>> dirs;  // directory, on the loader's search path
  for (const auto& d : search.directories()) dirs.emplace_back(d, true);
  if (std::none_of(dirs.begin(), dirs.end(), [](const auto& d) { return d.first == kWslLibDir; })) {
    dirs.emplace_back(kWslLibDir, false);
  }

  std::vector<LibraryFile> out;
  std::set<std::string> seen_dirs;   // by real path: /lib/x86_64-linux-gnu is /usr/lib/… today
  std::set<std::string> seen_names;  // the first directory with a name wins
  for (const auto& [dir, searched] : dirs) {
    if (!seen_dirs.insert(paths.resolve(dir)).second) continue;
    for (const auto& name : paths.list(dir)) {
      if (name != stem && !starts_with(name, stem + ".")) continue;
      LibraryFile f;
      f.name = name;
      f.path = join_path(dir, name);
      const std::string real = paths.resolve(f.path);
      // A dangling link keeps real_path unknown; the name it points at still tells the version.
      if (paths.exists(real)) f.real_path = real;
      f.version = library_name_version(file_name(real), stem);
      f.stub = is_stub_path(f.path) || is_stub_path(real);
      f.hidden_from_cache = searched && search.hidden_from_cache(dir, name);
      // A file the loader cannot reach by its name shadows nothing.
      f.shadowed = !f.hidden_from_cache && !seen_names.insert(name).second;
      f.elf_bits = elf_bits(paths, real);
      f.on_search_path = searched && !f.hidden_from_cache;
      out.push_back(std::move(f));
    }
  }
  return out;
}

std::optional<std::string> find_on_path(const ProbeContext& ctx, const Root& paths,
                                        const std::string& name) {
  auto path = ctx.env.get_nonempty("PATH");
  if (!path) return std::nullopt;
  for (const auto& dir : split_path_list(*path)) {
    if (dir.empty() || dir.front() != '/') continue;  // relative entries depend on the cwd
    const std::string candidate = join_path(dir, name);
    const auto st = paths.stat_of(candidate);
    if (!st || !S_ISREG(st->st_mode)) continue;
    // Under a fixture root the execute bits are those of a checkout; a regular file will do.
    if (ctx.root.is_host() && (st->st_mode & 0111) == 0) continue;
    return candidate;
  }
  return std::nullopt;
}

}  // namespace gpudoctor
