// Checks of how GPUs are handed to containers (a container engine's files) and to cluster jobs
// (a Slurm job's environment and the node's Slurm files).
#include <algorithm>

#include "checks/area_status.hpp"
#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "model/access_view.hpp"
#include "text.hpp"

namespace gpudoctor {

void check_nvidia_cdi_spec_stale(const CheckSpec& self, const CheckInput& in,
                                 std::vector<Finding>& out) {
  const HostAccess& a = host_access(in.snap);
  // Inside a container /dev is the container's, not the host's the spec was written for.
  if (in.snap.host && in.snap.host->container) return;
  for (const RuntimeFile& spec : a.cdi_specs) {
    if (!spec.kind || !starts_with(*spec.kind, "nvidia.com/")) continue;
    if (!spec.wrong_majors.empty()) {
      Finding f = make_finding(
          self, Severity::fail,
          "The CDI spec " + spec.path + " gives device nodes other numbers than the running "
              "kernel gave their driver: containers get nodes that are not the driver's, and "
              "CUDA fails in them (cuInit: 999, unknown error)");
      f.evidence.push_back(spec.path + ": kind " + *spec.kind);
      for (const auto& wrong : spec.wrong_majors) f.evidence.push_back(wrong);
      f.fix = "regenerate the spec on this boot (device numbers of nvidia-uvm are given at module "
              "load and can change): sudo nvidia-ctk cdi generate --output=" + spec.path +
              "; a toolkit that writes a fixed number needs an update";
      out.push_back(std::move(f));
    }
    if (spec.missing_device_nodes.empty()) continue;
    Finding f = make_finding(
        self, Severity::fail,
        "The CDI spec " + spec.path + " names " + join(spec.missing_device_nodes, ", ") +
            ", which this host does not have: every container given " + *spec.kind +
            " devices from it fails (\"failed to stat CDI host device\")");
    f.evidence.push_back(spec.path + ": kind " + *spec.kind);
    for (const auto& node : spec.missing_device_nodes) f.evidence.push_back(node + ": not in /dev");
    f.fix = "regenerate the spec for the devices this host has now (after a driver upgrade or a "
            "change of GPUs the nodes are renumbered): sudo nvidia-ctk cdi generate --output=" +
            spec.path;
    out.push_back(std::move(f));
  }
}

void check_nvidia_slurm_job_without_gpu(const CheckSpec& self, const CheckInput& in,
                                        std::vector<Finding>& out) {
  if (!in.snap.nvidia || !in.snap.nvidia->slurm) return;
  const SlurmJob& j = *in.snap.nvidia->slurm;
  // CUDA_VISIBLE_DEVICES set (Slurm's own value, NoDevFiles included) is cuda.visible_devices'.
  if (j.gpus || in.snap.nvidia->cuda_visible_devices) return;
  // A node that has GPUs for jobs: its gres.conf declares them, or NVIDIA GPUs are on its bus.
  const std::size_t gpus = pci_gpus(in.snap, kPciVendorNvidia).size();
  if (!j.gres_conf && gpus == 0) return;
  const bool denied = j.constrain_devices == std::optional<bool>(true);
  Finding f = make_finding(
      self, denied ? Severity::fail : Severity::warn,
      denied ? "This Slurm job was allocated no GPU, and the node's cgroup denies a job the "
               "devices it was not given: nothing in the job can open the GPUs"
             : "This Slurm job was allocated no GPU: the GPUs it may reach belong to other jobs");
  f.evidence.push_back("SLURM_JOB_ID=" + j.job_id +
                       "; no SLURM_JOB_GPUS, SLURM_STEP_GPUS, SLURM_GPUS_ON_NODE or "
                       "CUDA_VISIBLE_DEVICES");
  if (j.gres_conf) f.evidence.push_back(*j.gres_conf + " declares GPUs on this node");
  if (gpus > 0) f.evidence.push_back(std::to_string(gpus) + " NVIDIA GPU(s) on the PCI bus");
  if (j.cgroup_conf) {
    f.evidence.push_back(*j.cgroup_conf + ": ConstrainDevices=" +
                         (j.constrain_devices == std::optional<bool>(true) ? "yes" : "no"));
  }
  f.fix = "request GPUs for the job: #SBATCH --gres=gpu:1 (or --gpus=1) in the batch script, "
          "and the same on srun inside it";
  out.push_back(std::move(f));
}

namespace {

constexpr const char* kGresConfDoc = "https://slurm.schedmd.com/gres.conf.html";

}  // namespace

void check_slurm_gres_devices(const CheckSpec& self, const CheckInput& in,
                              std::vector<Finding>& out) {
  if (!in.snap.nvidia || !in.snap.nvidia->slurm_node) return;
  const SlurmNode& n = *in.snap.nvidia->slurm_node;
  if (n.missing_files.empty()) return;
  Finding f = make_finding(self, Severity::fail,
                           "gres.conf gives this node GPU device files it does not have: slurmd "
                           "stops at start (\"can't stat gres.conf file " +
                               n.missing_files.front() + "\") and the node stays down");
  f.evidence.push_back(n.gres_conf + ": " + n.files_line.value_or("Name=gpu File=…"));
  f.evidence.push_back("missing: " + join(n.missing_files, ", "));
  const bool bus_read = pci_was_read(in.snap);
  const std::size_t gpus = bus_read ? pci_gpus(in.snap).size() : 0;
  if (bus_read) f.evidence.push_back(std::to_string(gpus) + " GPU(s) on the PCI bus");
  const std::string no_gpu =
      "restrict the Name=gpu line to the GPU nodes (NodeName=<their hostlist> Name=gpu File=…) "
      "and drop Gres=gpu from this node's line in slurm.conf";
  const std::string driver =
      "load the GPU driver so the device files exist (NVIDIA: nvidia-smi or nvidia-persistenced "
      "creates /dev/nvidia*), or correct File= to this node's devices";
  if (bus_read) {
    f.fix = (gpus == 0 ? "this node has no GPU: " + no_gpu : driver) + "; then systemctl restart slurmd";
  } else {
    f.fix = "a node without a GPU: " + no_gpu + "; a GPU node: " + driver +
            "; then systemctl restart slurmd";
  }
  f.source = kGresConfDoc;
  out.push_back(std::move(f));
}

void check_slurm_autodetect_plugin(const CheckSpec& self, const CheckInput& in,
                                   std::vector<Finding>& out) {
  if (!in.snap.nvidia || !in.snap.nvidia->slurm_node) return;
  const SlurmNode& n = *in.snap.nvidia->slurm_node;
  if (n.autodetect_plugin != std::optional<bool>(false) || !n.autodetect || !n.plugin_dir) return;
  const std::string plugin = "gpu_" + *n.autodetect + ".so";
  Finding f = make_finding(self, Severity::fail,
                           "gres.conf sets AutoDetect=" + *n.autodetect + " but this Slurm has no " +
                               plugin + " (it was built where that library was not found): "
                               "slurmd cannot detect the GPUs and stops at start, or the node is "
                               "drained with fewer GPUs than slurm.conf says");
  f.evidence.push_back(n.gres_conf + ": " + n.autodetect_line.value_or("AutoDetect=" + *n.autodetect));
  f.evidence.push_back(*n.plugin_dir + " holds gres_gpu.so and no " + plugin);
  f.fix = "install a Slurm built where " +
          std::string(*n.autodetect == "nvml" ? "NVML (libnvidia-ml and nvml.h)" : "the GPU library") +
          " was found at configure time (its plugins then include " + plugin +
          "), or replace AutoDetect with explicit lines (Name=gpu File=/dev/nvidia[0-N]); then "
          "systemctl restart slurmd";
  f.source = kGresConfDoc;
  out.push_back(std::move(f));
}

}  // namespace gpudoctor
