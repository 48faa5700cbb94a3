#include "nvidia/nvidia_system_probe.hpp"

#include <unistd.h>

#include <algorithm>
#include <iterator>

#include "host/slurm_conf.hpp"
#include "nvidia/nvidia_readers.hpp"
#include "parse/slurm_gres.hpp"
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

/// A Slurm compute node: slurmd installed and a gres.conf. What gres.conf gives this node, which
/// of its GPU files exist, and whether the plugin its AutoDetect needs is installed.
std::optional<SlurmNode> probe_slurm_node(const ProbeContext& ctx, const Root& paths,
                                          bool dev_listed) {
  static constexpr const char* kSlurmd[] = {"/usr/sbin/slurmd", "/usr/local/sbin/slurmd",
                                            "/usr/bin/slurmd", "/opt/slurm/sbin/slurmd"};
  if (std::none_of(std::begin(kSlurmd), std::end(kSlurmd),
                   [&](const char* p) { return paths.exists(p); })) {
    return std::nullopt;
  }
  SlurmNode n;
  const std::optional<SlurmConfFile> gres = read_slurm_conf(paths, "gres.conf");
  std::vector<std::string> plugin_dirs;
  if (auto conf = read_slurm_conf(paths, "slurm.conf")) {
    if (auto dir = slurm_conf_value(conf->text, "PluginDir")) plugin_dirs = split_path_list(*dir);
  }
  if (!gres) return std::nullopt;
  n.gres_conf = gres->path;
  if (ctx.root.is_host()) {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) == 0 && name[0] != '\0') n.hostname = name;
  } else if (auto h = paths.read_line("/etc/hostname"); h && !h->empty()) {
    n.hostname = *h;
  }
  const GresConfForNode g = parse_gres_conf(gres->text, n.hostname);
  n.autodetect = g.autodetect;
  n.autodetect_line = g.autodetect_line;
  n.gpu_files = g.gpu_files;
  n.files_line = g.files_line;
  n.lines_not_matched = g.lines_not_matched;
  n.dev_listed = dev_listed;
  if (n.dev_listed) {
    for (const auto& f : n.gpu_files) {
      if (!paths.exists(f)) n.missing_files.push_back(f);
    }
  }
  // Where packages and source builds put the plugins, after slurm.conf's PluginDir.
  for (const char* d : {"/usr/lib64/slurm", "/usr/lib/x86_64-linux-gnu/slurm-wlm",
                        "/usr/lib/aarch64-linux-gnu/slurm-wlm", "/usr/lib/x86_64-linux-gnu/slurm",
                        "/usr/lib/slurm", "/usr/local/lib/slurm", "/usr/local/lib64/slurm",
                        "/opt/slurm/lib/slurm", "/opt/slurm/lib64/slurm"}) {
    plugin_dirs.emplace_back(d);
  }
  for (const auto& d : plugin_dirs) {
    if (paths.exists(d + "/gres_gpu.so")) {
      n.plugin_dir = d;
      break;
    }
  }
  if (n.plugin_dir && n.autodetect && *n.autodetect != "off") {
    n.autodetect_plugin = paths.exists(*n.plugin_dir + "/gpu_" + *n.autodetect + ".so");
  }
  return n;
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
  s.slurm_node = probe_slurm_node(ctx, paths, s.kernel.dev_listed);
  return s;
}

}  // namespace gpudoctor
