#include "core/library_search.hpp"

#include <fnmatch.h>
#include <sys/utsname.h>

#include <algorithm>

#include "api/ld_so/ld_config.hpp"
#include "core/paths.hpp"

namespace gpudoctor {

LibrarySearch::LibrarySearch(const Root& root, const Environment& env) : root_(root) {
  if (auto v = env.get_nonempty("LD_LIBRARY_PATH")) {
    for (auto& d : split_path_list(*v)) {
      add_dir(d);
      searched_directly_.insert(d);
    }
  }
  add_conf("/etc/ld.so.conf", 0);
  std::vector<std::string> machines;
  utsname u{};
  if (root.is_host() && ::uname(&u) == 0) {
    machines.emplace_back(u.machine);
  } else {
    machines = {"x86_64", "aarch64", "ppc64le"};
  }
  for (const auto& m : machines) {
    for (auto& d : default_library_dirs(m)) {
      add_dir(d);
      searched_directly_.insert(d);
    }
  }
  read_cache();
}

void LibrarySearch::read_cache() {
  // The cache of a machine with many libraries is a few hundred KB; 16 MiB bounds a hostile one.
  constexpr std::size_t kMaxCache = 16u << 20;
  if (auto bytes = root_.read("/etc/ld.so.cache", kMaxCache)) {
    cache_ = parse_ld_so_cache(*bytes);
    if (cache_) cache_source_ = "/etc/ld.so.cache";
  }
  if (!cache_) {
    if (auto text = root_.read("/.gpudoctor/ldconfig-p.txt", kMaxCache)) {
      cache_ = parse_ldconfig_print(*text);
      if (cache_) cache_source_ = "/.gpudoctor/ldconfig-p.txt";
    }
  }
}

bool LibrarySearch::cache_only(const std::string& dir) const {
  return cache_ && searched_directly_.count(dir) == 0;
}

bool LibrarySearch::hidden_from_cache(const std::string& dir, const std::string& name) const {
  if (!cache_only(dir)) return false;
  const std::string real_dir = root_.resolve(dir);
  for (const auto& path : cache_->lookup(name)) {
    const std::string from = parent_path(path);
    if (from == dir || root_.resolve(from) == real_dir) return false;
  }
  return true;
}

void LibrarySearch::add_dir(const std::string& dir) {
  if (dir.empty()) return;
  if (std::find(dirs_.begin(), dirs_.end(), dir) == dirs_.end()) dirs_.push_back(dir);
}

void LibrarySearch::add_conf(const std::string& file, int depth) {
  // Each file once: a file that includes its own directory's *.conf would otherwise be read
  // again by every file it includes, n^depth times.
  if (depth > 8 || !confs_read_.insert(root_.resolve(file)).second) return;
  auto text = root_.read(file);
  if (!text) return;
  LdConfig conf = parse_ld_so_conf(*text);
  for (auto& d : conf.directories) add_dir(d);
  for (auto& pattern : conf.includes) {
    std::string pat = pattern;
    if (pat.front() != '/') {
      pat = file.substr(0, file.rfind('/') + 1) + pat;
    }
    std::string dir = pat.substr(0, pat.rfind('/'));
    std::string glob = pat.substr(pat.rfind('/') + 1);
    for (auto& name : root_.list(dir)) {
      if (::fnmatch(glob.c_str(), name.c_str(), 0) == 0) add_conf(dir + "/" + name, depth + 1);
    }
  }
}

std::vector<std::string> LibrarySearch::find_all(const std::string& name) const {
  std::vector<std::string> found;
  if (name.find('/') != std::string::npos) {
    if (root_.exists(name)) found.push_back(name);
    return found;
  }
  for (const auto& d : dirs_) {
    std::string p = d + "/" + name;
    if (root_.exists(p) && !hidden_from_cache(d, name)) found.push_back(p);
  }
  return found;
}

std::optional<std::string> LibrarySearch::find(const std::string& name) const {
  auto all = find_all(name);
  if (all.empty()) return std::nullopt;
  return all.front();
}

}  // namespace gpudoctor
