// An AMD GPU that amdgpu drives but KFD, the kernel's compute interface, leaves out: ROCm and
// HIP cannot see it. The kernel skips a GPU whose ASIC it does not drive for compute, and a gfx8
// GPU whose PCIe path to the CPU rejects atomics.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "checks/rocm_util.hpp"
#include "compat/compat_query.hpp"
#include "devices.hpp"

namespace gpudoctor {

namespace {

/// AMD's reply on an RX 580 behind a CPU without PCIe atomics: gfx8 needs them; for Xeons a
/// "v3" (Haswell) or newer.
constexpr const char* kAtomicsReply = "https://github.com/ROCm/legacy-rocm-build/issues/558";

bool same_address(const std::optional<std::string>& kfd, const std::string& pci) {
  if (!kfd) return false;
  return normalize_pci_address(*kfd) == normalize_pci_address(pci);
}

/// Whether some KFD GPU node stands for this PCI function. Nodes that name neither an address nor
/// a device id (a partial recording) cannot be matched one by one: then any node counts.
bool in_kfd(const RocmInfo& r, const PciDevice& p) {
  const bool anonymous = std::none_of(r.nodes.begin(), r.nodes.end(), [](const KfdNode& n) {
    return n.pci_address.has_value() || n.device_id.has_value();
  });
  if (anonymous) return !r.nodes.empty();
  return std::any_of(r.nodes.begin(), r.nodes.end(), [&](const KfdNode& n) {
    if (n.pci_address) return same_address(n.pci_address, p.address);
    return n.device_id == std::optional<std::uint32_t>(p.device_id);
  });
}

std::string kfd_nodes_text(const RocmInfo& r) {
  std::vector<std::string> gpus;
  for (const auto& n : r.nodes) {
    gpus.push_back("node " + std::to_string(n.node) +
                   (n.pci_address ? " at " + *n.pci_address : std::string()));
  }
  return std::to_string(r.nodes.size()) + " GPU node(s)" +
         (gpus.empty() ? "" : " (" + join(gpus, ", ") + ")") + ", " +
         std::to_string(r.cpu_nodes) + " CPU node(s)";
}

/// What to do, by what the kernel's KFD does with this ASIC.
std::string fix_for(const std::optional<AmdgpuKfdChip>& chip, const PciDevice& p, Finding& f) {
  const std::string id = "1002:" + hex(p.device_id, 4);
  if (!chip) {
    return "read sudo dmesg | grep -i kfd: \"skipped device " + id +
           ", PCI rejects atomics\" means the slot or CPU does not pass PCIe atomics (move the "
           "card to a slot wired to the CPU); \"not supported in kfd\" means this kernel's KFD "
           "does not know the GPU (a newer kernel, or AMD's amdgpu-dkms); no kfd line at all "
           "means the kernel lacks CONFIG_HSA_AMD";
  }
  f.evidence.push_back(id + " is CHIP_" + chip->chip + ", " + chip->family);
  if (chip->kfd == "unsupported") {
    return "none on this GPU: the kernel's KFD has never driven " + chip->family +
           " chips (dmesg: \"not supported in kfd\"), so no ROCm release can use it. For "
           "compute use Vulkan (RADV, mesa-vulkan-drivers) or OpenCL through Mesa's rusticl, or "
           "a GPU ROCm supports";
  }
  if (chip->kfd == "experimental") {
    return "KFD drives " + chip->chip +
           " only when asked: add amdgpu.exp_hw_support=1 to the kernel command line "
           "(GRUB_CMDLINE_LINUX in /etc/default/grub, then sudo update-grub) and reboot";
  }
  f.evidence.push_back("AMD: gfx8 GPUs need PCIe atomics (" + std::string(kAtomicsReply) + ")");
  return "KFD needs PCIe atomics for this " + chip->family +
         " GPU and skips it when its path to the CPU rejects them (dmesg: \"skipped device " +
         id + ", PCI rejects atomics\"): move the card to a slot wired to the CPU (not through "
         "the chipset, a PCIe switch or a riser), or use a CPU and board with PCIe 3.0 atomics "
         "(for Xeons a v3 (Haswell) or newer)";
}

bool rocm_userland(const CheckInput& in) {
  const RocmInfo& r = *in.snap.rocm;
  return !r.installs.empty() || (r.hip && r.hip->library) || !rocm_builds(in.snap).empty();
}

}  // namespace

void check_rocm_gpu_in_kfd(const CheckSpec& self, const CheckInput& in,
                           std::vector<Finding>& out) {
  if (!in.snap.rocm || !in.snap.rocm->kfd_topology) return;
  const RocmInfo& r = *in.snap.rocm;
  for (const PciDevice* p : pci_gpus(in.snap, kPciVendorAmd)) {
    if (p->driver != std::optional<std::string>("amdgpu") || in_kfd(r, *p)) continue;
    const bool userland = rocm_userland(in);
    // With ROCm and no GPU in KFD nothing computes; with another GPU in KFD this one is a loss.
    const Severity severity =
        !userland ? Severity::info : r.nodes.empty() ? Severity::fail : Severity::warn;
    Finding f = make_finding(self, severity,
                             pci_label(*p) + " is driven by amdgpu but absent from the KFD " +
                                 "topology: ROCm and HIP cannot use it for compute");
    f.evidence.push_back("PCI " + p->address + " " + hex(p->vendor_id, 4) + ":" +
                         hex(p->device_id, 4) + ", driver amdgpu");
    f.evidence.push_back("/sys/class/kfd/kfd/topology: " + kfd_nodes_text(r));
    auto chip = amdgpu_kfd_chip(in.compat, p->device_id);
    f.fix = fix_for(chip, *p, f);
    if (chip) f.source = chip->from.url;
    if (chip && chip->kfd == "needs_pcie_atomics") f.source = kAtomicsReply;
    if (!userland) f.evidence.push_back("no ROCm installation or ROCm build of a framework found");
    out.push_back(std::move(f));
  }
}

}  // namespace gpudoctor
