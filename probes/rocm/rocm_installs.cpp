// ROCm installs.
#include <array>
#include <set>

#include "core/paths.hpp"
#include "parse/kfd_topology.hpp"
#include "rocm/rocm_readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// rocm-core writes .info/version; older releases and split packages leave only the others.
constexpr std::array<const char*, 4> kVersionFiles = {
    ".info/version", ".info/version-dev", ".info/version-utils", ".info/version-hip-sdk"};

RocmInstall read_install(const Root& root, const std::string& path) {
  RocmInstall in;
  in.path = path;
  const std::string real = root.resolve(path);
  if (real != path) in.real_path = real;
  for (const char* file : kVersionFiles) {
    auto text = root.read(join_path(path, file), 4096);
    if (!text) continue;
    if (auto v = parse_rocm_version_file(*text)) {
      in.version = *v;
      in.version_file = file;
      break;
    }
  }
  return in;
}

}  // namespace

std::vector<RocmInstall> find_rocm_installs(const ProbeContext& ctx) {
  const Root& root = ctx.root;
  std::vector<std::string> candidates;
  if (auto p = ctx.env.get_nonempty("ROCM_PATH")) candidates.push_back(*p);
  candidates.emplace_back("/opt/rocm");
  for (const auto& name : root.list("/opt")) {
    if (starts_with(name, "rocm-")) candidates.push_back("/opt/" + name);
  }
  const std::string default_real = root.resolve("/opt/rocm");
  std::vector<RocmInstall> out;
  std::set<std::string> seen;
  for (const auto& path : candidates) {
    if (!root.is_directory(path) || !seen.insert(root.resolve(path)).second) continue;
    RocmInstall in = read_install(root, path);
    in.default_link = root.is_directory("/opt/rocm") && root.resolve(path) == default_real;
    out.push_back(std::move(in));
  }
  return out;
}

}  // namespace gpudoctor
