#include "checks/arch_facts.hpp"

#include <algorithm>

#include "compat/compat_data.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// "torch/lib/libtorch_cuda.so": the library's path under its site-packages directory.
std::string short_path(const PythonPackage& pkg, const GpuCodeLibrary& lib) {
  const std::string prefix = pkg.location + "/";
  return starts_with(lib.path, prefix) ? lib.path.substr(prefix.size()) : lib.path;
}

std::string list_or_none(const std::vector<std::string>& v) {
  return v.empty() ? "none" : join(v, ", ");
}

/// Union of two target lists, in the order of the number in the name ("sm_75" < "sm_100").
void add_all(std::vector<std::string>& to, const std::vector<std::string>& from) {
  for (const auto& s : from) {
    if (std::find(to.begin(), to.end(), s) == to.end()) to.push_back(s);
  }
  std::stable_sort(to.begin(), to.end(), [](const std::string& a, const std::string& b) {
    auto x = parse_sm(a);
    auto y = parse_sm(b);
    return x && y && compare_cc(*x, *y) < 0;
  });
}

}  // namespace

bool carries_cuda(const PythonPackage& pkg) {
  for (const auto& lib : pkg.gpu_code) {
    if (lib.cuda_fatbins && *lib.cuda_fatbins > 0) return true;
  }
  return false;
}

std::optional<CudaCode> files_code(const PythonPackage& pkg) {
  CudaCode code;
  for (const auto& lib : pkg.gpu_code) {
    if (lib.error || !lib.cuda_fatbins || *lib.cuda_fatbins == 0) continue;
    code.parts.push_back({"read from " + short_path(pkg, lib), lib.sass, lib.ptx,
                          *lib.cuda_fatbins});
    code.evidence.push_back(short_path(pkg, lib) + " (read from the file): SASS " +
                            list_or_none(lib.sass) + "; PTX " + list_or_none(lib.ptx));
  }
  if (code.parts.empty()) return std::nullopt;
  return code;
}

std::optional<AmdgpuCode> files_amdgpu(const PythonPackage& pkg) {
  AmdgpuCode code;
  for (const auto& lib : pkg.gpu_code) {
    if (lib.error || lib.amdgpu.empty()) continue;
    add_all(code.targets, lib.amdgpu);
    code.evidence.push_back(short_path(pkg, lib) + " (read from the file): " +
                            join(lib.amdgpu, ", "));
  }
  if (code.targets.empty()) return std::nullopt;
  return code;
}

std::vector<std::string> unread_libraries(const PythonPackage& pkg) {
  std::vector<std::string> out;
  for (const auto& lib : pkg.gpu_code) {
    if (lib.error) out.push_back(short_path(pkg, lib) + " could not be read: " + *lib.error);
    if (lib.compressed_bundles && *lib.compressed_bundles > 0 && lib.amdgpu.empty()) {
      out.push_back(short_path(pkg, lib) + " holds compressed offload bundles: their targets " +
                    "were not read");
    }
  }
  return out;
}

std::string wheel_platform(const PythonPackage& pkg) {
  for (const auto& tag : pkg.wheel_tags) {
    if (tag.find("win") != std::string::npos) return "windows-x86_64";
    if (tag.find("aarch64") != std::string::npos) return "linux-aarch64";
  }
  return "linux-x86_64";
}

}  // namespace gpudoctor
