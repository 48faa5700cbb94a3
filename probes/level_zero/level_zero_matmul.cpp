#include "level_zero/level_zero_matmul.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "smoke/matmul_reference.hpp"
#include "smoke/smoke_verdict.hpp"
#include "smoke/timed_runs.hpp"

namespace gpudoctor::level_zero {

namespace {

/// Work items per work group, and the tile n is padded to: rows of C, one per work item.
constexpr std::uint32_t kZeGroupRows = 16;
constexpr std::size_t kZeBuildLogShown = 600;

/// Destroys a Level Zero object on scope exit.
template <typename T>
struct ZeHeld {
  T handle = nullptr;
  ze_result_t (*destroy)(T) = nullptr;
  ZeHeld() = default;
  ZeHeld(const ZeHeld&) = delete;
  ZeHeld& operator=(const ZeHeld&) = delete;
  ~ZeHeld() {
    if (handle != nullptr && destroy != nullptr) destroy(handle);
  }
};

/// Device memory, freed on scope exit.
struct ZeDeviceBuffer {
  const LevelZeroComputeApi* api = nullptr;
  ze_context_handle_t context = nullptr;
  void* ptr = nullptr;
  ZeDeviceBuffer() = default;
  ZeDeviceBuffer(const ZeDeviceBuffer&) = delete;
  ZeDeviceBuffer& operator=(const ZeDeviceBuffer&) = delete;
  ~ZeDeviceBuffer() {
    if (ptr != nullptr) api->mem_free(context, ptr);
  }
};

}  // namespace

std::string ze_call_failed(const char* call, ze_result_t rc) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%x", rc);
  const auto name = ze_result_name(rc);
  return std::string(call) + " returned " + hex + (name ? " (" + *name + ")" : "");
}

struct LevelZeroMatmul::State {
  const LevelZeroComputeApi* api;
  ze_device_handle_t device;
  SmokeResult base;
  bool ready = false;
  ZeHeld<ze_context_handle_t> context;
  ZeHeld<ze_module_handle_t> module;
  ZeHeld<ze_kernel_handle_t> kernel;
  ZeHeld<ze_command_queue_handle_t> queue;
  ZeHeld<ze_command_list_handle_t> list;

  State(const LevelZeroComputeApi* a, ze_device_handle_t d) : api(a), device(d) {}

  void fail(const char* call, ze_result_t rc) {
    smoke::record_failure(base, ze_call_failed(call, rc));
  }

  void setup(ze_driver_handle_t driver, const std::string& missing,
             const std::vector<std::uint32_t>& spirv) {
    if (spirv.empty()) return smoke::record_skip(base, kNoSpirvKernel);
    if (api == nullptr) return smoke::record_skip(base, "the Level Zero loader has no " + missing);
    base.kernel = "SPIR-V from OpenCL C, one work item per row of C (smoke kernel)";
    ContextDesc cdesc;
    context.destroy = api->context_destroy;
    if (ze_result_t rc = api->context_create(driver, &cdesc, &context.handle); rc != kSuccess) {
      context.handle = nullptr;
      return fail("zeContextCreate", rc);
    }
    ModuleDesc mdesc;
    mdesc.input_size = spirv.size() * sizeof(std::uint32_t);
    mdesc.input = reinterpret_cast<const std::uint8_t*>(spirv.data());
    mdesc.build_flags = "";
    ze_module_build_log_handle_t log = nullptr;
    module.destroy = api->module_destroy;
    ze_result_t rc = api->module_create(context.handle, device, &mdesc, &module.handle, &log);
    const std::string log_text = build_log(log);
    if (rc != kSuccess) {
      module.handle = nullptr;
      return smoke::record_failure(
          base, ze_call_failed("zeModuleCreate", rc) + " for the matmul kernel" + log_text);
    }
    KernelDesc kdesc;
    kdesc.name = kMatmulKernelName;
    kernel.destroy = api->kernel_destroy;
    if ((rc = api->kernel_create(module.handle, &kdesc, &kernel.handle)) != kSuccess) {
      kernel.handle = nullptr;
      return fail("zeKernelCreate", rc);
    }
    if ((rc = api->kernel_set_group_size(kernel.handle, kZeGroupRows, 1, 1)) != kSuccess) {
      return fail("zeKernelSetGroupSize", rc);
    }
    // Ordinal 0: the first command queue group, the compute engines' on Intel's GPUs.
    CommandQueueDesc qdesc;
    queue.destroy = api->command_queue_destroy;
    if ((rc = api->command_queue_create(context.handle, device, &qdesc, &queue.handle)) !=
        kSuccess) {
      queue.handle = nullptr;
      return fail("zeCommandQueueCreate", rc);
    }
    CommandListDesc ldesc;
    list.destroy = api->command_list_destroy;
    if ((rc = api->command_list_create(context.handle, device, &ldesc, &list.handle)) != kSuccess) {
      list.handle = nullptr;
      return fail("zeCommandListCreate", rc);
    }
    ready = true;
  }

  std::string build_log(ze_module_build_log_handle_t log) const {
    if (log == nullptr) return "";
    std::string text;
    std::size_t size = 0;
    if (api->module_build_log_get_string &&
        api->module_build_log_get_string(log, &size, nullptr) == kSuccess && size > 1 &&
        size < (1u << 20)) {
      text.assign(size, '\0');
      if (api->module_build_log_get_string(log, &size, text.data()) != kSuccess) text.clear();
      text.resize(std::min({text.find('\0'), kZeBuildLogShown, text.size()}));
    }
    if (api->module_build_log_destroy) api->module_build_log_destroy(log);
    return text.empty() ? "" : ": " + text;
  }

