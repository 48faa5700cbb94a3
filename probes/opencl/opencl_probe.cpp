#include "opencl/opencl_probe.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <system_error>

#include "backends.hpp"
#include "core/library_search.hpp"
#include "opencl/opencl_enumerate.hpp"
#include "parse/icd_files.hpp"
#include "platform/library_names.hpp"
#include "smoke/smoke_verdict.hpp"
#include "text.hpp"

namespace gpudoctor::opencl {

namespace {

constexpr const char* kDefaultVendorsDir = "/etc/OpenCL/vendors";
constexpr std::size_t kMaxIcdFile = 64 * 1024;

/// Relative paths in the environment are relative to the working directory, as the loader
/// sees them; under another root they stay as written.
std::string from_cwd(const ProbeContext& ctx, const std::string& path) {
  if (path.empty() || path.front() == '/' || !ctx.root.is_host()) return path;
  std::error_code ec;
  auto abs = std::filesystem::absolute(path, ec);
  return ec ? path : abs.lexically_normal().string();
}

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

class Discovery {
 public:
  explicit Discovery(const ProbeContext& ctx) : ctx_(ctx), search_(ctx.root, ctx.env) {}

  OpenClInfo run() {
    const LibraryNames& names = library_names(ctx_.platform);
    if (!names.opencl_has_icds) return framework(names.opencl);
    info_.loader = search_.find(names.opencl.front());
    if (auto v = ctx_.env.get("RUSTICL_ENABLE")) info_.rusticl_enable = *v;
    // The Khronos loader takes these first; ocl-icd before late 2025 ignores them.
    if (auto names = ctx_.env.get_nonempty("OCL_ICD_FILENAMES")) {
      for (const auto& lib : split_path_list(*names)) add_library("OCL_ICD_FILENAMES", lib);
    }
    // ocl-icd: OPENCL_VENDOR_PATH replaces /etc/OpenCL/vendors (the Khronos loader ignores it).
    auto vendor_path = ctx_.env.get_nonempty("OPENCL_VENDOR_PATH");
    const std::string vendors = vendor_path ? from_cwd(ctx_, *vendor_path) : kDefaultVendorsDir;
    auto value = ctx_.env.get_nonempty("OCL_ICD_VENDORS");
    if (!value) {
      if (vendor_path) {
        info_.vendors_env = "OPENCL_VENDOR_PATH";
        hidden_by_variable(vendors);
      }
      scan(vendors, vendor_path ? "OPENCL_VENDOR_PATH" : kDefaultVendorsDir);
      return std::move(info_);
    }
    // OCL_ICD_VENDORS, as ocl-icd reads it: a directory replaces the vendors directory; a name
    // ending in .icd is the one .icd file (a bare name is looked for in the vendors directory
    // first); anything else is the ICD library itself. The Khronos loader only takes a directory.
    info_.vendors_env = "OCL_ICD_VENDORS";
    const std::string path = from_cwd(ctx_, *value);
    info_.vendors_dir = path;
    hidden_by_variable(path);
    if (ctx_.root.is_directory(path)) {
      scan(path, "OCL_ICD_VENDORS");
    } else if (is_icd_file_name(*value)) {
      std::string file = path;
      if (value->find('/') == std::string::npos && ctx_.root.exists(vendors + "/" + *value)) {
        file = vendors + "/" + *value;
      }
      add_file("OCL_ICD_VENDORS", file);
    } else {
      add_library("OCL_ICD_VENDORS", *value);
      auto& icd = info_.icds.back();
      if (!icd.resolved) {
        icd.error =
            "OCL_ICD_VENDORS names neither a directory nor an .icd file, so ocl-icd "
            "loads it as the ICD library, and " +
            *icd.error;
      }
    }
    return std::move(info_);
  }

 private:
  /// macOS: Apple's OpenCL.framework is the one implementation; no ICD files are read.
  OpenClInfo framework(const std::vector<std::string>& paths) {
    for (const auto& path : paths) {
      OpenClIcd impl;
      impl.source = kOpenClAppleFramework;
      impl.library = path;
      // Since macOS 11 the system's libraries are in the dyld shared cache, not files: the
      // framework's binary path has no file behind it on a live Mac, and dlopen still loads it
      // (https://developer.apple.com/forums/thread/655588, Apple DTS). So on a live Mac the
      // load decides; under --sysroot a tree without the file says nothing about the Mac.
      if (ctx_.root.exists(path) || ctx_.live) {
        impl.resolved = path;
        info_.loader = path;
      }
      info_.icds.push_back(std::move(impl));
      if (info_.loader) break;
    }
    return std::move(info_);
  }

