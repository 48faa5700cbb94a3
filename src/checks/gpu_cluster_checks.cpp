// Checks of a GPU job under a cluster scheduler, from its environment and the node's files.
#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "text.hpp"

namespace gpudoctor {

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
