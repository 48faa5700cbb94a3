// Checks of how GPUs are handed to containers (a container engine's files) and to cluster jobs
// (a Slurm job's environment and the node's Slurm files).
#include <algorithm>

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
    if (spec.missing_device_nodes.empty()) continue;
    if (!spec.kind || !starts_with(*spec.kind, "nvidia.com/")) continue;
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

}  // namespace gpudoctor
