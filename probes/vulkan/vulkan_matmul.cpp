#include "vulkan/vulkan_matmul.hpp"

#include <cstring>
#include <map>
#include <vector>

#include "smoke/smoke_verdict.hpp"
#include "smoke/timed_runs.hpp"
#include "vulkan/matmul_spirv.hpp"
#include "vulkan/vulkan_pipeline.hpp"
#include "vulkan/vulkan_queue.hpp"

namespace gpudoctor::vulkan {

namespace {

constexpr int kBuffers = 3;                                     // A, B, C: bindings 0, 1, 2
constexpr std::uint32_t kPushBytes = 2 * sizeof(std::int32_t);  // n, ld

std::vector<Binding> bindings_of(const MatmulShader& shader) {
  const Binding input =
      shader.texel_inputs ? Binding::uniform_texel_buffer : Binding::storage_buffer;
  return {input, input, Binding::storage_buffer};
}

}  // namespace

struct VulkanMatmul::State {
  VulkanQueue q;
  SmokeResult base;
  const MatmulShader* chosen = nullptr;  ///< a test's choice; null: by device type and size
  VkPhysicalDeviceProperties props{};
  std::map<const MatmulShader*, std::unique_ptr<ComputePipeline>> pipelines;

  State(const VulkanApi& a, VkInstance i, VkPhysicalDevice p) : q(a, i, p) {}

  /// GPUs: the tiled shader. CPU devices: the texel-buffer one where A and B fit the device's
  /// texel buffers (and it has vkCreateBufferView), else the storage-buffer one.
  const MatmulShader& shader_for(int n) const {
    if (chosen != nullptr) return *chosen;
    if (props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) return kTiledMatmul;
    const smoke::PaddedLayout l = smoke::padded_layout(n, kTexelMatmul.tile);
    const auto texels = static_cast<std::uint64_t>(l.padded) * static_cast<std::uint64_t>(l.ld) / 4;
    const bool fits = texels <= props.limits.maxTexelBufferElements;
    const bool views = q.dev().create_buffer_view != nullptr && q.dev().destroy_buffer_view != nullptr;
    return fits && views ? kTexelMatmul : kDirectMatmul;
  }

  /// Why the device's work groups cannot run `shader`, if they cannot.
  std::optional<std::string> too_small_for(const MatmulShader& shader) const {
    const VkPhysicalDeviceLimits& l = props.limits;
    if (l.maxComputeWorkGroupInvocations >= shader.invocations &&
        l.maxComputeSharedMemorySize >= shader.shared_bytes) {
      return std::nullopt;
    }
    return "compute work groups are too small for the shader (" +
           std::to_string(l.maxComputeWorkGroupInvocations) + " invocations, " +
           std::to_string(l.maxComputeSharedMemorySize) + " bytes of shared memory)";
  }

  /// The pipeline of `shader`, created at its first use; its failure is recorded in `r`.
  const ComputePipeline* pipeline_for(const MatmulShader& shader, SmokeResult& r) {
    auto& slot = pipelines[&shader];
    if (slot) return slot.get();
    auto p = std::make_unique<ComputePipeline>(q);
    if (auto error = p->make(shader.spirv(), bindings_of(shader), kPushBytes)) {
      smoke::record_failure(r, *error);
      return nullptr;
    }
    slot = std::move(p);
    return slot.get();
  }
};

VulkanMatmul::VulkanMatmul(const VulkanApi& api, VkInstance instance, VkPhysicalDevice device,
                           std::string label, const MatmulShader* shader)
    : state_(std::make_unique<State>(api, instance, device)) {
  State& s = *state_;
  s.base.api = "vulkan";
  s.base.device = std::move(label);
  s.chosen = shader;
  api.get_physical_device_properties(device, &s.props);
  if (const auto& p = s.q.problem()) {
    if (p->skip) {
      smoke::record_skip(s.base, p->why);
    } else {
      smoke::record_failure(s.base, p->why);
    }
  }
}

VulkanMatmul::~VulkanMatmul() = default;

SmokeResult VulkanMatmul::run(const smoke::MatmulRequest& req) {
  State& s = *state_;
  SmokeResult r = smoke::start_run(s.base, req.n);
  if (!r.status.empty()) return r;  // the device could not be set up, or n is not positive
  const MatmulShader& shader = s.shader_for(req.n);
  r.kernel = shader.description;
  if (auto why = s.too_small_for(shader)) {
    smoke::record_skip(r, *why);
    return r;
  }
  const ComputePipeline* pipeline = s.pipeline_for(shader, r);
  if (pipeline == nullptr) return r;
  const VulkanQueue& q = s.q;
  const smoke::PaddedLayout layout = smoke::padded_layout(req.n, shader.tile);
  const int padded = layout.padded;
  const int ld = layout.ld;
  const std::size_t bytes = layout.bytes;
  auto failed = [&](std::string why) {
    smoke::record_failure(r, std::move(why));
    return r;
  };

  // Host-visible buffers (device-local too where the device has such memory: integrated GPUs,
  // CPUs, resizable BAR), so the kernel's result is read where it was written.
  VulkanBuffer buffers[kBuffers] = {VulkanBuffer(q), VulkanBuffer(q), VulkanBuffer(q)};
  for (int i = 0; i < kBuffers; ++i) {
    if (auto error = buffers[i].make(bytes, usage_for(pipeline->bindings()[i]), kHostMemory,
                                     VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) {
      return failed(*error);
    }
  }
  DescriptorSet set(q);
  if (auto error = set.make(*pipeline, {&buffers[0], &buffers[1], &buffers[2]}, bytes)) {
    return failed(*error);
  }
  const smoke::MatmulInputs in = smoke::matmul_inputs(req.n);
  const std::vector<float> a = smoke::pad_matrix(in.a, req.n, padded, ld);
  const std::vector<float> b = smoke::pad_matrix(in.b, req.n, padded, ld);
  std::memcpy(buffers[0].mapped(), a.data(), bytes);
  std::memcpy(buffers[1].mapped(), b.data(), bytes);
  std::memset(buffers[2].mapped(), 0, bytes);

  const std::int32_t sizes[2] = {padded, ld};
  auto recorded = q.record([&](VkCommandBuffer c) {
    pipeline->dispatch(c, set.set(), sizes,
                       static_cast<std::uint32_t>(padded / shader.group_rows),
                       static_cast<std::uint32_t>(padded / shader.group_columns));
  });
  if (recorded) return failed(*recorded);

  const smoke::TimedRuns timed = smoke::time_runs(req, [&] { return q.submit_and_wait(); });
  if (timed.error) return failed(*timed.error);
  const auto* out = static_cast<const float*>(buffers[2].mapped());
  const std::vector<float> c(out, out + static_cast<std::size_t>(padded) * ld);
  smoke::record_output(r, req, in, c, ld, timed);
  return r;
}

SmokeResult vulkan_matmul(const VulkanApi& api, VkInstance instance, VkPhysicalDevice device,
                          const smoke::MatmulRequest& req) {
  VkPhysicalDeviceProperties props{};
  api.get_physical_device_properties(device, &props);
  VulkanMatmul runner(
      api, instance, device,
      std::string(props.deviceName, strnlen(props.deviceName, sizeof props.deviceName)));
  return runner.run(req);
}

}  // namespace gpudoctor::vulkan
