#include "opencl/opencl_matmul.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>
#include <vector>

#include "opencl/matmul_cl.hpp"
#include "opencl/opencl_info_reader.hpp"
#include "api/opencl/opencl_codes.hpp"
#include "smoke/smoke_verdict.hpp"
#include "smoke/timed_runs.hpp"

namespace gpudoctor::opencl {

namespace {

constexpr std::size_t kBuildLogShown = 600;

/// The kernel's sizes and form (see matmul_cl.hpp): 64×64 tiles of C per work group. Through
/// local memory (GPUs): 8×8 per work item, 64 work items. Direct (CPUs): 8×16 per work item,
/// one AVX-512 vector (or two AVX2 ones) per row, the fastest of the shapes tried on PoCL.
struct Tiles {
  bool smoke = false;  ///< the smoke kernel (kSmokeMatmulSource): a row per work item, alone
  bool direct = false;
  int ts_m = 64;
  int ts_n = 64;
  int ts_k = 16;
  int wpt_m = 8;
  int vw = 8;

  static Tiles for_smoke() {
    Tiles t;
    t.smoke = true;
    t.ts_m = t.ts_n = 1;
    return t;
  }
  static Tiles for_local_memory(bool dedicated) {
    Tiles t;
    if (!dedicated) {
      t.direct = true;
      t.vw = 16;
    }
    return t;
  }
  std::size_t work_group() const {
    if (smoke) return 1;
    return static_cast<std::size_t>(ts_n / vw) * static_cast<std::size_t>(ts_m / wpt_m);
  }
  std::size_t local_bytes() const {
    return direct || smoke ? 0 : static_cast<std::size_t>(ts_k) * (ts_m + ts_n) * sizeof(float);
  }
  const char* source() const { return smoke ? kSmokeMatmulSource : kMatmulSource; }
  std::string options() const {
    if (smoke) return "-cl-mad-enable";
    return std::string("-cl-mad-enable") + (direct ? " -DGPUDOCTOR_DIRECT" : "") +
           " -DTS_M=" + std::to_string(ts_m) + " -DTS_N=" + std::to_string(ts_n) +
           " -DTS_K=" + std::to_string(ts_k) + " -DWPT_M=" + std::to_string(wpt_m) +
           " -DVW=" + std::to_string(vw);
  }
  /// Work items along x and y for a padded n, and the work group.
  std::array<std::size_t, 2> global(int padded) const {
    if (smoke) return {static_cast<std::size_t>(padded), 1};
    return {static_cast<std::size_t>(padded / vw), static_cast<std::size_t>(padded / wpt_m)};
  }
  std::array<std::size_t, 2> local() const {
    if (smoke) return {1, 1};
    return {static_cast<std::size_t>(ts_n / vw), static_cast<std::size_t>(ts_m / wpt_m)};
  }
  std::string description() const {
    if (smoke) return "OpenCL C, one work item per row of C (smoke kernel)";
    return "OpenCL C, " + std::to_string(ts_m) + "x" + std::to_string(ts_n) +
           (direct ? " tiles from cache, " : " local-memory tiles, ") + std::to_string(wpt_m) +
           "x" + std::to_string(vw) + " per work item";
  }
};

/// Releases an OpenCL object on scope exit.
template <typename T>
struct Held {
  T handle = nullptr;
  cl_int(CL_API_CALL* release)(T) = nullptr;
  Held() = default;
  Held(T h, cl_int(CL_API_CALL* r)(T)) : handle(h), release(r) {}
  Held(const Held&) = delete;
  Held& operator=(Held&& other) noexcept {
    std::swap(handle, other.handle);
    std::swap(release, other.release);
    return *this;
  }
  ~Held() {
    if (handle != nullptr && release != nullptr) release(handle);
  }
};

}  // namespace

struct OpenClMatmul::State {
  const OpenClApi& api;
  cl_device_id device;
  Tiles tiles;
  SmokeResult base;  ///< api, device, kernel; status set when setup failed
  bool ready = false;
  Held<cl_context> context;
  Held<cl_command_queue> queue;
  Held<cl_program> program;
  Held<cl_kernel> kernel;
  std::size_t max_alloc = std::numeric_limits<std::size_t>::max();

  MatmulKernel kind;

  State(const OpenClApi& a, cl_device_id d, MatmulKernel k) : api(a), device(d), kind(k) {}

