#include "opencl/opencl_enumerate.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/dynlib.hpp"
#include "opencl/opencl_api.hpp"
#include "opencl/opencl_device.hpp"
#include "opencl/opencl_info_reader.hpp"
#include "opencl/opencl_matmul.hpp"
#include "platform/library_names.hpp"
#include "platform/platform.hpp"
#include "api/opencl/opencl_codes.hpp"
#include "smoke/smoke_verdict.hpp"
#include "text.hpp"

namespace gpudoctor::opencl {

namespace {

constexpr std::size_t kProblemsShown = 3;

/// Handles as the driver gave them, without nulls and repeats (a lying count leaves gaps).
template <typename Handle>
std::vector<Handle> usable(std::vector<Handle> ids, const std::string& what,
                           QueryProblems& problems) {
  std::vector<Handle> out;
  bool nulls = false;
  for (Handle h : ids) {
    if (h == nullptr) {
      nulls = true;
    } else if (std::find(out.begin(), out.end(), h) == out.end()) {
      out.push_back(h);
    }
  }
  if (nulls) problems.implausible.push_back(what + " returned null handles");
  return out;
}

OpenClPlatform read_platform(const OpenClApi& api, cl_platform_id id, std::size_t index,
                             QueryProblems& problems) {
  const std::string what = "platform " + std::to_string(index);
  InfoReader r([&](cl_uint p, std::size_t n, void* v,
                   std::size_t* ret) { return api.get_platform_info(id, p, n, v, ret); },
               "clGetPlatformInfo", what, problems);
  OpenClPlatform p;
  p.name = r.string(CL_PLATFORM_NAME, "CL_PLATFORM_NAME");
  p.vendor = r.string(CL_PLATFORM_VENDOR, "CL_PLATFORM_VENDOR");
  p.version = r.string(CL_PLATFORM_VERSION, "CL_PLATFORM_VERSION");
  p.profile = r.string(CL_PLATFORM_PROFILE, "CL_PLATFORM_PROFILE");
  p.icd_suffix = r.string(CL_PLATFORM_ICD_SUFFIX_KHR, "CL_PLATFORM_ICD_SUFFIX_KHR");
  if (auto e = r.string(CL_PLATFORM_EXTENSIONS, "CL_PLATFORM_EXTENSIONS")) {
    p.extensions = split_extensions(*e);
  }

  cl_uint count = 0;
  cl_int rc = api.get_device_ids(id, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (rc == CL_DEVICE_NOT_FOUND) return p;
  if (rc != CL_SUCCESS) {
    problems.failed_calls.push_back(what + ": " + cl_call_failed("clGetDeviceIDs", rc));
    return p;
  }
  if (count > kMaxDevices) {
    problems.implausible.push_back(what + ": clGetDeviceIDs claims " + std::to_string(count) +
                                   " devices; read the first " + std::to_string(kMaxDevices));
    count = kMaxDevices;
  }
  std::vector<cl_device_id> ids(count, nullptr);
  rc = api.get_device_ids(id, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr);
  if (rc != CL_SUCCESS) {
    problems.failed_calls.push_back(what + ": " + cl_call_failed("clGetDeviceIDs", rc));
    return p;
  }
  ids = usable(std::move(ids), what + ": clGetDeviceIDs", problems);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    p.devices.push_back(read_device(api, ids[i], what + " device " + std::to_string(i), problems));
  }
  return p;
}

std::optional<std::string> loader_string(const OpenClApi& api, cl_uint param, const char* name) {
  auto* fn = reinterpret_cast<GetIcdLoaderInfoFn>(
      api.get_extension_function_address("clGetICDLoaderInfoOCLICD"));
  if (fn == nullptr) return std::nullopt;
  QueryProblems ignored;
  InfoReader r(fn, "clGetICDLoaderInfoOCLICD", "loader", ignored);
  return r.string(param, name);
}

std::string summary(const std::vector<std::string>& items) {
  std::vector<std::string> shown(items.begin(),
                                 items.begin() + std::min(items.size(), kProblemsShown));
  std::string s = join(shown, "; ");
  if (items.size() > shown.size())
    s += " (and " + std::to_string(items.size() - shown.size()) + " more)";
  return s;
}

/// The smoke matmul on every device of every platform, in the order enumerated. Before each one
/// the facts so far go to the parent, naming the device, so that a driver that crashes or hangs
/// in the kernel is known to have done it there.
void run_smoke(const OpenClApi& api, const std::vector<cl_platform_id>& ids, IcdReport& rep,
               const std::string& library) {
  for (std::size_t p = 0; p < ids.size() && p < rep.platforms.size(); ++p) {
    cl_uint count = 0;
    if (api.get_device_ids(ids[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS) continue;
    std::vector<cl_device_id> devices(std::min<cl_uint>(count, kMaxDevices), nullptr);
    if (devices.empty() ||
        api.get_device_ids(ids[p], CL_DEVICE_TYPE_ALL, static_cast<cl_uint>(devices.size()),
                           devices.data(), nullptr) != CL_SUCCESS) {
      continue;
    }
    const OpenClPlatform& platform = rep.platforms[p];
    for (std::size_t d = 0; d < devices.size() && d < platform.devices.size(); ++d) {
      if (devices[d] == nullptr) continue;
      const std::string label = smoke_device_label(platform, d);
      rep.smoke_running = label;
      report_progress(rep);
      OpenClMatmul runner(api, ids[p], devices[d], label, MatmulKernel::smoke);
      SmokeResult result = runner.run({smoke::kCheckMatmulN});
      result.library = library;
      rep.smoke.push_back(std::move(result));
    }
  }
  rep.smoke_running.reset();
}

/// The child's answer: the report so far, with its status and a detail naming the library.
auto make_reporter(const std::string& library, IcdReport& rep) {
  return [&library, &rep](ProbeStatus status, const std::string& detail) {
    if (status != ProbeStatus::ok && !rep.error) rep.error = detail;
    JobReport j;
    j.status = status;
    j.detail = library + ": " + detail;
    j.data = rep;
    return j;
  };
}
using Reporter = decltype(make_reporter(std::string(), std::declval<IcdReport&>()));

/// Every platform and device through the OpenCL API that `api_library` exports (the ICD loader
/// on Linux, Apple's framework on a Mac); with `smoke`, the smoke matmul on each device.
JobReport enumerate(const std::string& api_library, const std::string& library, bool smoke,
                    IcdReport& rep, const Reporter& report) {
  std::string err;
  auto loader = DynamicLibrary::open(api_library, &err);
  if (!loader) {
    rep.loads = rep.loads && api_library != library;
    return report(ProbeStatus::failed, api_library + " cannot be opened: " + err);
  }
  std::string missing;
  auto api = OpenClApi::load(*loader, &missing);
  if (!api) return report(ProbeStatus::failed, api_library + " has no " + missing);

  cl_uint count = 0;
  cl_int rc = api->get_platform_ids(0, nullptr, &count);
  if (rc != CL_SUCCESS) {
    return report(ProbeStatus::failed,
                  cl_call_failed("clGetPlatformIDs", rc) +
                      (api_library == library
                           ? std::string()
                           : ": the loader did not take this ICD (ocl-icd skips one whose "
                             "platforms do not list cl_khr_icd or answer "
                             "CL_PLATFORM_ICD_SUFFIX_KHR)"));
  }
  QueryProblems problems;
  if (count > kMaxPlatforms) {
    problems.implausible.push_back("clGetPlatformIDs claims " + std::to_string(count) +
                                   " platforms; read the first " + std::to_string(kMaxPlatforms));
    count = kMaxPlatforms;
  }
  std::vector<cl_platform_id> ids(count, nullptr);
  rc = api->get_platform_ids(count, ids.data(), nullptr);
  if (rc != CL_SUCCESS) return report(ProbeStatus::failed, cl_call_failed("clGetPlatformIDs", rc));
  ids = usable(std::move(ids), "clGetPlatformIDs", problems);

  std::size_t devices = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    rep.platforms.push_back(read_platform(*api, ids[i], i, problems));
    devices += rep.platforms.back().devices.size();
  }
  rep.loader_name = loader_string(*api, kIcdLoaderName, "CL_ICDL_NAME");
  rep.loader_version = loader_string(*api, kIcdLoaderVersion, "CL_ICDL_VERSION");
  if (smoke && problems.implausible.empty()) run_smoke(*api, ids, rep, library);

  if (!problems.implausible.empty()) {
    return report(ProbeStatus::failed, "answered implausibly: " + summary(problems.implausible));
  }
  std::string detail = plural(rep.platforms.size(), "platform") + ", " + plural(devices, "device");
  if (!problems.failed_calls.empty()) {
    detail += "; " + std::to_string(problems.failed_calls.size()) +
              " of its answers unknown: " + summary(problems.failed_calls);
  }
  detail += smoke::smoke_summary(rep.smoke);
  return report(ProbeStatus::ok, detail);
}

}  // namespace

std::string smoke_device_label(const OpenClPlatform& platform, std::size_t device) {
  return opencl_smoke_label(platform, device);
}

/// ocl-icd (Debian, Ubuntu, Fedora): OCL_ICD_VENDORS that is neither a directory nor an .icd
/// file is dlopen'ed as the only ICD; it ignores OCL_ICD_FILENAMES before late 2025.
/// Khronos loader: OCL_ICD_VENDORS is only ever a directory, so a file there hides
/// /etc/OpenCL/vendors, and OCL_ICD_FILENAMES adds the one library. Layers are left out: this
/// probes drivers.
void restrict_loader_to(const std::string& library) {
  ::setenv("OCL_ICD_VENDORS", library.c_str(), 1);
  ::setenv("OCL_ICD_FILENAMES", library.c_str(), 1);
  ::setenv("OPENCL_LAYER_PATH", library.c_str(), 1);
  ::unsetenv("OPENCL_LAYERS");
}

JobReport probe_icd(const std::string& library, bool smoke) {
  IcdReport rep;
  auto report = make_reporter(library, rep);
  restrict_loader_to(library);

  std::string err;
  auto icd = DynamicLibrary::open(library, &err);
  if (!icd) {
    rep.loads = false;
    return report(ProbeStatus::failed, "dlopen failed: " + err);
  }
  using GetAddressFn = void*(const char*);
  auto* get_address = icd->symbol<GetAddressFn>("clGetExtensionFunctionAddress");
  if (get_address == nullptr) {
    rep.loads = false;
    return report(ProbeStatus::failed,
                  "does not export clGetExtensionFunctionAddress, so no OpenCL loader takes it "
                  "as an ICD");
  }
  auto* get_icd_platforms =
      reinterpret_cast<clIcdGetPlatformIDsKHR_fn>(get_address("clIcdGetPlatformIDsKHR"));
  if (get_icd_platforms == nullptr) {
    get_icd_platforms =
        reinterpret_cast<clIcdGetPlatformIDsKHR_fn>(icd->symbol<void()>("clIcdGetPlatformIDsKHR"));
  }
  if (get_icd_platforms == nullptr) {
    rep.loads = false;
    return report(ProbeStatus::failed, "has no clIcdGetPlatformIDsKHR: not an OpenCL ICD");
  }
  cl_uint count = 0;
  cl_int rc = get_icd_platforms(0, nullptr, &count);
  if (rc != CL_SUCCESS) {
    rep.loads = false;
    return report(ProbeStatus::failed, cl_call_failed("clIcdGetPlatformIDsKHR", rc));
  }
  rep.loads = true;
  if (count > kMaxPlatforms) {
    // The loader would believe it and allocate that many; do not hand the ICD over.
    return report(ProbeStatus::failed,
                  "clIcdGetPlatformIDsKHR claims " + std::to_string(count) + " platforms");
  }
  if (count == 0) return report(ProbeStatus::missing, "loads but reports no platforms");
  return enumerate(library_names(kPlatformLinux).opencl.front(), library, smoke, rep, report);
}

JobReport probe_framework(const std::string& library, bool smoke) {
  IcdReport rep;
  auto report = make_reporter(library, rep);
  // Apple's OpenCL is the implementation itself: no ICD entry point, no loader in between.
  rep.loads = true;
  return enumerate(library, library, smoke, rep, report);
}

}  // namespace gpudoctor::opencl
