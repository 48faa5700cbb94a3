#include "bench_runners/opencl_bench.hpp"

#include <algorithm>

#include "core/host_platform.hpp"
#include "platform/library_names.hpp"
#include "bench/bench_model.hpp"
#include "bench_runners/clblast_series.hpp"
#include "bench_runners/copy_timer.hpp"
#include "bench_runners/opencl_bandwidth.hpp"
#include "bench_runners/sweep.hpp"
#include "opencl/opencl_device.hpp"
#include "opencl/opencl_enumerate.hpp"
#include "opencl/opencl_matmul.hpp"
#include "api/opencl/opencl_codes.hpp"
#include "text.hpp"

namespace gpudoctor::bench {

namespace {

// cl_nv_device_attribute_query: the compute capability, which the peak model needs.
constexpr cl_device_info kComputeCapabilityMajorNv = 0x4000;
constexpr cl_device_info kComputeCapabilityMinorNv = 0x4001;

std::optional<int> nv_attribute(const opencl::OpenClApi& api, cl_device_id id,
                                cl_device_info param) {
  cl_uint v = 0;
  if (api.get_device_info(id, param, sizeof v, &v, nullptr) != CL_SUCCESS) return std::nullopt;
  return static_cast<int>(v);
}

DeviceTraits traits_of(const opencl::OpenClApi& api, cl_device_id id, const OpenClDevice& d) {
  DeviceTraits t;
  t.vendor_id = d.vendor_id;
  if (d.type) t.type = to_lower(*d.type);
  t.compute_units = d.compute_units;
  t.clock_mhz = d.max_clock_mhz;
  t.pci_bus_id = d.pci_bus_id;
  if (d.extensions.end() !=
      std::find(d.extensions.begin(), d.extensions.end(), "cl_nv_device_attribute_query")) {
    t.cc_major = nv_attribute(api, id, kComputeCapabilityMajorNv);
    t.cc_minor = nv_attribute(api, id, kComputeCapabilityMinorNv);
  }
  return t;
}

template <typename Handle, typename Query>
std::vector<Handle> handles(Query&& query, std::string* error) {
  cl_uint count = 0;
  if (cl_int rc = query(0, nullptr, &count); rc != CL_SUCCESS) {
    if (rc != CL_DEVICE_NOT_FOUND) *error = std::to_string(rc);
    return {};
  }
  std::vector<Handle> out(std::min<cl_uint>(count, opencl::kMaxDevices), nullptr);
  if (query(static_cast<cl_uint>(out.size()), out.data(), nullptr) != CL_SUCCESS) return {};
  out.erase(std::remove(out.begin(), out.end(), nullptr), out.end());
  return out;
}

BenchSeries device_series(const opencl::OpenClApi& api, const DynamicLibrary& loader,
                          cl_platform_id platform, cl_device_id id, const std::string& icd,
                          const std::vector<int>& sizes) {
  opencl::QueryProblems ignored;
  const OpenClDevice d = opencl::read_device(api, id, "device", ignored);
  BenchSeries s;
  s.api = "opencl";
  s.device = d.name.value_or("OpenCL device");
  s.library = icd;
  s.traits = traits_of(api, id, d);
  opencl::OpenClMatmul runner(api, platform, id, s.device);
  sweep(s, sizes, [&](const smoke::MatmulRequest& req) { return runner.run(req); });
  std::size_t bytes = kCopyBytes;
  if (d.max_alloc_bytes) bytes = std::min<std::size_t>(bytes, *d.max_alloc_bytes);
  s.bandwidth = opencl_bandwidth(api, loader, platform, id, bytes);
  return s;
}

}  // namespace

JobReport opencl_bench(const std::string& icd_library, const std::vector<int>& sizes,
                       bool clblast) {
  opencl::restrict_loader_to(icd_library);
  JobReport rep;
  BenchJobReport out;
  auto done = [&](ProbeStatus status, const std::string& detail) {
    rep.status = status;
    rep.detail = icd_library + ": " + detail;
    rep.data = out;
    return rep;
  };
  std::string err;
  const std::string& api_library = library_names(host_platform()).opencl.front();
  auto loader = DynamicLibrary::open(api_library, &err);
  if (!loader) return done(ProbeStatus::missing, api_library + " cannot be opened: " + err);
  std::string missing;
  auto api = opencl::OpenClApi::load(*loader, &missing);
  if (!api) return done(ProbeStatus::failed, api_library + " has no " + missing);

  std::string error;
  auto platforms = handles<cl_platform_id>(
      [&](cl_uint n, cl_platform_id* p, cl_uint* c) { return api->get_platform_ids(n, p, c); },
      &error);
  if (!error.empty()) return done(ProbeStatus::failed, "clGetPlatformIDs returned " + error);
  std::size_t devices_seen = 0;
  for (cl_platform_id p : platforms) {
    auto devices = handles<cl_device_id>(
        [&](cl_uint n, cl_device_id* d, cl_uint* c) {
          return api->get_device_ids(p, CL_DEVICE_TYPE_ALL, n, d, c);
        },
        &error);
    for (cl_device_id d : devices) {
      ++devices_seen;
      out.series.push_back(device_series(*api, *loader, p, d, icd_library, sizes));
      // What an OpenCL framework would get on the same device, where CLBlast is installed.
      auto lib = clblast ? clblast_series(*api, p, d, out.series.back(), sizes) : std::nullopt;
      if (lib) {
        out.series.push_back(std::move(*lib));
      }
    }
  }
  if (out.series.empty()) return done(ProbeStatus::missing, "no OpenCL device");
  return done(ProbeStatus::ok, std::to_string(devices_seen) + " device(s) benchmarked");
}

}  // namespace gpudoctor::bench
