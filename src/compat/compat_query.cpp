#include "compat/compat_query.hpp"

#include <algorithm>

#include "text.hpp"

namespace gpudoctor {

namespace {

/// Lower-case words of a device name, split on blanks and punctuation, vendor words dropped.
std::vector<std::string> name_words(std::string_view name) {
  std::string s = to_lower(name);
  for (char& c : s) {
    if (c == '-' || c == '_' || c == '/' || c == '(' || c == ')' || c == ',' || c == '[' ||
        c == ']') {
      c = ' ';
    }
  }
  std::vector<std::string> words;
  for (std::string& w : split_words(s)) {
    if (w != "nvidia" && w != "amd") words.push_back(std::move(w));
  }
  return words;
}

bool contains_words(const std::vector<std::string>& hay, const std::vector<std::string>& needle) {
  if (needle.empty() || needle.size() > hay.size()) return false;
  for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    if (std::equal(needle.begin(), needle.end(), hay.begin() + static_cast<std::ptrdiff_t>(i))) {
      return true;
    }
  }
  return false;
}

/// Index of the row whose name is the longest whole-word match in `device_name`.
template <typename Row, typename Name>
std::optional<std::size_t> best_name_match(const std::vector<Row>& rows,
                                           std::string_view device_name, Name name_of) {
  std::vector<std::string> hay = name_words(device_name);
  std::optional<std::size_t> best;
  std::size_t best_words = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::string> needle = name_words(name_of(rows[i]));
    if (needle.size() > best_words && contains_words(hay, needle)) {
      best = i;
      best_words = needle.size();
    }
  }
  return best;
}

Version major_only(const Version& v) {
  Version m;
  m.parts = {v.parts.empty() ? 0u : v.parts[0]};
  m.text = std::to_string(m.parts[0]);
  return m;
}

bool cc_in(const VersionRange& range, const Version& cc) { return in_range(cc, range); }

}  // namespace

std::optional<CudaDriverMinimum> min_driver_for_cuda(const CompatData& data, const Version& cuda,
                                                     CompatOs os) {
  const CudaDriverMinimum* best_at_or_below = nullptr;
  const CudaDriverMinimum* first_of_minor = nullptr;
  auto better = [](const CudaDriverMinimum* have, const CudaDriverMinimum& row, bool newest) {
    if (!have) return true;
    int c = compare_versions(row.cuda, have->cuda);
    if (c != 0) return newest ? c > 0 : c < 0;
    return row.basis == DriverBasis::kReleaseNotes && have->basis != DriverBasis::kReleaseNotes;
  };
  for (const CudaDriverMinimum& row : data.cuda_driver_minimums) {
    if (row.os != os || !same_minor(row.cuda, cuda)) continue;
    if (compare_versions(row.cuda, cuda) <= 0 && better(best_at_or_below, row, true)) {
      best_at_or_below = &row;
    }
    if (better(first_of_minor, row, false)) first_of_minor = &row;
  }
  if (best_at_or_below) return *best_at_or_below;
  if (first_of_minor) return *first_of_minor;
  return std::nullopt;
}

std::optional<MinorCompatMinimum> minor_compat_for_cuda(const CompatData& data, const Version& cuda,
                                                        CompatOs os) {
  for (const MinorCompatMinimum& row : data.cuda_minor_version_compat) {
    if (row.os == os && in_range(major_only(cuda), row.cuda)) return row;
  }
  return std::nullopt;
}

std::optional<DriverBranchMaxCuda> max_cuda_for_driver(const CompatData& data,
                                                       const Version& driver) {
  if (driver.parts.empty()) return std::nullopt;
  const DriverBranchMaxCuda* best = nullptr;
  for (const DriverBranchMaxCuda& row : data.driver_branch_max_cuda) {
    if (static_cast<std::uint32_t>(row.branch) > driver.parts[0]) continue;
    if (!best || row.branch > best->branch) best = &row;
  }
  if (!best) return std::nullopt;
  return *best;
}

std::optional<ArchRange> arch_range_for_cuda(const CompatData& data, const Version& cuda) {
  std::optional<ArchRange> out;
  for (const CudaArch& row : data.cuda_arch_range) {
    if (!row.first_cuda || compare_to_bound(cuda, *row.first_cuda) < 0) continue;
    if (row.last_cuda && compare_to_bound(cuda, *row.last_cuda) > 0) continue;
    ComputeCapability plain{row.cc.major, row.cc.minor, ""};
    if (!out) {
      out = ArchRange{plain, plain, {}};
    } else {
      if (compare_cc(plain, out->min) < 0) out->min = plain;
      if (compare_cc(plain, out->max) > 0) out->max = plain;
    }
    out->sms.push_back(row.sm);
  }
  return out;
}