  /// The default directory's .icd files, where a variable sent the loader elsewhere.
  void hidden_by_variable(const std::string& chosen) {
    if (chosen == kDefaultVendorsDir || chosen == std::string(kDefaultVendorsDir) + "/") return;
    for (const auto& name : ctx_.root.list(kDefaultVendorsDir)) {
      if (is_icd_file_name(name)) {
        info_.hidden_icds.push_back(std::string(kDefaultVendorsDir) + "/" + name);
      }
    }
  }

  void scan(const std::string& dir, const std::string& source) {
    info_.vendors_dir = dir;
    for (const auto& name : ctx_.root.list(dir)) {
      if (is_icd_file_name(name)) add_file(source, dir + "/" + name);
    }
  }

  void add_file(const std::string& source, const std::string& file) {
    OpenClIcd icd;
    icd.source = source;
    icd.file = file;
    FileText text = ctx_.root.read_file(file, kMaxIcdFile);
    if (!text.text) {
      // A loop of links is not "does not exist": say what the lookup said.
      icd.error = text.error == std::strerror(ENOENT) ? file + " does not exist"
                                                      : "cannot read " + file + ": " + text.error;
    } else {
      IcdFileEntry entry = parse_icd_file(*text.text);
      icd.library = std::move(entry.library);
      icd.error = std::move(entry.error);
    }
    resolve(icd);
    info_.icds.push_back(std::move(icd));
  }

  void add_library(const std::string& source, const std::string& library) {
    OpenClIcd icd;
    icd.source = source;
    icd.library = library;
    resolve(icd);
    info_.icds.push_back(std::move(icd));
  }

  void resolve(OpenClIcd& icd) const {
    if (icd.error || icd.library.empty()) return;
    const bool is_path = icd.library.find('/') != std::string::npos;
    icd.resolved = search_.find(is_path ? from_cwd(ctx_, icd.library) : icd.library);
    if (icd.resolved && ctx_.live) {
      // The loader opens it blocking: a FIFO named as the library would hold the child to its
      // deadline, a device would be opened. Only regular files go on to a child.
      FileText head = ctx_.root.read_file(*icd.resolved, 4);
      if (!head.text) {
        icd.error = *icd.resolved + " cannot be read: " + head.error;
        icd.resolved.reset();
        return;
      }
    }
    if (icd.resolved) return;
    icd.error = is_path ? icd.library + " does not exist"
                        : icd.library +
                              " is in none of the directories the dynamic loader "
                              "searches (LD_LIBRARY_PATH, /etc/ld.so.conf, defaults)";
  }

