// The one list of backends: src/backends.cpp (name, help, variables, facts) and its probes'
// half, probes/probe_list.cpp, must name the same backends in the same order.
#include <gtest/gtest.h>

#include "backends.hpp"
#include "probe_list.hpp"
#include "report/environment_section.hpp"

namespace gpudoctor {
namespace {

TEST(Backends, EveryBackendHasOneProbeRowInRegistryOrder) {
  const auto& backends = all_backends();
  const auto& probes = all_probes();
  ASSERT_EQ(backends.size(), probes.size());
  for (std::size_t i = 0; i < backends.size(); ++i) {
    EXPECT_EQ(backends[i].name, probes[i].backend) << "row " << i;
    const auto& p = probes[i];
    // A probe does something: reads files in process, or starts children and folds them.
    EXPECT_TRUE(p.read || (p.jobs && p.fold)) << p.backend;
    // Children are folded, and only backends that load a vendor library start any.
    EXPECT_EQ(p.jobs != nullptr, p.fold != nullptr) << p.backend;
    EXPECT_EQ(p.jobs != nullptr, backends[i].loads_vendor_library) << p.backend;
  }
}

TEST(Backends, FindAndNames) {
  ASSERT_NE(find_backend("vulkan"), nullptr);
  EXPECT_EQ(find_backend("vulkan")->name, "vulkan");
  EXPECT_EQ(find_backend("Vulkan"), nullptr);
  EXPECT_EQ(find_backend("metal2"), nullptr);
  for (const auto& b : all_backends()) {
    EXPECT_NE(backend_names().find(b.name), std::string::npos) << b.name;
  }
}

// Every reader of smoke results (the smoke check, diff's facts, the HTML report) takes them from
// the registry: each backend that runs one, in registry order, Metal's included.
TEST(Backends, SmokeResultsComeFromEveryBackendThatRunsOne) {
  Snapshot s;
  auto result = [](const char* api, const char* device) {
    SmokeResult r;
    r.api = api;
    r.device = device;
    r.status = "pass";
    return r;
  };
  s.cuda = CudaInfo{};
  s.cuda->smoke.push_back(result("cuda", "H100"));
  s.opencl = OpenClInfo{};
  s.opencl->smoke.push_back(result("opencl", "PoCL"));
  s.metal = MetalInfo{};
  s.metal->smoke.push_back(result("metal", "Apple M1 Pro"));
  s.level_zero = LevelZeroInfo{};
  s.level_zero->smoke.push_back(result("level_zero", "Intel(R) Arc(TM) A770 Graphics"));
  std::vector<std::string> apis;
  for (const SmokeResult* r : smoke_results(s)) apis.push_back(r->api);
  EXPECT_EQ(apis, (std::vector<std::string>{"opencl", "cuda", "metal", "level_zero"}));
  std::size_t with_smoke = 0;
  for (const auto& b : all_backends()) with_smoke += b.smoke != nullptr;
  EXPECT_EQ(with_smoke, 5u);  // opencl, vulkan, cuda, metal, level_zero
}

// The report's environment section keeps exactly the variables the backends declare; these
// are the ones it kept when it had its own list, each from a backend row now.
TEST(Backends, ReportKeepsEveryVariableABackendReads) {
  for (const char* name :
       {"PATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "DYLD_LIBRARY_PATH", "CONDA_PREFIX",
        "VIRTUAL_ENV", "PYTHONPATH", "OPENCL_VENDOR_PATH", "ROCM_PATH", "GPU_DEVICE_ORDINAL",
        "XLA_FLAGS", "TORCH_CUDA_ARCH_LIST", "SYSTEM_VERSION_COMPAT", "DRI_PRIME",
        "ONEAPI_DEVICE_SELECTOR", "__NV_PRIME_RENDER_OFFLOAD", "WSL_DISTRO_NAME",
        "CUDA_VISIBLE_DEVICES", "CUDNN_PATH", "NCCL_DEBUG", "OCL_ICD_VENDORS", "POCL_DEVICES",
        "VK_ICD_FILENAMES", "HSA_OVERRIDE_GFX_VERSION", "HIP_VISIBLE_DEVICES", "MESA_LOADER_DRIVER_OVERRIDE",
        "TF_CPP_MIN_LOG_LEVEL", "MTL_HUD_ENABLED", "JAX_PLATFORMS", "PYTORCH_CUDA_ALLOC_CONF"}) {
    EXPECT_TRUE(gpu_relevant_variable(name)) << name;
  }
  for (const char* name : {"HOME", "TF_VAR_region", "USER", "LANG", "EDITOR", "CUDAX"}) {
    EXPECT_FALSE(gpu_relevant_variable(name)) << name;
  }
}

}  // namespace
}  // namespace gpudoctor