  void setup(cl_platform_id platform) {
    if (auto missing = api.compute_missing()) {
      return smoke::record_skip(base, "the OpenCL loader has no " + *missing);
    }
    if (!device_usable()) return;
    base.kernel = tiles.description();
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                           reinterpret_cast<cl_context_properties>(platform), 0};
    cl_int rc = CL_SUCCESS;
    context = {api.create_context(props, 1, &device, nullptr, nullptr, &rc), api.release_context};
    if (rc != CL_SUCCESS || context.handle == nullptr) return fail("clCreateContext", rc);
    // Profiling: each run's time is the kernel's own, from its event, not the host's wait
    // around it (kernel_ms promises no compile and no copies; bench's series are kernels).
    queue = {api.create_command_queue(context.handle, device, CL_QUEUE_PROFILING_ENABLE, &rc),
             api.release_command_queue};
    if (rc != CL_SUCCESS || queue.handle == nullptr) return fail("clCreateCommandQueue", rc);
    const char* source = tiles.source();
    program = {api.create_program_with_source(context.handle, 1, &source, nullptr, &rc),
               api.release_program};
    if (rc != CL_SUCCESS || program.handle == nullptr) {
      return fail("clCreateProgramWithSource", rc);
    }
    const std::string options = tiles.options();
    rc = api.build_program(program.handle, 1, &device, options.c_str(), nullptr, nullptr);
    if (rc != CL_SUCCESS) {
      return smoke::record_failure(
          base, cl_call_failed("clBuildProgram", rc) + " for the matmul kernel" + build_log());
    }
    kernel = {api.create_kernel(program.handle, kMatmulKernelName, &rc), api.release_kernel};
    if (rc != CL_SUCCESS || kernel.handle == nullptr) return fail("clCreateKernel", rc);
    ready = true;
  }

  /// Whether the device can take this kernel at all; records the skip when not.
  bool device_usable() {
    QueryProblems ignored;
    InfoReader r([&](cl_uint p, std::size_t n, void* v,
                     std::size_t* ret) { return api.get_device_info(device, p, n, v, ret); },
                 "clGetDeviceInfo", "device", ignored);
    if (r.boolean(CL_DEVICE_AVAILABLE, "CL_DEVICE_AVAILABLE") == false) {
      smoke::record_skip(base, "the device says it is not available (CL_DEVICE_AVAILABLE)");
      return false;
    }
    if (r.boolean(CL_DEVICE_COMPILER_AVAILABLE, "CL_DEVICE_COMPILER_AVAILABLE") == false) {
      smoke::record_skip(base,
                         "the driver has no OpenCL C compiler (CL_DEVICE_COMPILER_AVAILABLE)");
      return false;
    }
    auto local_type =
        r.value<cl_device_local_mem_type>(CL_DEVICE_LOCAL_MEM_TYPE, "CL_DEVICE_LOCAL_MEM_TYPE");
    tiles = kind == MatmulKernel::smoke ? Tiles::for_smoke()
                                        : Tiles::for_local_memory(local_type != CL_GLOBAL);
    auto wg = r.value<std::size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE, "CL_DEVICE_MAX_WORK_GROUP_SIZE");
    if (wg && *wg < tiles.work_group()) {
      smoke::record_skip(base, "work groups are limited to " + std::to_string(*wg) +
                                   " work items; the kernel needs " +
                                   std::to_string(tiles.work_group()));
      return false;
    }
    auto local = r.value<cl_ulong>(CL_DEVICE_LOCAL_MEM_SIZE, "CL_DEVICE_LOCAL_MEM_SIZE");
    if (local && *local < tiles.local_bytes()) {
      smoke::record_skip(base, "local memory is " + std::to_string(*local) +
                                   " bytes; the kernel needs " +
                                   std::to_string(tiles.local_bytes()));
      return false;
    }
    if (auto m = r.value<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE, "CL_DEVICE_MAX_MEM_ALLOC_SIZE")) {
      max_alloc = static_cast<std::size_t>(*m);
    }
    return true;
  }

  void fail(const char* call, cl_int rc) { smoke::record_failure(base, cl_call_failed(call, rc)); }

  std::string build_log() const {
    std::size_t size = 0;
    if (api.get_program_build_info(program.handle, device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                                   &size) != CL_SUCCESS ||
        size <= 1 || size > (1u << 20)) {
      return "";
    }
    std::string log(size, '\0');
    if (api.get_program_build_info(program.handle, device, CL_PROGRAM_BUILD_LOG, size, log.data(),
                                   nullptr) != CL_SUCCESS) {
      return "";
    }
    log.resize(std::min(log.find('\0'), kBuildLogShown));
    return ": " + log;
  }
};

OpenClMatmul::OpenClMatmul(const OpenClApi& api, cl_platform_id platform, cl_device_id device,
                           std::string label, MatmulKernel kernel)
    : state_(std::make_unique<State>(api, device, kernel)) {
  state_->base.api = "opencl";
  state_->base.device = std::move(label);
  state_->setup(platform);
}

OpenClMatmul::~OpenClMatmul() = default;

