#include "nvidia/nvidia_system_probe.hpp"

#include "nvidia/nvidia_readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

/// The Slurm job of this process (its environment) and the node's gres.conf and cgroup.conf.
std::optional<SlurmJob> probe_slurm_job(const ProbeContext& ctx, const Root& paths) {
  auto id = ctx.env.get("SLURM_JOB_ID");
  if (!id || id->empty()) return std::nullopt;
  SlurmJob j;
  j.job_id = *id;
  for (const char* name : {"SLURM_JOB_GPUS", "SLURM_STEP_GPUS", "SLURM_GPUS_ON_NODE"}) {
    if (auto v = ctx.env.get(name); v && !v->empty()) {
      j.gpus = std::string(name) + "=" + *v;
      break;
    }
  }
  // Debian's older packages used /etc/slurm-llnl.
  for (const char* dir : {"/etc/slurm", "/etc/slurm-llnl"}) {
    const std::string d(dir);
    if (!j.gres_conf) {
      if (auto text = paths.read(d + "/gres.conf", 1 << 20)) {
        for (std::string_view line : split_lines(*text)) {
          const std::string l = to_lower(std::string(trim(line)));
          if (starts_with(l, "#")) continue;
          if (l.find("name=gpu") != std::string::npos || starts_with(l, "autodetect=")) {
            j.gres_conf = d + "/gres.conf";
            break;
          }
        }
      }
    }
    if (!j.constrain_devices) {
      if (auto text = paths.read(d + "/cgroup.conf", 1 << 20)) {
        j.cgroup_conf = d + "/cgroup.conf";
        j.constrain_devices = false;  // Slurm's default is "no"
        for (std::string_view line : split_lines(*text)) {
          const std::string l = to_lower(std::string(trim(line)));
          if (starts_with(l, "constraindevices=")) j.constrain_devices = l.substr(17) == "yes";
        }
      }
    }
  }
  return j;
}

}  // namespace

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
  s.slurm = probe_slurm_job(ctx, paths);
  return s;
}

}  // namespace gpudoctor