std::optional<GpuModel> compute_capability_for_model(const CompatData& data,
                                                     std::string_view device_name) {
  auto model = [](const GpuModel& m) { return m.model; };
  auto i = best_name_match(data.gpu_models, device_name, model);
  if (!i) {
    // A board named as people write it, without "GeForce" ("RTX 2070", "NVIDIA GTX 1080 Ti"):
    // the table names GeForce boards in full.
    std::string_view n = device_name;
    if (starts_with(n, "NVIDIA ")) n.remove_prefix(7);
    if (starts_with(n, "RTX ") || starts_with(n, "GTX ")) {
      i = best_name_match(data.gpu_models, "GeForce " + std::string(n), model);
    }
  }
  if (!i) return std::nullopt;
  return data.gpu_models[*i];
}

std::optional<GpuModel> compute_capability_for_pci(const CompatData& data, std::uint16_t vendor_id,
                                                   std::uint16_t device_id) {
  for (const GpuPciId& id : data.gpu_pci_ids) {
    if (id.vendor_id != vendor_id || id.device_id != device_id) continue;
    for (const GpuModel& m : data.gpu_models) {
      if (m.model == id.model) return m;
    }
  }
  return std::nullopt;
}

std::string nvidia_chip_key(std::string_view chip) {
  std::size_t i = 0;
  while (i < chip.size() && chip[i] >= 'A' && chip[i] <= 'Z') ++i;
  const std::size_t letters = i;
  while (i < chip.size() && chip[i] >= '0' && chip[i] <= '9') ++i;
  if (letters == 0 || i == letters) return "";
  return std::string(chip.substr(0, i));
}

std::optional<GpuChip> compute_capability_for_chip(const CompatData& data, std::string_view chip) {
  const std::string key = nvidia_chip_key(chip);
  if (key.empty()) return std::nullopt;
  for (const GpuChip& c : data.gpu_chips) {
    if (c.chip == key) return c;
  }
  return std::nullopt;
}

std::vector<CudnnSupport> cudnn_support(const CompatData& data, const Version& cudnn,
                                        const std::optional<Version>& cuda) {
  std::vector<CudnnSupport> out;
  for (const CudnnSupport& row : data.cudnn) {
    if (!in_range(cudnn, row.cudnn)) continue;
    if (cuda) {
      if (!in_range(*cuda, row.cuda)) continue;
      bool excluded = false;
      for (const Version& v : row.cuda_excluded)
        excluded = excluded || compare_to_bound(*cuda, v) == 0;
      if (excluded) continue;
    }
    out.push_back(row);
  }
  // Narrowest CUDA range first: the 12.8-12.9 row before the 12.0-12.9 one.
  auto width = [](const CudnnSupport& r) {
    if (!r.cuda.min || !r.cuda.max) return 1e9;
    auto at = [](const Version& v, std::size_t i) { return i < v.parts.size() ? v.parts[i] : 0u; };
    return (at(*r.cuda.max, 0) * 100.0 + at(*r.cuda.max, 1)) -
           (at(*r.cuda.min, 0) * 100.0 + at(*r.cuda.min, 1));
  };
  std::stable_sort(out.begin(), out.end(), [&](const CudnnSupport& a, const CudnnSupport& b) {
    return width(a) < width(b);
  });
  return out;
}

std::optional<bool> cudnn_supports_cc(const CudnnSupport& row, const Version& cc) {
  if (row.compute_capability.empty()) return std::nullopt;
  for (const VersionRange& r : row.compute_capability) {
    if (cc_in(r, cc)) return true;
  }
  return false;
}

std::optional<TensorflowBuild> tensorflow_tested_build(const CompatData& data, const Version& tf,
                                                       CompatOs os, bool gpu) {
  const TensorflowBuild* best = nullptr;
  for (const TensorflowBuild& row : data.tensorflow) {
    if (row.os != os || row.gpu != gpu || !same_minor(row.version, tf)) continue;
    if (!best || row.version > best->version) best = &row;
  }
  if (!best) return std::nullopt;
  return *best;
}

std::optional<TorchRelease> torch_release(const CompatData& data, const Version& torch) {
  for (const TorchRelease& row : data.torch_releases) {
    if (same_minor(row.torch, torch)) return row;
  }
  return std::nullopt;
}

std::optional<TorchArchs> torch_archs(const CompatData& data, const Version& torch,
                                      const Version& cuda, std::string_view platform) {
  for (const TorchArchs& row : data.torch_archs) {
    if (row.platform == platform && same_minor(row.cuda, cuda) && in_range(torch, row.torch)) {
      return row;
    }
  }
  return std::nullopt;
}

std::optional<TorchMps> torch_mps_min_macos(const CompatData& data, const Version& torch) {
  for (const TorchMps& row : data.torch_mps) {
    if (in_range(torch, row.torch)) return row;
  }
  return std::nullopt;
}