SmokeResult OpenClMatmul::run(const smoke::MatmulRequest& req) {
  State& s = *state_;
  SmokeResult r = smoke::start_run(s.base, req.n);
  if (!s.ready || r.status == "skip") return r;
  const OpenClApi& api = s.api;
  const smoke::PaddedLayout layout =
      smoke::padded_layout(req.n, std::max(s.tiles.ts_m, s.tiles.ts_n));
  const int padded = layout.padded;
  const int ld = layout.ld;
  const std::size_t bytes = layout.bytes;
  if (bytes > s.max_alloc) {
    smoke::record_skip(r, "a " + std::to_string(padded) + "x" + std::to_string(padded) +
                              " matrix exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    return r;
  }
  auto failed = [&](const char* call, cl_int rc) {
    smoke::record_failure(r, cl_call_failed(call, rc));
    return r;
  };

  const smoke::MatmulInputs in = smoke::matmul_inputs(req.n);
  const std::vector<float> a = smoke::pad_matrix(in.a, req.n, padded, ld);
  const std::vector<float> b = smoke::pad_matrix(in.b, req.n, padded, ld);
  cl_int rc = CL_SUCCESS;
  Held<cl_mem> buffers[3];
  for (auto& buf : buffers) {
    buf = Held<cl_mem>(api.create_buffer(s.context.handle, CL_MEM_READ_WRITE, bytes, nullptr, &rc),
                       api.release_mem_object);
    if (rc != CL_SUCCESS || buf.handle == nullptr) return failed("clCreateBuffer", rc);
  }
  for (int i = 0; i < 2; ++i) {
    rc = api.enqueue_write_buffer(s.queue.handle, buffers[i].handle, CL_TRUE, 0, bytes,
                                  (i == 0 ? a : b).data(), 0, nullptr, nullptr);
    if (rc != CL_SUCCESS) return failed("clEnqueueWriteBuffer", rc);
  }
  const cl_int n_arg = padded;
  const cl_int ld_arg = ld;
  cl_kernel k = s.kernel.handle;
  if ((rc = api.set_kernel_arg(k, 0, sizeof n_arg, &n_arg)) != CL_SUCCESS ||
      (rc = api.set_kernel_arg(k, 1, sizeof ld_arg, &ld_arg)) != CL_SUCCESS ||
      (rc = api.set_kernel_arg(k, 2, sizeof(cl_mem), &buffers[0].handle)) != CL_SUCCESS ||
      (rc = api.set_kernel_arg(k, 3, sizeof(cl_mem), &buffers[1].handle)) != CL_SUCCESS ||
      (rc = api.set_kernel_arg(k, 4, sizeof(cl_mem), &buffers[2].handle)) != CL_SUCCESS) {
    return failed("clSetKernelArg", rc);
  }
  const std::array<std::size_t, 2> global = s.tiles.global(padded);
  const std::array<std::size_t, 2> local = s.tiles.local();

  std::vector<double> profiled;  // the device's time of every run, the untimed first one too
  bool profiling = true;
  smoke::TimedRuns timed = smoke::time_runs(req, [&]() -> std::optional<std::string> {
    cl_event ev = nullptr;
    cl_int e = api.enqueue_nd_range_kernel(s.queue.handle, k, 2, nullptr, global.data(),
                                           local.data(), 0, nullptr, &ev);
    if (e != CL_SUCCESS) return cl_call_failed("clEnqueueNDRangeKernel", e);
    Held<cl_event> held(ev, api.release_event);
    if (ev == nullptr) return cl_call_failed("clEnqueueNDRangeKernel", CL_INVALID_EVENT);
    if ((e = api.wait_for_events(1, &ev)) != CL_SUCCESS) {
      return cl_call_failed("clWaitForEvents", e);
    }
    cl_ulong start = 0, end = 0;
    profiling = profiling &&
                api.get_event_profiling_info(ev, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                             nullptr) == CL_SUCCESS &&
                api.get_event_profiling_info(ev, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                             nullptr) == CL_SUCCESS &&
                end > start;
    if (profiling) profiled.push_back(static_cast<double>(end - start) / 1e6);
    return std::nullopt;
  });
  // A driver without profiling (CL_PROFILING_INFO_NOT_AVAILABLE) keeps the host's times.
  if (!timed.error && profiling && profiled.size() == timed.ms.size() + 1) {
    timed.ms.assign(profiled.begin() + 1, profiled.end());
    if (req.times_ms != nullptr) *req.times_ms = timed.ms;
  }
  if (timed.error) {
    smoke::record_failure(r, *timed.error);
    return r;
  }
  std::vector<float> c(static_cast<std::size_t>(padded) * ld, 0.0f);
  rc = api.enqueue_read_buffer(s.queue.handle, buffers[2].handle, CL_TRUE, 0, bytes, c.data(), 0,
                               nullptr, nullptr);
  if (rc != CL_SUCCESS) return failed("clEnqueueReadBuffer", rc);

  smoke::record_output(r, req, in, c, ld, timed);
  return r;
}

SmokeResult opencl_matmul(const OpenClApi& api, cl_platform_id platform, cl_device_id device,
                          const smoke::MatmulRequest& req) {
  QueryProblems ignored;
  InfoReader r([&](cl_uint p, std::size_t n, void* v,
                   std::size_t* ret) { return api.get_device_info(device, p, n, v, ret); },
               "clGetDeviceInfo", "device", ignored);
  OpenClMatmul runner(api, platform, device,
                      r.string(CL_DEVICE_NAME, "CL_DEVICE_NAME").value_or("?"));
  return runner.run(req);
}

}  // namespace gpudoctor::opencl
