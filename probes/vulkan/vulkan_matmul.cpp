#include "vulkan/vulkan_matmul.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "smoke/smoke_verdict.hpp"
#include "smoke/timed_runs.hpp"
#include "vulkan/matmul_spirv.hpp"
#include "vulkan/vulkan_queue.hpp"
#include "api/vulkan/vulkan_names.hpp"

namespace gpudoctor::vulkan {

namespace {

constexpr int kBuffers = 3;                                     // A, B, C: bindings 0, 1, 2
constexpr std::uint32_t kPushBytes = 2 * sizeof(std::int32_t);  // n, ld

}  // namespace

struct VulkanMatmul::State {
  VulkanQueue q;
  SmokeResult base;
  bool ready = false;
  const MatmulShader* shape = &kTiledMatmul;
  VkShaderModule shader = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;

  State(const VulkanApi& a, VkInstance i, VkPhysicalDevice p) : q(a, i, p) {}

  ~State() {
    const VulkanComputeApi& dev = q.dev();
    const VkDevice device = q.device();
    if (device == VK_NULL_HANDLE) return;
    if (pipeline != VK_NULL_HANDLE) dev.destroy_pipeline(device, pipeline, nullptr);
    if (pipeline_layout != VK_NULL_HANDLE) {
      dev.destroy_pipeline_layout(device, pipeline_layout, nullptr);
    }
    if (set_layout != VK_NULL_HANDLE) {
      dev.destroy_descriptor_set_layout(device, set_layout, nullptr);
    }
    if (shader != VK_NULL_HANDLE) dev.destroy_shader_module(device, shader, nullptr);
  }

  void fail(const char* call, VkResult r) { smoke::record_failure(base, vk_call_failed(call, r)); }

  /// The shader for this device unless the caller chose (CPU devices run the one without shared
  /// memory), and whether its work groups fit the device; records the skip when not.
  bool choose_shader(const MatmulShader* chosen) {
    VkPhysicalDeviceProperties props{};
    q.api().get_physical_device_properties(q.physical(), &props);
    if (chosen != nullptr) {
      shape = chosen;
    } else if (props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
      shape = &kDirectMatmul;
    }
    base.kernel = shape->description;
    const VkPhysicalDeviceLimits& l = props.limits;
    if (l.maxComputeWorkGroupInvocations >= shape->invocations &&
        l.maxComputeSharedMemorySize >= shape->shared_bytes) {
      return true;
    }
    smoke::record_skip(base, "compute work groups are too small for the shader (" +
                                 std::to_string(l.maxComputeWorkGroupInvocations) +
                                 " invocations, " + std::to_string(l.maxComputeSharedMemorySize) +
                                 " bytes of shared memory)");
    return false;
  }

  void setup(const MatmulShader* chosen) {
    if (!choose_shader(chosen)) return;
    if (const auto& p = q.problem()) {
      return p->skip ? smoke::record_skip(base, p->why) : smoke::record_failure(base, p->why);
    }
    if (make_pipeline()) ready = true;
  }

  bool make_pipeline() {
    const VulkanComputeApi& dev = q.dev();
    const VkDevice device = q.device();
    const std::vector<std::uint32_t> code = shape->spirv();
    VkShaderModuleCreateInfo shader_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    shader_info.codeSize = code.size() * sizeof(std::uint32_t);
    shader_info.pCode = code.data();
    if (VkResult r = dev.create_shader_module(device, &shader_info, nullptr, &shader);
        r != VK_SUCCESS) {
      fail("vkCreateShaderModule", r);
      return false;
    }
    VkDescriptorSetLayoutBinding bindings[kBuffers]{};
    for (std::uint32_t i = 0; i < kBuffers; ++i) {
      bindings[i].binding = i;
      bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      bindings[i].descriptorCount = 1;
      bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_info.bindingCount = kBuffers;
    set_info.pBindings = bindings;
    if (VkResult r = dev.create_descriptor_set_layout(device, &set_info, nullptr, &set_layout);
        r != VK_SUCCESS) {
      fail("vkCreateDescriptorSetLayout", r);
      return false;
    }
    const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushBytes};
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &push;
    if (VkResult r = dev.create_pipeline_layout(device, &layout_info, nullptr, &pipeline_layout);
        r != VK_SUCCESS) {
      fail("vkCreatePipelineLayout", r);
      return false;
    }
    VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipeline_info.stage.module = shader;
    pipeline_info.stage.pName = "main";
    pipeline_info.layout = pipeline_layout;
    if (VkResult r = dev.create_compute_pipelines(device, VK_NULL_HANDLE, 1, &pipeline_info,
                                                  nullptr, &pipeline);
        r != VK_SUCCESS) {
      pipeline = VK_NULL_HANDLE;
      fail("vkCreateComputePipelines", r);
      return false;
    }
    return true;
  }
};

namespace {

/// The descriptor set of one run over its three buffers, freed whichever way it ends.
struct RunDescriptors {
  const VulkanComputeApi& dev;
  VkDevice device;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;