std::optional<JaxPlugin> jax_plugin_requirements(const CompatData& data, std::string_view plugin,
                                                 const std::optional<Version>& jax) {
  const JaxPlugin* current = nullptr;  // the row without a release range
  const JaxPlugin* newest = nullptr;   // the range row with the highest floor
  for (const JaxPlugin& row : data.jax) {
    if (row.plugin != plugin) continue;
    if (!row.jax) {
      current = &row;
      continue;
    }
    if (jax && in_range(*jax, *row.jax)) return row;
    if (!newest || (row.jax->min && (!newest->jax->min || *row.jax->min > *newest->jax->min))) {
      newest = &row;
    }
  }
  if (current) return *current;
  if (!jax && newest) return *newest;
  return std::nullopt;
}

std::optional<TensorflowMetal> tensorflow_metal_requirements(const CompatData& data,
                                                             const Version& tf) {
  for (const TensorflowMetal& row : data.tensorflow_metal) {
    if (in_range(tf, row.tensorflow)) return row;
  }
  return std::nullopt;
}

std::optional<TensorflowMetalRelease> tensorflow_metal_release(const CompatData& data,
                                                               const Version& plugin) {
  for (const TensorflowMetalRelease& row : data.tensorflow_metal_releases) {
    if (row.plugin == plugin) return row;
  }
  return std::nullopt;
}

std::optional<TensorflowMetalRelease> tensorflow_metal_for_tf(const CompatData& data,
                                                              const Version& tf) {
  const TensorflowMetalRelease* best = nullptr;
  for (const TensorflowMetalRelease& row : data.tensorflow_metal_releases) {
    if (in_range(tf, row.tensorflow) && (!best || row.plugin > best->plugin)) best = &row;
  }
  if (!best) return std::nullopt;
  return *best;
}

std::optional<RocmRelease> rocm_release(const CompatData& data, const Version& rocm) {
  for (const RocmRelease& row : data.rocm_releases) {
    std::size_t n = std::max(row.rocm.parts.size(), rocm.parts.size());
    bool same = true;
    for (std::size_t i = 0; i < n; ++i) {
      auto at = [i](const Version& v) { return i < v.parts.size() ? v.parts[i] : 0u; };
      same = same && at(row.rocm) == at(rocm);
    }
    if (same) return row;
  }
  return std::nullopt;
}


std::optional<RocmOverride> rocm_override(const CompatData& data, std::string_view gfx) {
  for (const RocmOverride& row : data.rocm_overrides) {
    if (std::find(row.gfx.begin(), row.gfx.end(), gfx) != row.gfx.end()) return row;
  }
  return std::nullopt;
}

std::vector<RocmOverride> rocm_overrides(const CompatData& data, std::string_view gfx) {
  std::vector<RocmOverride> out;
  for (const RocmOverride& row : data.rocm_overrides) {
    if (std::find(row.gfx.begin(), row.gfx.end(), gfx) != row.gfx.end()) out.push_back(row);
  }
  return out;
}

std::optional<RocmApuTargets> rocm_apu(const CompatData& data, std::string_view gfx) {
  for (const RocmApuTargets& row : data.rocm_apu_targets) {
    if (std::find(row.gfx.begin(), row.gfx.end(), gfx) != row.gfx.end()) return row;
  }
  return std::nullopt;
}

std::vector<RuntimeGfxTargets> runtime_gfx_targets(const CompatData& data, std::string_view runtime,
                                                   CompatOs os) {
  std::vector<RuntimeGfxTargets> out;
  for (const RuntimeGfxTargets& row : data.runtime_gfx_targets) {
    if (row.runtime == runtime && row.os == os) out.push_back(row);
  }
  return out;
}

std::optional<AmdgpuKfdChip> amdgpu_kfd_chip(const CompatData& data, std::uint16_t device_id) {
  for (const AmdgpuKfdChip& c : data.amdgpu_kfd_chips) {
    if (std::find(c.device_ids.begin(), c.device_ids.end(), device_id) != c.device_ids.end()) {
      return c;
    }
  }
  return std::nullopt;
}


const CudaPlatformEnd* last_cuda_for(const CompatData& data, CompatOs os) {
  for (const auto& e : data.cuda_platform_ends) {
    if (e.os == os) return &e;
  }
  return nullptr;
}

std::optional<Fp32Lanes> nvidia_fp32_lanes(const CompatData& data, int major, int minor) {
  for (const Fp32Lanes& row : data.fp32_lanes) {
    if (row.vendor == "nvidia" && row.cc && row.cc->major == major && row.cc->minor == minor &&
        row.cc->suffix.empty()) {
      return row;
    }
  }
  return std::nullopt;
}

std::optional<Fp32Lanes> vendor_fp32_lanes(const CompatData& data, std::string_view vendor,
                                           std::optional<int> gfx_major, bool gpu) {
  for (const Fp32Lanes& row : data.fp32_lanes) {
    if (row.vendor != vendor) continue;
    if (row.device_type == std::optional<std::string>("gpu") && !gpu) continue;
    if (row.gfx_major) {
      const auto v = gfx_major ? parse_version(std::to_string(*gfx_major)) : std::nullopt;
      if (!v || !in_range(*v, *row.gfx_major)) continue;
    }
    return row;
  }
  return std::nullopt;
}

}  // namespace gpudoctor
