#pragma once
// What the ROCm checks share: which ROCm a GPU is judged against, and how a KFD node is named.
#include <string>
#include <vector>

#include "checks/checks.hpp"
#include "compat/version.hpp"

namespace gpudoctor {

/// Where a gfx target's support is judged: the installed ROCm, or a framework's ROCm build.
struct RocmBuild {
  std::string id;     ///< the finding id when the target is not supported
  std::string label;  ///< "ROCm 6.0.0 (/opt/rocm)", "torch 2.5.1+rocm6.2 in /home/…/venv"
  Version version;
  /// A framework whose own code objects were read from its files: python.torch_gfx judges it
  /// by what it carries, not by its ROCm release's list.
  bool code_read = false;
};

/// The install /opt/rocm points to, else the only one that states a version.
const RocmInstall* active_install(const RocmInfo& r);

/// The installed ROCm and every torch +rocmX.Y build of the snapshot.
std::vector<RocmBuild> rocm_builds(const Snapshot& s);

/// "AMD Radeon RX 7600 XT (gfx1102, 0000:03:00.0)": the merged device's name for KFD node i,
/// with the target and address it does not already name.
std::string node_label(const CheckInput& in, std::size_t i);

/// Whether a compatibility-matrix row lists `gfx`.
bool lists(const RocmRelease& row, const std::string& gfx);

/// ROCm's userland is here and the amdgpu module is not loaded: /proc/modules lists no amdgpu,
/// or (a tree without it) every AMD GPU on the bus has no driver bound while no amdgpu module
/// and no KFD node are there. rocm.amdgpu_not_loaded says so; gpu.no_driver leaves it that GPU.
bool amdgpu_not_loaded(const Snapshot& s);

}  // namespace gpudoctor
