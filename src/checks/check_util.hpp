#pragma once
// Helpers the checks share: building findings and reading common facts off the snapshot.
#include <string>
#include <vector>

#include "checks/checks.hpp"
#include "environment.hpp"
#include "platform/platform.hpp"
#include "text.hpp"

namespace gpudoctor {

inline Finding make_finding(const CheckSpec& spec, Severity sev, std::string title) {
  Finding f;
  f.id = std::string(spec.id);
  f.area = std::string(spec.area);
  f.severity = sev;
  f.title = std::move(title);
  if (!spec.source.empty()) f.source = std::string(spec.source);
  return f;
}

/// The snapshot is of a Mac: fixes are written in macOS terms (no apt, dpkg or modprobe).
inline bool on_macos(const Snapshot& snap) { return snapshot_platform(snap) == kPlatformMacos; }

/// The PCI GPUs (display / 3D / accelerator functions) of one vendor, or of all when vendor is 0.
std::vector<const PciDevice*> pci_gpus(const Snapshot& snap, std::uint16_t vendor = 0);

/// A PATH-like value (LD_LIBRARY_PATH) without its entries naming `dir` (trailing slashes aside).
std::string without_dir(const std::string& value, const std::string& dir);

/// How a module DKMS built is let past Secure Boot (the nvidia and amdgpu fixes say it alike).
inline constexpr const char* kEnrolDkmsKey =
    "enrol the DKMS signing key (sudo mokutil --import /var/lib/dkms/mok.pub, reboot, choose "
    "Enroll MOK) or disable Secure Boot";

/// A failure the machine's own kernel log states for one area's GPUs ("nvidia", "rocm"): a
/// symptom read from the log (values["kernel_log"]) whose message entry names a failing finding
/// of that area. Its finding (symptom.runtime) says why; guesses about the same GPU stand down.
const Symptom* kernel_log_failure(const Snapshot& snap, std::string_view area);

/// How many NVIDIA GPUs the snapshot shows: NVML's list, a Mac's system_profiler list, else PCI.
std::size_t nvidia_gpu_count(const Snapshot& snap);

/// True when the PCI bus was scanned and holds no GPU of this vendor: a vendor's userland
/// (Ubuntu's libamdhip64.so.5 on an NVIDIA server, seen on a real H200) has nothing to run on,
/// which is no fault. False when the bus was not read (a paste, a brief record).
bool pci_shows_no_gpu_of(const Snapshot& snap, std::uint16_t vendor);

/// The NVIDIA device nodes this process could not open (live only) that CUDA needs: not the
/// /dev/nvidia-caps directory, nor its MIG capability nodes unless MIG is on (nvidia-cap1 and
/// nvidia-cap2, MIG's config and monitor, never). As a plain user on a real H200 the caps were
/// the only nodes "not accessible", and torch ran.
std::vector<const DeviceNode*> nvidia_nodes_denied(const Snapshot& snap);

/// NVIDIA's OpenCL driver answering CL_DEVICE_NOT_FOUND where cuInit found no device either:
/// it honours CUDA_VISIBLE_DEVICES and needs the same /dev/nvidia* access (both seen on a real
/// H200), so the cause is the one the CUDA checks name, not a broken ICD.
bool nvidia_opencl_hidden_like_cuda(const Snapshot& snap, const std::string& library,
                                    const std::string& error);

/// "0000:01:00.0 NVIDIA GA102 [GeForce RTX 3080]"
std::string pci_label(const PciDevice& p);

}  // namespace gpudoctor