  /// Records, closes, submits and waits for what `record` appends; the failed call's text.
  template <typename Record>
  std::optional<std::string> submit(Record&& record) {
    ze_result_t rc = api->command_list_reset(list.handle);
    if (rc != kSuccess) return ze_call_failed("zeCommandListReset", rc);
    if (auto failed = record()) return failed;
    if ((rc = api->command_list_close(list.handle)) != kSuccess) {
      return ze_call_failed("zeCommandListClose", rc);
    }
    ze_command_list_handle_t l = list.handle;
    if ((rc = api->command_queue_execute_command_lists(queue.handle, 1, &l, nullptr)) != kSuccess) {
      return ze_call_failed("zeCommandQueueExecuteCommandLists", rc);
    }
    if ((rc = api->command_queue_synchronize(queue.handle, kWaitForever)) != kSuccess) {
      return ze_call_failed("zeCommandQueueSynchronize", rc);
    }
    return std::nullopt;
  }
};

LevelZeroMatmul::LevelZeroMatmul(const LevelZeroComputeApi* compute, const std::string& missing,
                                 ze_driver_handle_t driver, ze_device_handle_t device,
                                 std::string label, std::string library,
                                 std::vector<std::uint32_t> spirv)
    : state_(std::make_unique<State>(compute, device)) {
  state_->base.api = "level_zero";
  state_->base.device = std::move(label);
  state_->base.library = std::move(library);
  state_->setup(driver, missing, spirv);
}

LevelZeroMatmul::~LevelZeroMatmul() = default;

SmokeResult LevelZeroMatmul::run(const smoke::MatmulRequest& req) {
  State& s = *state_;
  SmokeResult r = smoke::start_run(s.base, req.n);
  if (!s.ready || r.status == "skip") return r;
  const LevelZeroComputeApi& api = *s.api;
  const smoke::PaddedLayout layout = smoke::padded_layout(req.n, kZeGroupRows);
  const int padded = layout.padded;
  const int ld = layout.ld;
  const std::size_t bytes = layout.bytes;

  const smoke::MatmulInputs in = smoke::matmul_inputs(req.n);
  const std::vector<float> a = smoke::pad_matrix(in.a, req.n, padded, ld);
  const std::vector<float> b = smoke::pad_matrix(in.b, req.n, padded, ld);
  std::vector<float> c(static_cast<std::size_t>(padded) * ld, 0.0f);
  ZeDeviceBuffer buffers[3];
  for (auto& buf : buffers) {
    buf.api = &api;
    buf.context = s.context.handle;
    DeviceMemAllocDesc desc;
    if (ze_result_t rc =
            api.mem_alloc_device(s.context.handle, &desc, bytes, 64, s.device, &buf.ptr);
        rc != kSuccess || buf.ptr == nullptr) {
      buf.ptr = nullptr;
      smoke::record_failure(r, ze_call_failed("zeMemAllocDevice", rc));
      return r;
    }
  }
  const std::optional<std::string> copied_in = s.submit([&]() -> std::optional<std::string> {
    for (int i = 0; i < 2; ++i) {
      if (ze_result_t rc = api.command_list_append_memory_copy(
              s.list.handle, buffers[i].ptr, (i == 0 ? a : b).data(), bytes, nullptr, 0, nullptr);
          rc != kSuccess) {
        return ze_call_failed("zeCommandListAppendMemoryCopy", rc);
      }
    }
    return std::nullopt;
  });
  if (copied_in) {
    smoke::record_failure(r, *copied_in);
    return r;
  }
  const std::int32_t n_arg = padded;
  const std::int32_t ld_arg = ld;
  ze_kernel_handle_t k = s.kernel.handle;
  ze_result_t rc = kSuccess;
  if ((rc = api.kernel_set_argument_value(k, 0, sizeof n_arg, &n_arg)) != kSuccess ||
      (rc = api.kernel_set_argument_value(k, 1, sizeof ld_arg, &ld_arg)) != kSuccess ||
      (rc = api.kernel_set_argument_value(k, 2, sizeof(void*), &buffers[0].ptr)) != kSuccess ||
      (rc = api.kernel_set_argument_value(k, 3, sizeof(void*), &buffers[1].ptr)) != kSuccess ||
      (rc = api.kernel_set_argument_value(k, 4, sizeof(void*), &buffers[2].ptr)) != kSuccess) {
    smoke::record_failure(r, ze_call_failed("zeKernelSetArgumentValue", rc));
    return r;
  }
  GroupCount groups;
  groups.x = static_cast<std::uint32_t>(padded) / kZeGroupRows;
  const smoke::TimedRuns timed = smoke::time_runs(req, [&]() -> std::optional<std::string> {
    return s.submit([&]() -> std::optional<std::string> {
      if (ze_result_t e =
              api.command_list_append_launch_kernel(s.list.handle, k, &groups, nullptr, 0, nullptr);
          e != kSuccess) {
        return ze_call_failed("zeCommandListAppendLaunchKernel", e);
      }
      return std::nullopt;
    });
  });
  if (timed.error) {
    smoke::record_failure(r, *timed.error);
    return r;
  }
  const std::optional<std::string> copied_out = s.submit([&]() -> std::optional<std::string> {
    if (ze_result_t e = api.command_list_append_memory_copy(s.list.handle, c.data(), buffers[2].ptr,
                                                            bytes, nullptr, 0, nullptr);
        e != kSuccess) {
      return ze_call_failed("zeCommandListAppendMemoryCopy", e);
    }
    return std::nullopt;
  });
  if (copied_out) {
    smoke::record_failure(r, *copied_out);
    return r;
  }
  smoke::record_output(r, req, in, c, ld, timed);
  return r;
}

}  // namespace gpudoctor::level_zero
