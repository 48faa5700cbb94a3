// NVSwitch systems (HGX/DGX) need nvidia-fabricmanager of the driver's own version before CUDA
// may start; WSL 2 reaches the GPU through /dev/dxg. Both from files only.
#include "nvidia/nvidia_readers.hpp"
#include "parse/dpkg_status.hpp"
#include "model/pci.hpp"
#include "parse/pci_sysfs.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr std::uint32_t kBridgeOther = 0x0680;  // PCI class 06 (bridge), subclass 80 (other)
constexpr const char* kUnit = "nvidia-fabricmanager.service";
// NVIDIA's packages name it nvidia-fabricmanager-<branch> (Ubuntu adds the same names); the
// -dev package holds only headers.
constexpr const char* kPackagePrefix = "nvidia-fabricmanager";
// /proc/<pid>/comm holds 15 characters of the name.
constexpr const char* kComm = "nv-fabricmanage";

std::optional<std::uint32_t> hex_file(const Root& paths, const std::string& path) {
  auto line = paths.read_line(path);
  if (!line) return std::nullopt;
  auto v = parse_hex_attribute(*line);
  if (!v) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

std::vector<NvSwitch> nvswitches(const Root& paths) {
  std::vector<NvSwitch> out;
  const std::string base = "/sys/bus/pci/devices";
  for (const auto& address : paths.list(base)) {
    const std::string dir = join_path(base, address);
    if (hex_file(paths, dir + "/vendor") != std::optional<std::uint32_t>(kPciVendorNvidia)) continue;
    auto cls = hex_file(paths, dir + "/class");
    if (!cls || (*cls >> 8) != kBridgeOther) continue;
    NvSwitch s;
    s.address = address;
    s.device_id = static_cast<std::uint16_t>(hex_file(paths, dir + "/device").value_or(0));
    if (auto target = paths.link_target(dir + "/driver")) s.driver = std::string(link_basename(*target));
    out.push_back(std::move(s));
  }
  return out;
}

/// A process whose name is nv-fabricmanager; nullopt when /proc lists no process at all.
std::optional<bool> fabricmanager_running(const Root& paths) {
  bool any_process = false;
  for (const auto& entry : paths.list("/proc")) {
    if (!parse_uint(entry)) continue;
    any_process = true;
    auto comm = paths.read_line("/proc/" + entry + "/comm");
    if (comm && *comm == kComm) return true;
  }
  if (!any_process) return std::nullopt;
  return false;
}

std::optional<FabricManager> fabricmanager(const Root& paths) {
  FabricManager fm;
  for (const char* bin : {"/usr/bin/nv-fabricmanager", "/usr/sbin/nv-fabricmanager"}) {
    if (paths.exists(bin)) {
      fm.binary = bin;
      break;
    }
  }
  if (auto status = paths.read("/var/lib/dpkg/status", 64u << 20)) {
    for (const auto& p : parse_dpkg_status(*status, kPackagePrefix)) {
      if (!p.installed || ends_with(p.name, "-dev") || p.name.find("-dev-") != std::string::npos) continue;
      fm.package = p.name;
      fm.version = debian_upstream_version(p.version);
      fm.version_from = "dpkg";
    }
  }
  for (const char* dir : {"/etc/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system"}) {
    const std::string unit = join_path(dir, kUnit);
    if (paths.exists(unit)) {
      fm.service_unit = unit;
      break;
    }
  }
  if (!fm.binary && !fm.package && !fm.service_unit) return std::nullopt;
  if (fm.service_unit) {
    bool enabled = false;
    for (const auto& wants : paths.list("/etc/systemd/system")) {
      if (ends_with(wants, ".wants") &&
          paths.link_target(join_path("/etc/systemd/system/" + wants, kUnit))) {
        enabled = true;
      }
    }
    fm.enabled = enabled;
  }
  fm.running = fabricmanager_running(paths);
  return fm;
}

}  // namespace

void probe_nvidia_fabric(const ProbeContext& ctx, const Root& paths, NvidiaSystem& s) {
  s.nvswitches = nvswitches(paths);
  s.fabricmanager = fabricmanager(paths);
  if (ctx.live || !paths.list("/dev").empty()) s.dev_dxg = paths.exists("/dev/dxg");
  // WSL 2's libcuda reaches the GPU through DXCore (libdxcore.so beside it, from Windows). A
  // tree that carries only libcuda's files of the folder says nothing of the rest: judged live,
  // or where the tree lists the folder's Direct3D/DirectML libraries too.
  if (paths.is_directory("/usr/lib/wsl/lib")) {
    const bool listed = ctx.live || paths.exists("/usr/lib/wsl/lib/libd3d12.so") ||
                        paths.exists("/usr/lib/wsl/lib/libd3d12core.so") ||
                        paths.exists("/usr/lib/wsl/lib/libdirectml.so");
    if (listed) s.wsl_dxcore = paths.exists("/usr/lib/wsl/lib/libdxcore.so");
  }
}

}  // namespace gpudoctor
