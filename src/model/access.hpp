#pragma once
// Who may open the GPU's device files, for every vendor: the device files with their owners,
// the process's account, the accounts a workload runs as (a service's unit file, $USER,
// $SUDO_USER), and what a container was given (device mounts, CDI specs, runtime hooks).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "model/device_node.hpp"

namespace gpudoctor {

/// A /dev/dri/by-path link: the PCI device a DRM node belongs to.
struct DriPciLink {
  std::string node;         ///< "/dev/dri/renderD128"
  std::string pci_address;  ///< "0000:03:00.0"
};
GPUDOCTOR_JSON(DriPciLink, node, pci_address)

/// A group that gives access to the GPU device files, seen from this process.
struct GroupAccess {
  std::string group;                     ///< "render"
  std::optional<std::uint32_t> gid;      ///< from /etc/group
  bool in_process = false;               ///< this process has it now
  bool listed_for_user = false;          ///< /etc/group lists the user (or it is the primary)
  /// The accounts in it: /etc/group's member list and each /etc/passwd account whose primary
  /// group it is.
  std::vector<std::string> members;
};
GPUDOCTOR_JSON(GroupAccess, group, gid, in_process, listed_for_user, members)

/// Who this process runs as (/proc/self/status and /etc/passwd under the root).
struct ProcessAccount {
  std::optional<std::uint32_t> uid;
  std::optional<std::string> user;
  std::optional<std::uint32_t> gid;
  std::vector<std::uint32_t> groups;           ///< supplementary groups of this process
  std::vector<GroupAccess> device_groups;      ///< render, video and the device files' groups
};
GPUDOCTOR_JSON(ProcessAccount, uid, user, gid, groups, device_groups)

/// An account a GPU workload runs as, other than this process's: a service's User= in its
/// systemd unit, or the user who ran gpudoctor ($USER, $SUDO_USER).
struct WorkloadAccount {
  std::string user;                     ///< "ollama"; "root" for a unit without User=
  std::string from;                     ///< "/etc/systemd/system/ollama.service", "SUDO_USER"
  std::optional<std::uint32_t> uid;     ///< from /etc/passwd; null where it lists no such user
  /// Every group the account's processes get: the primary (or Group=), the groups /etc/group
  /// lists it in, and SupplementaryGroups=.
  std::vector<std::string> groups;
  bool dynamic_user = false;            ///< DynamicUser=yes: systemd makes the account at start
};
GPUDOCTOR_JSON(WorkloadAccount, user, from, uid, groups, dynamic_user)

/// A mount of a GPU device file or folder into this process's mount namespace
/// (/proc/self/mountinfo): how a container runtime passed the GPU in.
struct DeviceMount {
  std::string mount_point;              ///< "/dev/dri"
  std::optional<std::string> root;      ///< the mounted path inside its file system
  std::optional<std::string> fs_type;   ///< "devtmpfs", "tmpfs"
  std::optional<std::string> source;    ///< "udev"
};
GPUDOCTOR_JSON(DeviceMount, mount_point, root, fs_type, source)

/// A container runtime's file that says how GPUs are handed to containers: a CDI spec
/// (/etc/cdi, /var/run/cdi) with the device kind it declares, or an OCI hook.
struct RuntimeFile {
  std::string path;                     ///< "/etc/cdi/nvidia.yaml"
  std::optional<std::string> kind;      ///< a CDI spec's kind: "nvidia.com/gpu"
  /// The device nodes a CDI spec hands to containers that this host's /dev does not have
  /// (read only where /dev could be listed): each container asking for them fails with
  /// "failed to stat CDI host device".
  std::vector<std::string> missing_device_nodes;
  /// Nodes the spec gives another major number than the kernel gave their driver (/proc/devices):
  /// "/dev/nvidia-uvm: major 510 in the spec, 509 for nvidia-uvm". A container gets a node that
  /// is not the driver's (cuInit fails with 999 in it).
  std::vector<std::string> wrong_majors;
};
GPUDOCTOR_JSON(RuntimeFile, path, kind, missing_device_nodes, wrong_majors)

/// How the NVIDIA driver creates /dev/nvidia* (NVreg_DeviceFileUID/GID/Mode and
/// NVreg_ModifyDeviceFiles, as /proc/driver/nvidia/params shows them).
struct NvidiaDeviceFileParams {
  std::optional<bool> modify;           ///< ModifyDeviceFiles: the driver sets owner and mode
  std::optional<std::uint32_t> uid;
  std::optional<std::uint32_t> gid;
  std::optional<std::string> group;     ///< gid's name in /etc/group under the root
  std::optional<std::uint32_t> mode;    ///< 438 = 0666
};
GPUDOCTOR_JSON(NvidiaDeviceFileParams, modify, uid, gid, group, mode)

/// The container engines of this host and how they would hand NVIDIA GPUs to a container:
/// `docker run --gpus` needs the NVIDIA Container Toolkit (its runtime or hook registered with
/// Docker, or a CDI spec), else Docker answers "could not select device driver \"\" with
/// capabilities: [[gpu]]"
/// (https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html).
struct ContainerEngines {
  std::vector<std::string> docker;             ///< docker / dockerd binaries: "/usr/bin/dockerd"
  std::vector<std::string> podman;             ///< podman binaries
  bool daemon_json = false;                    ///< /etc/docker/daemon.json exists
  std::vector<std::string> docker_runtimes;    ///< its "runtimes" names: "nvidia"
  std::optional<std::string> default_runtime;  ///< its "default-runtime"
  std::optional<std::string> daemon_json_error;  ///< why it could not be read as JSON
  /// The NVIDIA Container Toolkit's files found: nvidia-ctk, nvidia-container-runtime(-hook),
  /// nvidia-container-cli, /etc/nvidia-container-runtime/config.toml.
  std::vector<std::string> nvidia_toolkit;
  /// The toolkit's config.toml read (/etc/nvidia-container-runtime/config.toml, or the GPU
  /// Operator's under /usr/local/nvidia/toolkit/.config) and its [nvidia-container-cli] root:
  /// where the toolkit looks for the driver ("/" for a driver on the host, "/run/nvidia/driver"
  /// for the GPU Operator's containerised one).
  std::optional<std::string> toolkit_config;
  std::optional<std::string> toolkit_driver_root;
  /// Whether libnvidia-ml.so.1 is under that root (its library directories); null when the root
  /// is "/" or not set.
  std::optional<bool> toolkit_driver_root_has_driver;
  /// Kubernetes' node agent and containerd, and what containerd's config.toml says of the NVIDIA
  /// runtime: named at all (nvidia-container-runtime as a runtime's binary or engine), and the
  /// CRI plugin's default (default_runtime_name = "nvidia", or a v1 default_runtime whose engine
  /// is nvidia-container-runtime). The device plugin's pod gets the GPU only through it or CDI.
  std::vector<std::string> kubelet;
  std::vector<std::string> containerd;
  std::optional<std::string> containerd_config;
  bool containerd_nvidia_runtime = false;
  bool containerd_nvidia_default = false;
  bool containerd_cdi = false;  ///< enable_cdi = true
};
GPUDOCTOR_JSON(ContainerEngines, docker, podman, daemon_json, docker_runtimes, default_runtime,
               daemon_json_error, nvidia_toolkit, toolkit_config, toolkit_driver_root,
               toolkit_driver_root_has_driver, kubelet, containerd, containerd_config,
               containerd_nvidia_runtime, containerd_nvidia_default, containerd_cdi)

/// The access facts of the host (read under the root; open checks and $USER only live).
struct HostAccess {
  /// /dev/nvidia*, /dev/nvidia-caps/*, /dev/kfd, /dev/dri/card*, /dev/dri/renderD*, /dev/dxg
  std::vector<DeviceNode> device_nodes;
  bool dev_listed = false;  ///< /dev could be looked at (always live; a fixture may not hold it)
  std::vector<DriPciLink> dri_by_path;
  ProcessAccount account;
  std::vector<WorkloadAccount> workloads;
  std::vector<DeviceMount> device_mounts;
  std::vector<RuntimeFile> cdi_specs;
  std::vector<RuntimeFile> oci_hooks;   ///< hooks.d entries of Podman/CRI-O (path only)
  std::optional<NvidiaDeviceFileParams> nvidia_device_files;
  /// Docker and Podman on this host (null: none found, or a report written before it was read).
  std::optional<ContainerEngines> container_engines;
  /// Where the owner and mode of device files in a recorded tree came from
  /// (/.gpudoctor/dev-nodes.txt: `ls -l` lines of the nodes), when any did.
  std::optional<std::string> device_nodes_record;
};
GPUDOCTOR_JSON(HostAccess, device_nodes, dev_listed, dri_by_path, account, workloads,
               device_mounts, cdi_specs, oci_hooks, nvidia_device_files, container_engines,
               device_nodes_record)

}  // namespace gpudoctor
