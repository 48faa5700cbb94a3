#include "nvidia/nvidia_system_probe.hpp"

#include "nvidia/nvidia_readers.hpp"

namespace gpudoctor {

NvidiaSystem probe_nvidia_system(const ProbeContext& ctx) {
  const Root& paths = ctx.root;
  NvidiaSystem s;
  s.kernel = probe_nvidia_kernel(ctx, paths);
  s.libcuda = find_loader_libraries(ctx, paths, "libcuda.so");
  s.libnvidia_ml = find_loader_libraries(ctx, paths, "libnvidia-ml.so");
  s.toolkits = find_cuda_toolkits(ctx, paths);
  s.cuda_libraries = find_cuda_libraries(ctx, paths, s.toolkits);
  probe_nvidia_fabric(ctx, paths, s);
  s.driver_gpu_table = probe_driver_gpu_table(paths, s.kernel.module_version);
  if (paths.link_target("/usr/local/cuda") || paths.is_directory("/usr/local/cuda")) {
    s.usr_local_cuda = paths.resolve("/usr/local/cuda");
  }
  s.nvcc_on_path = find_on_path(ctx, paths, "nvcc");
  // The process environment: under --sysroot it still describes the command being run.
  s.cuda_home = ctx.env.get("CUDA_HOME");
  s.cuda_path = ctx.env.get("CUDA_PATH");
  s.cuda_visible_devices = ctx.env.get("CUDA_VISIBLE_DEVICES");
  s.nvidia_visible_devices = ctx.env.get("NVIDIA_VISIBLE_DEVICES");
  s.ld_library_path = ctx.env.get("LD_LIBRARY_PATH");
  return s;
}

}  // namespace gpudoctor
