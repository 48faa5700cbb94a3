// The driver, toolkit, cuDNN and GPU against the vendors' compatibility matrices.
#include "backends.hpp"
#include "api/pci/gpu_ids.hpp"
#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "compat/compat_query.hpp"

namespace gpudoctor {

std::optional<std::string> installed_driver_version(const Snapshot& s) {
  if (s.nvidia && s.nvidia->kernel.module_version) return s.nvidia->kernel.module_version;
  if (s.nvml && s.nvml->driver_version) return s.nvml->driver_version;
  return std::nullopt;
}

std::string nvidia_userspace_package(const Snapshot& s, const std::string& debian,
                                     const std::string& ubuntu_stem) {
  const auto driver = installed_driver_version(s);
  const std::string ubuntu =
      ubuntu_stem + "-" + (driver ? driver->substr(0, driver->find('.')) : "<driver branch>");
  const std::string id = s.host && s.host->os_id ? to_lower(*s.host->os_id) : "";
  if (id == "ubuntu" || id == "pop" || id == "linuxmint") return ubuntu;
  if (id == "debian") return debian;
  return "Debian: " + debian + "; Ubuntu: " + ubuntu;
}

std::vector<GpuCapability> nvidia_capabilities(const CheckInput& in) {
  std::vector<GpuCapability> out;
  for (const auto& m : in.devices) {
    if (m.vendor_id != std::optional<std::uint32_t>(kPciVendorNvidia) || m.software) continue;
    GpuCapability g{m.name, std::nullopt};
    for (auto c : m.in(kBackendCuda)) {
      const auto& d = in.snap.cuda->devices[c];
      if (d.cc_major && d.cc_minor) {
        g.cc = parse_version(std::to_string(*d.cc_major) + "." + std::to_string(*d.cc_minor));
      }
    }
    for (auto n : m.in(kBackendNvml)) {
      const auto& d = in.snap.nvml->devices[n];
      if (!g.cc && d.cc_major && d.cc_minor) {
        g.cc = parse_version(std::to_string(*d.cc_major) + "." + std::to_string(*d.cc_minor));
      }
    }
    // No driver answered (none installed, a --sysroot tree, a report): the board's row where
    // one exists, else its chip as pci.ids names it, else the model in a driver's name.
    if (!g.cc && m.device_id) {
      if (auto row = compute_capability_for_pci(in.compat, kPciVendorNvidia,
                                                static_cast<std::uint16_t>(*m.device_id))) {
        g.cc = row->cc;
        g.cc_source = "its board " + row->model + ", " + row->from.url;
      }
    }
    if (!g.cc && m.chip) {
      if (auto row = compute_capability_for_chip(in.compat, *m.chip)) {
        g.cc = row->cc;
        g.cc_source = "its chip " + row->chip + ", " + row->from.url;
      }
    }
    if (!g.cc && m.name_source != "none") {
      if (auto row = compute_capability_for_model(in.compat, m.name)) {
        g.cc = row->cc;
        g.cc_source = "its model " + row->model + ", " + row->from.url;
      }
    }
    // A GPU known only by its name (a pasted nvidia-smi or collect_env): the model's row.
    if (!g.cc) {
      if (auto row = compute_capability_for_model(in.compat, m.name)) {
        g.cc = row->cc;
        g.cc_source = row->from.url;
      }
    }
    // An id newer than every table: the chip whose device-id block holds it, said as inferred.
    if (!g.cc && m.device_id && *m.device_id <= 0xffff) {
      auto r = device_id_range(kPciVendorNvidia, static_cast<std::uint16_t>(*m.device_id));
      if (r && r->compute_capability) {
        g.cc = parse_version(std::string(*r->compute_capability));
        g.cc_inferred = true;
        g.cc_source = "its chip " + std::string(r->chip) + " (" + std::string(r->architecture) +
                      "), " + inferred_from_range(*r) + ", " + std::string(kIdRangeSource);
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

void check_driver_for_toolkit(const CheckSpec& self, const CheckInput& in,
                              std::vector<Finding>& out) {
  if (!in.snap.nvidia) return;
  auto driver_text = installed_driver_version(in.snap);
  if (!driver_text) return;
  auto driver = parse_version(*driver_text);
  if (!driver) return;
  for (const auto& t : in.snap.nvidia->toolkits) {
    auto cuda = t.version ? parse_version(*t.version) : std::nullopt;
    if (!cuda) continue;
    auto full = min_driver_for_cuda(in.compat, *cuda, CompatOs::kLinux);
    auto minor = minor_compat_for_cuda(in.compat, *cuda, CompatOs::kLinux);
    const bool minor_ok = minor && minor->supported && minor->min_driver &&
                          *driver >= *minor->min_driver;
    // An installer's bundled driver is not a stated minimum: only the release notes' table is,
    // so only it makes a warning for a driver that still runs the toolkit under minor version
    // compatibility.
    const bool below_full = full && *driver < full->driver;
    if (minor_ok && !(below_full && full->basis == DriverBasis::kReleaseNotes)) continue;
    if (!minor_ok && !below_full && !(minor && minor->min_driver)) continue;
    if (!minor_ok && !below_full && minor && minor->supported) continue;
    const std::optional<Version> need =
        minor_ok ? std::optional<Version>(full->driver)
                 : (minor && minor->supported && minor->min_driver ? minor->min_driver
                                                                   : std::optional<Version>(
                                                                         full->driver));
    Finding f = make_finding(
        self, minor_ok ? Severity::warn : Severity::fail,
        "Driver " + *driver_text + " is older than CUDA " + *t.version + " needs (" +
            need->text + ")" +
            (minor_ok ? ": programs run under minor version compatibility, without the newest "
                        "features and PTX JIT"
                      : ": programs built with it fail with \"CUDA driver version is "
                        "insufficient for CUDA runtime version\""));
    f.evidence.push_back("driver: " + *driver_text);
    f.evidence.push_back("toolkit: CUDA " + *t.version + " at " + t.path);
    if (full) {
      f.evidence.push_back(full->label +
                           (full->basis == DriverBasis::kInstaller
                                ? " ships driver " + full->driver.text +
                                      " in its installer"
                                : " needs driver ≥ " + full->driver.text +
                                      " for all its features"));
    }
    if (minor && minor->min_driver) {
      f.evidence.push_back("minor version compatibility needs ≥ " +
                           minor->min_driver->text);
    }
    std::string alt;
    if (auto branch = max_cuda_for_driver(in.compat, *driver)) {
      alt = ", or use a toolkit up to CUDA " + branch->max_cuda.text +
            " (the newest this driver supports)";
    }
    f.fix = "install NVIDIA driver " + need->text + " or newer" +
            (full && *need != full->driver ? " (" + full->driver.text +
                                                 " for every feature of CUDA " + *t.version + ")"
                                           : "") +
            alt;
    f.source = minor_ok || !minor ? full->from.url : minor->from.url;
    out.push_back(std::move(f));
  }
}

namespace {

/// A GPU newer than the newest architecture a toolkit's nvcc can build for (an RTX 2070, sm_75,
/// under CUDA 9.0, whose newest is sm_72: AlexeyAB/darknet#2836). Code built with it reaches the
/// GPU only as PTX the driver compiles at load, where the program carries PTX at all; the
/// libraries of that CUDA release predate the GPU. Not certain to fail, so a warning.
void toolkit_older_than_gpu(const CheckSpec& self, const CudaToolkit& t, const ArchRange& range,
                            const GpuCapability& g, const ComputeCapability& cc,
                            std::vector<Finding>& out) {
  const std::string sm = std::to_string(cc.major) + std::to_string(cc.minor);
  const std::string newest = std::to_string(range.max.major) + std::to_string(range.max.minor);
  Finding f = make_finding(
      self, Severity::warn,
      g.name + " (compute capability " + to_string(cc) + ") is newer than CUDA " + *t.version +
          " can build for (up to sm_" + newest + "): code built with it runs there only as PTX "
          "the driver compiles at load, where the program carries PTX; otherwise \"no kernel "
          "image is available for execution on the device\"");
  f.evidence.push_back("toolkit: CUDA " + *t.version + " at " + t.path);
  f.evidence.push_back("GPU: " + g.name + ", compute capability " + to_string(cc));
  if (g.cc_source) f.evidence.push_back("compute capability from " + *g.cc_source);
  f.fix = "build with a toolkit that knows sm_" + sm + " (see `gpudoctor explain " +
          std::string(self.id) + "` for the first CUDA release that does), with libraries "
          "(cuDNN, cuBLAS) of that release";
  out.push_back(std::move(f));
}

}  // namespace

void check_arch_for_toolkit(const CheckSpec& self, const CheckInput& in,
                            std::vector<Finding>& out) {
  if (!in.snap.nvidia) return;
  auto gpus = nvidia_capabilities(in);
  for (const auto& t : in.snap.nvidia->toolkits) {
    auto cuda = t.version ? parse_version(*t.version) : std::nullopt;
    if (!cuda) continue;
    auto range = arch_range_for_cuda(in.compat, *cuda);
    if (!range) continue;
    for (const auto& g : gpus) {
      if (!g.cc) continue;
      ComputeCapability cc{static_cast<int>(g.cc->parts.at(0)),
                           g.cc->parts.size() > 1 ? static_cast<int>(g.cc->parts[1]) : 0, ""};
      if (compare_cc(cc, range->max) > 0) {
        toolkit_older_than_gpu(self, t, *range, g, cc, out);
        continue;
      }
      if (compare_cc(cc, range->min) >= 0) continue;
      Finding f = make_finding(
          self, Severity::fail,
          g.name + " (compute capability " + to_string(cc) + ") is older than CUDA " +
              *t.version + " can build for (sm_" + std::to_string(range->min.major) +
              std::to_string(range->min.minor) + " and up): \"no kernel image is available "
              "for execution on the device\"");
      f.evidence.push_back("toolkit: CUDA " + *t.version + " at " + t.path);
      f.evidence.push_back("GPU: " + g.name + ", compute capability " + to_string(cc));
      f.fix = "build with an older toolkit that still has sm_" + std::to_string(cc.major) +
              std::to_string(cc.minor) + " (see `gpudoctor explain " + std::string(self.id) +
              "`), or use a newer GPU";
      if (g.cc_source) f.evidence.push_back("compute capability from " + *g.cc_source);
      out.push_back(std::move(f));
    }
  }
}

namespace {

bool older_than_listed(const CudnnSupport& row, const Version& cc) {
  if (row.compute_capability.empty()) return false;
  for (const VersionRange& r : row.compute_capability) {
    if (!r.min || !(cc < *r.min)) return false;
  }
  return true;
}

}  // namespace

void check_cudnn_for_toolkit(const CheckSpec& self, const CheckInput& in,
                             std::vector<Finding>& out) {
  if (!in.snap.nvidia) return;
  auto driver_text = installed_driver_version(in.snap);
  auto driver = driver_text ? parse_version(*driver_text) : std::nullopt;
  for (const auto& t : in.snap.nvidia->toolkits) {
    if (!t.cudnn_version || !t.version) continue;
    auto cudnn = parse_version(*t.cudnn_version);
    auto cuda = parse_version(*t.version);
    if (!cudnn || !cuda) continue;
    auto any_build = cudnn_support(in.compat, *cudnn, std::nullopt);
    if (any_build.empty()) continue;  // this cuDNN is not in the matrix: nothing to say
    auto rows = cudnn_support(in.compat, *cudnn, cuda);
    if (rows.empty()) {
      Finding f = make_finding(self, Severity::warn,
                               "cuDNN " + *t.cudnn_version + " in " + t.path +
                                   " is not built for CUDA " + *t.version);
      f.id = "cudnn.cuda_mismatch";
      std::vector<std::string> builds;
      for (const auto& r : any_build) builds.push_back(r.build);
      f.evidence.push_back("cuDNN " + *t.cudnn_version + " builds: " + join(builds, ", "));
      f.fix = "install the cuDNN build for CUDA " + std::to_string(cuda->parts.at(0)) +
              " (e.g. nvidia-cudnn-cu" + std::to_string(cuda->parts.at(0)) + " or "
              "cudnn9-cuda-" + std::to_string(cuda->parts.at(0)) + ")";
      f.source = any_build.front().from.url;
      out.push_back(std::move(f));
      continue;
    }
    const auto& row = rows.front();
    for (const auto& g : nvidia_capabilities(in)) {
      // Only a GPU older than every architecture the row lists: the matrix lists points and
      // footnotes newer ones (Blackwell's 12.0 under the cuda12 build of 9.17), so a GPU
      // between or above the listed ones is not judged.
      if (!g.cc || !older_than_listed(row, *g.cc)) continue;
      Finding f = make_finding(self, Severity::fail,
                               "cuDNN " + *t.cudnn_version + " for CUDA " + *t.version +
                                   " does not support " + g.name + " (compute capability " +
                                   g.cc->text + ")");
      f.id = "cudnn.gpu_unsupported";
      if (g.cc_source) f.evidence.push_back("compute capability from " + *g.cc_source);
      // The same cuDNN release's builds that do support it, by the CUDA they are built for.
      std::vector<std::string> cudas;
      for (const auto& r : any_build) {
        if (cudnn_supports_cc(r, *g.cc) != std::optional<bool>(true)) continue;  // listed
        std::string span = r.cuda.min ? r.cuda.min->text : "";
        if (r.cuda.max && (!r.cuda.min || r.cuda.max->text != r.cuda.min->text)) {
          span += "–" + r.cuda.max->text;
        }
        cudas.push_back("CUDA " + span);
      }
      f.fix = cudas.empty()
                  ? "install a cuDNN release whose support matrix lists compute capability " +
                        g.cc->text + ", or use a GPU this cuDNN supports"
                  : "install a toolkit and cuDNN " + *t.cudnn_version + " built for " +
                        join(cudas, " or ") + ", which supports compute capability " +
                        g.cc->text;
      f.source = row.from.url;
      out.push_back(std::move(f));
    }
    if (driver && row.linux_driver && *driver < *row.linux_driver) {
      Finding f = make_finding(self, Severity::fail,
                               "Driver " + *driver_text + " is older than cuDNN " +
                                   *t.cudnn_version + " for CUDA " + *t.version + " needs (" +
                                   row.linux_driver->text + ")");
      f.id = "cudnn.driver_too_old";
      f.fix = "install NVIDIA driver " + row.linux_driver->text + " or newer";
      f.source = row.from.url;
      out.push_back(std::move(f));
    }
  }
}

}  // namespace gpudoctor