  const ProbeContext& ctx_;
  LibrarySearch search_;
  OpenClInfo info_;
};

std::string no_icd_detail(const OpenClInfo& info) {
  std::string where = info.vendors_dir;
  if (info.vendors_env) where = *info.vendors_env + "=" + where;
  return "no OpenCL ICD registered (no .icd file in " + where + ")";
}

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

/// For each registration, the first one of the same library file (/lib and /usr/lib are often
/// one directory), whose child's report stands for both: itself when it is the first, kNone
/// when its library was not found. Each file is looked at once and keyed by device and inode,
/// so a thousand ICDs cost a thousand stat calls, not a million comparisons. Live only: the
/// resolved paths are this machine's.
std::vector<std::size_t> first_of_each_library(const std::vector<OpenClIcd>& icds) {
  std::vector<std::size_t> first(icds.size(), kNone);
  std::map<std::pair<dev_t, ino_t>, std::size_t> by_file;
  std::map<std::string, std::size_t> by_path;
  for (std::size_t i = 0; i < icds.size(); ++i) {
    if (!icds[i].resolved) continue;
    const std::string& path = *icds[i].resolved;
    first[i] = by_path.emplace(path, i).first->second;
    struct stat st {};
    if (first[i] == i && ::stat(path.c_str(), &st) == 0) {
      first[i] = by_file.emplace(std::make_pair(st.st_dev, st.st_ino), i).first->second;
    }
  }
  return first;
}

bool is_failure(ProbeStatus s) {
  return s == ProbeStatus::failed || s == ProbeStatus::crashed || s == ProbeStatus::timed_out;
}

/// A child that died during the smoke test: its last progress report names the device.
void add_lost_smoke(IcdReport& rep, const std::string& library, const ProbeOutcome& outcome) {
  if (!rep.smoke_running) return;
  std::vector<std::string> devices;
  for (const auto& platform : rep.platforms) {
    for (std::size_t d = 0; d < platform.devices.size(); ++d) {
      devices.push_back(smoke_device_label(platform, d));
    }
  }
  for (auto& r :
       smoke::smoke_lost("opencl", library, *rep.smoke_running, devices, outcome.detail)) {
    rep.smoke.push_back(std::move(r));
  }
}

/// Folds one child's report into its ICD and the platform list. A report that does not parse
/// turns the job into a failure that names the library.
void fold(OpenClInfo& info, OpenClIcd& icd, IsolatedResult& result) {
  if (result.data) {
    try {
      auto rep = result.data->get<IcdReport>();
      icd.loads = rep.loads;
      icd.error = rep.error;
      if (!info.loader_name) info.loader_name = rep.loader_name;
      if (!info.loader_version) info.loader_version = rep.loader_version;
      if (is_failure(result.outcome.status)) add_lost_smoke(rep, icd.library, result.outcome);
      for (auto& s : rep.smoke) info.smoke.push_back(std::move(s));
      for (auto& p : rep.platforms) {
        p.library = icd.library;
        info.platforms.push_back(std::move(p));
      }
    } catch (const std::exception& e) {
      result.outcome.status = ProbeStatus::failed;
      result.outcome.detail =
          icd.library + " made the probe send back malformed data (" + e.what() + ")";
    }
  }
  if (result.outcome.status != ProbeStatus::ok && !icd.error) icd.error = result.outcome.detail;
}

}  // namespace

OpenClInfo discover(const ProbeContext& ctx) { return Discovery(ctx).run(); }

std::vector<IsolatedJob> jobs(const ProbeContext& ctx, const OpenClInfo& found) {
  std::vector<IsolatedJob> out;
  if (!ctx.live) return out;
  const auto first = first_of_each_library(found.icds);
  for (std::size_t i = 0; i < found.icds.size(); ++i) {
    if (first[i] != i) continue;
    const OpenClIcd& icd = found.icds[i];
    const std::string library = icd.library;
    const bool framework = icd.source == kOpenClAppleFramework;
    out.push_back({std::string(kBackendOpenCl), base_name(icd.file ? *icd.file : library), library,
                   [library, framework, smoke = ctx.smoke] {
                     return framework ? probe_framework(library, smoke) : probe_icd(library, smoke);
                   }});
  }
  return out;
}

ProbeOutcome assemble(OpenClInfo& info, std::vector<IsolatedResult>& results, bool live) {
  ProbeOutcome out{std::string(kBackendOpenCl), std::string(kBackendOpenCl), info.loader};
  if (info.icds.empty()) {
    out.status = ProbeStatus::missing;
    out.detail = no_icd_detail(info);
    return out;
  }
  if (!live) {
    out.detail = info.icds.front().source == kOpenClAppleFramework
                     ? "OpenCL.framework is not loaded under --sysroot"
                     : plural(info.icds.size(), "ICD registration") +
                           " read; libraries are not loaded under --sysroot";
    return out;
  }
  std::size_t next = 0;
  std::size_t ok = 0;
  std::size_t devices = 0;
  double seconds = 0;
  std::vector<std::string> failures;
  const auto first = first_of_each_library(info.icds);
  for (std::size_t i = 0; i < info.icds.size(); ++i) {
    OpenClIcd& icd = info.icds[i];
    if (!icd.resolved) {
      icd.loads = false;
      failures.push_back(icd.error.value_or(icd.library));
      continue;
    }
    if (first[i] != i) {
      icd.loads = info.icds[first[i]].loads;
      icd.error = info.icds[first[i]].error;
      continue;
    }
    if (next >= results.size()) break;
    IsolatedResult& r = results[next++];
    fold(info, icd, r);
    seconds = std::max(seconds, r.outcome.seconds.value_or(0));
    if (r.outcome.status == ProbeStatus::ok) ++ok;
    if (is_failure(r.outcome.status)) failures.push_back(r.outcome.detail);
  }
  for (const auto& p : info.platforms) devices += p.devices.size();
  if (next > 0) out.seconds = seconds;

  if (!info.loader && info.icds.front().source == kOpenClAppleFramework) {
    out.status = ProbeStatus::failed;
    out.detail = "Apple's OpenCL.framework is missing: " + join(failures, "; ");
  } else if (!info.loader) {
    out.status = ProbeStatus::failed;
    out.detail = "libOpenCL.so.1, the ICD loader, was not found: applications cannot reach the " +
                 plural(info.icds.size(), "registered ICD") + " (install ocl-icd-libopencl1)";
  } else if (ok > 0) {
    out.detail = plural(info.platforms.size(), "platform") + ", " + plural(devices, "device");
    if (!failures.empty()) out.detail += "; " + join(failures, "; ");
  } else if (failures.empty()) {
    out.status = ProbeStatus::missing;
    out.detail = "the registered OpenCL ICDs report no platforms";
  } else {
    // The drivers failed, each named by its own outcome; the loader is not one of them.
    out.status = ProbeStatus::failed;
    out.library.reset();
    out.detail = "no OpenCL ICD works: " + join(failures, "; ");
  }
  return out;
}

}  // namespace gpudoctor::opencl
