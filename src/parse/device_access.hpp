#pragma once
// Parsers for the files that say who may open the GPU's device files: systemd units (User=,
// Group=, SupplementaryGroups=), /proc/self/mountinfo's device mounts, the NVIDIA driver's
// device-file parameters, CDI specs and /dev/dri/by-path names. Each takes text, none touches
// the system.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/access.hpp"

namespace gpudoctor {

/// /dev/nvidia*, /dev/kfd, /dev/dxg, /dev/dri/card* and /dev/dri/renderD* (and what lies under
/// /dev/nvidia-caps): the device files a GPU stack opens.
bool is_gpu_device_path(std::string_view path);

/// The account settings of a systemd unit's [Service] section.
struct UnitAccount {
  std::optional<std::string> user;                ///< User=
  std::optional<std::string> group;               ///< Group=
  std::vector<std::string> supplementary_groups;  ///< SupplementaryGroups=
  bool dynamic_user = false;                      ///< DynamicUser=yes
};

/// Applies a unit file's (or a drop-in's) [Service] settings over `a`, as systemd does when it
/// reads the unit and then its drop-ins: a later User= or Group= wins, SupplementaryGroups=
/// adds to the list and an empty one clears it (systemd.exec(5)).
void apply_unit_accounts(std::string_view text, UnitAccount& a);

/// The mountinfo lines whose mount point is a GPU device file or /dev/dri.
std::vector<DeviceMount> parse_device_mounts(std::string_view mountinfo);

/// DeviceFileUID, DeviceFileGID, DeviceFileMode and ModifyDeviceFiles of
/// /proc/driver/nvidia/params; nullopt when it names none of them.
std::optional<NvidiaDeviceFileParams> parse_nvidia_device_file_params(std::string_view text);

/// A CDI spec's kind ("kind: nvidia.com/gpu" in YAML, "kind": "…" in JSON).
std::optional<std::string> cdi_spec_kind(std::string_view text);

/// The device files a CDI spec names: every `path` or `hostPath` value under /dev/ (a
/// deviceNodes entry's; in YAML or JSON), in order, each once.
std::vector<std::string> cdi_spec_device_paths(std::string_view text);

/// The device numbers a CDI spec gives its nodes: each `major` of a deviceNodes entry, with the
/// `path` it belongs to (the nearest path before it), in order.
std::vector<std::pair<std::string, int>> cdi_spec_device_majors(std::string_view text);

/// /proc/devices' character devices: name → major ("509 nvidia-uvm").
std::map<std::string, int> character_device_majors(std::string_view text);

/// The name /proc/devices gives the driver of a device file: /dev/nvidia-uvm-tools → nvidia-uvm,
/// /dev/nvidia0 → nvidia, /dev/dri/renderD128 → drm, /dev/nvidia-caps/… → nvidia-caps.
std::string character_device_driver(std::string_view path);

/// The PCI address in a /dev/dri/by-path name: "pci-0000:03:00.0-render" → "0000:03:00.0".
std::optional<std::string> pci_address_of_by_path(std::string_view name);

/// One line of `ls -l` output for a device file, as a capture records it or a thread quotes it:
/// "crw------- 1 root root 234, 0 Mai 21 05:13 /dev/kfd" (the name may be bare, "kfd", as
/// `ls -l /dev` prints it: then it is under `dir`).
struct ListedNode {
  std::string path;    ///< "/dev/kfd"
  std::string mode;    ///< "crw-------"
  std::string owner;   ///< "root" (a name or a number)
  std::string group;   ///< "render"
};
std::optional<ListedNode> parse_ls_device_line(std::string_view line, std::string_view dir = "/dev");

/// /etc/docker/daemon.json's "runtimes" names and "default-runtime" into `e`; false (with
/// e.daemon_json_error set) when the text is not a JSON object.
bool parse_docker_daemon_json(std::string_view text, ContainerEngines& e);

}  // namespace gpudoctor
