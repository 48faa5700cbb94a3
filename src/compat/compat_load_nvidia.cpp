// Row readers for the NVIDIA matrices: driver minimums, minor version compatibility, driver
// branches, nvcc targets, GPU compute capabilities, cuDNN.
#include "compat/compat_query.hpp"
#include "compat/compat_reader.hpp"
#include "text.hpp"

namespace gpudoctor::compat_detail {

namespace {

int branch_number(RowReader& r, const char* key) {
  auto n = parse_uint(r.str(key));
  if (!n || *n == 0 || *n > 100000) {
    r.error(std::string("\"") + key + "\" must be a number");
    return 0;
  }
  return static_cast<int>(*n);
}

std::uint16_t pci_id(RowReader& r, const char* key) {
  std::string s = r.str(key);
  auto n = parse_uint(s);
  if (!starts_with(s, "0x") || s.size() != 6 || !n || *n > 0xffff) {
    r.error(std::string("\"") + key + "\" must be a 4-digit hex id like 0x10de: " + s);
    return 0;
  }
  return static_cast<std::uint16_t>(*n);
}

void driver_minimums(const FileContext& file, const Json& rows, CompatData& data) {
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    CudaDriverMinimum m;
    m.cuda = r.version("cuda");
    m.label = r.str("label");
    m.os = r.os("os");
    m.driver = r.version("driver");
    std::string basis = r.str("basis");
    if (basis == "release_notes") {
      m.basis = DriverBasis::kReleaseNotes;
    } else if (basis == "installer") {
      m.basis = DriverBasis::kInstaller;
    } else if (!basis.empty()) {
      r.error("\"basis\" must be release_notes or installer: " + basis);
    }
    m.from = p;
    if (r.ok()) data.cuda_driver_minimums.push_back(std::move(m));
  });
}

void minor_compat(const FileContext& file, const Json& rows, CompatData& data) {
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    MinorCompatMinimum m;
    m.cuda = r.range("cuda");
    m.os = r.os("os");
    m.supported = r.boolean("supported");
    m.min_driver = r.opt_version("min_driver");
    if (m.supported != m.min_driver.has_value()) {
      r.error("a supported row has a min_driver, an unsupported one has none");
    }
    m.from = p;
    if (r.ok()) data.cuda_minor_version_compat.push_back(std::move(m));
  });
}

void driver_branches(const FileContext& file, const Json& rows, CompatData& data) {
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    DriverBranchMaxCuda b;
    b.branch = branch_number(r, "branch");
    b.max_cuda = r.version("max_cuda");
    if (r.has("max_cuda_major")) b.max_cuda_major = branch_number(r, "max_cuda_major");
    b.from = p;
    if (r.ok()) data.driver_branch_max_cuda.push_back(std::move(b));
  });
}

void arch_range(const FileContext& file, const Json& rows, CompatData& data) {
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    CudaArch a;
    a.sm = r.str("sm");
    if (auto cc = parse_sm(a.sm)) {
      a.cc = *cc;
    } else if (!a.sm.empty()) {
      r.error("\"sm\" is not a GPU target: " + a.sm);
    }
    a.first_cuda = r.opt_version("first_cuda");
    a.last_cuda = r.opt_version("last_cuda");
    if (!a.first_cuda) r.error("\"first_cuda\" is missing");
    if (a.first_cuda && a.last_cuda && *a.last_cuda < *a.first_cuda) {
      r.error("last_cuda is before first_cuda");
    }
    a.from = p;
    if (r.ok()) data.cuda_arch_range.push_back(std::move(a));
  });
}

void compute_capability(const FileContext& file, const Json& rows, CompatData& data) {
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    std::string kind = r.str("kind");
    if (kind == "model") {
      GpuModel m{r.str("model"), r.version("cc"), p};
      if (r.ok()) data.gpu_models.push_back(std::move(m));
    } else if (kind == "pci") {
      GpuPciId id;
      id.vendor_id = pci_id(r, "vendor_id");
      id.device_id = pci_id(r, "device_id");
      id.pci_name = r.str("pci_name");
      id.model = r.str("model");
      id.from = p;
      if (r.ok()) data.gpu_pci_ids.push_back(std::move(id));
    } else if (kind == "chip") {
      GpuChip c{r.str("chip"), r.version("cc"), r.str_list("boards"), p};
      if (c.chip != nvidia_chip_key(c.chip)) r.error("\"chip\" is not a chip code: " + c.chip);
      if (r.ok()) data.gpu_chips.push_back(std::move(c));
    } else if (!kind.empty()) {
      r.error("\"kind\" must be chip, model or pci: " + kind);
    }
  });
}

void cudnn(const FileContext& file, const Json& rows, CompatData& data) {
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    CudnnSupport c;
    c.cudnn = r.range("cudnn");
    c.build = r.str("build");
    c.cuda = r.range("cuda");
    if (r.has("cuda_excluded")) c.cuda_excluded = r.version_list("cuda_excluded");
    c.linux_driver = r.opt_version("linux_driver");
    c.windows_driver = r.opt_version("windows_driver");
    if (r.has("compute_capability")) c.compute_capability = r.range_list("compute_capability");
    c.from = p;
    if (r.ok()) data.cudnn.push_back(std::move(c));
  });
}

void fp32_lanes(const FileContext& file, const Json& rows, CompatData& data) {
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    Fp32Lanes l;
    l.vendor = r.str("vendor");
    if (l.vendor != "nvidia" && l.vendor != "amd" && l.vendor != "intel") {
      r.error("\"vendor\" must be nvidia, amd or intel: " + l.vendor);
    }
    if (r.has("cc")) {
      const Version v = r.version("cc");
      if (v.parts.size() == 2 && v.suffix.empty()) {
        l.cc = ComputeCapability{int(v.parts[0]), int(v.parts[1]), ""};
      } else {
        r.error("\"cc\" must be a compute capability like 8.6");
      }
    }
    if (r.has("gfx_major")) l.gfx_major = r.range("gfx_major");
    l.device_type = r.opt_str("device_type");
    l.unit = r.str("unit");
    l.lanes = r.count("fp32_lanes", 1024);
    if (l.vendor == "nvidia" && !l.cc) r.error("an nvidia row names its compute capability");
    l.from = p;
    if (r.ok()) data.fp32_lanes.push_back(std::move(l));
  });
}

void platform_ends(const FileContext& file, const Json& rows, CompatData& data) {
  for_each_row(file, rows, [&](RowReader& r, const Provenance& p) {
    CudaPlatformEnd e;
    e.os = r.os("os");
    e.last_cuda = r.version("last_cuda");
    e.from = p;
    if (r.ok()) data.cuda_platform_ends.push_back(std::move(e));
  });
}

}  // namespace

void load_nvidia_file(const FileContext& file, const Json& rows, CompatData& data) {
  if (file.name == "cuda_driver_minimums.json") driver_minimums(file, rows, data);
  if (file.name == "cuda_minor_version_compat.json") minor_compat(file, rows, data);
  if (file.name == "driver_branch_max_cuda.json") driver_branches(file, rows, data);
  if (file.name == "cuda_arch_range.json") arch_range(file, rows, data);
  if (file.name == "gpu_compute_capability.json") compute_capability(file, rows, data);
  if (file.name == "cudnn.json") cudnn(file, rows, data);
  if (file.name == "gpu_fp32_lanes.json") fp32_lanes(file, rows, data);
  if (file.name == "cuda_platforms.json") platform_ends(file, rows, data);
}

}  // namespace gpudoctor::compat_detail