  ~RunDescriptors() {
    if (pool != VK_NULL_HANDLE) dev.destroy_descriptor_pool(device, pool, nullptr);
  }

  std::optional<std::string> make(VkDescriptorSetLayout layout,
                                  const VulkanBuffer (&buffers)[kBuffers], VkDeviceSize bytes) {
    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kBuffers};
    VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &size;
    if (VkResult r = dev.create_descriptor_pool(device, &pool_info, nullptr, &pool);
        r != VK_SUCCESS) {
      pool = VK_NULL_HANDLE;
      return vk_call_failed("vkCreateDescriptorPool", r);
    }
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pool;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &layout;
    if (VkResult r = dev.allocate_descriptor_sets(device, &alloc, &set); r != VK_SUCCESS) {
      return vk_call_failed("vkAllocateDescriptorSets", r);
    }
    VkDescriptorBufferInfo infos[kBuffers];
    VkWriteDescriptorSet writes[kBuffers];
    for (std::uint32_t i = 0; i < kBuffers; ++i) {
      infos[i] = {buffers[i].buffer(), 0, bytes};
      writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[i].dstSet = set;
      writes[i].dstBinding = i;
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &infos[i];
    }
    dev.update_descriptor_sets(device, kBuffers, writes, 0, nullptr);
    return std::nullopt;
  }
};

}  // namespace

VulkanMatmul::VulkanMatmul(const VulkanApi& api, VkInstance instance, VkPhysicalDevice device,
                           std::string label, const MatmulShader* shader)
    : state_(std::make_unique<State>(api, instance, device)) {
  state_->base.api = "vulkan";
  state_->base.device = std::move(label);
  state_->setup(shader);
}

VulkanMatmul::~VulkanMatmul() = default;

SmokeResult VulkanMatmul::run(const smoke::MatmulRequest& req) {
  State& s = *state_;
  SmokeResult r = smoke::start_run(s.base, req.n);
  if (!s.ready || r.status == "skip") return r;
  const VulkanQueue& q = s.q;
  const smoke::PaddedLayout layout = smoke::padded_layout(req.n, s.shape->tile);
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
  for (VulkanBuffer& b : buffers) {
    if (auto error = b.make(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, kHostMemory,
                            VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) {
      return failed(*error);
    }
  }
  RunDescriptors set{q.dev(), q.device()};
  if (auto error = set.make(s.set_layout, buffers, bytes)) return failed(*error);
  const smoke::MatmulInputs in = smoke::matmul_inputs(req.n);
  const std::vector<float> a = smoke::pad_matrix(in.a, req.n, padded, ld);
  const std::vector<float> b = smoke::pad_matrix(in.b, req.n, padded, ld);
  std::memcpy(buffers[0].mapped(), a.data(), bytes);
  std::memcpy(buffers[1].mapped(), b.data(), bytes);
  std::memset(buffers[2].mapped(), 0, bytes);

  const VulkanComputeApi& dev = q.dev();
  auto recorded = q.record([&](VkCommandBuffer c) {
    dev.cmd_bind_pipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, s.pipeline);
    dev.cmd_bind_descriptor_sets(c, VK_PIPELINE_BIND_POINT_COMPUTE, s.pipeline_layout, 0, 1,
                                 &set.set, 0, nullptr);
    const std::int32_t sizes[2] = {padded, ld};
    dev.cmd_push_constants(c, s.pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushBytes, sizes);
    dev.cmd_dispatch(c, static_cast<std::uint32_t>(padded / s.shape->group_rows),
                     static_cast<std::uint32_t>(padded / s.shape->group_columns), 1);
  });
  if (recorded) return failed(*recorded);

  const smoke::TimedRuns timed = smoke::time_runs(req, [&] { return q.submit_and_wait(); });
  if (timed.error) return failed(*timed.error);
  const auto* out = static_cast<const float*>(buffers[2].mapped());
  const std::vector<float> c(out, out + static_cast<std::size_t>(padded) * ld);
  if (req.verify) {
    smoke::record_verdict(r, in, smoke::unpad_matrix(c, req.n, ld));
  } else {
    r.status = "unverified";
  }
  if (auto best = smoke::best_ms(timed.ms)) smoke::record_timing(r, *best);
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
