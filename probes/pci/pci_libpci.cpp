// PCI display and compute functions from sysfs under the root, named by libpci from pci.ids.
// Every attribute is read through Root. Nothing is written and no device is woken: sysfs
// attributes only.
#include <sys/stat.h>

#include <algorithm>
#include <csetjmp>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "api/pci/gpu_ids.hpp"
#include "parse/modules_alias.hpp"
#include "parse/pci_sysfs.hpp"
#include "pci/pci_probe.hpp"
#include "text.hpp"

extern "C" {
#include <pci/pci.h>
}

namespace gpudoctor {

namespace {

// libpci reports fatal errors through pacc->error, whose default calls exit(). Ours jumps
// back to the guarded call instead. Only C frames (libpci's) lie between the two.
thread_local std::jmp_buf* t_jump = nullptr;
thread_local char t_error[512];

// GNU spelling: libpci's error hook is a PCI_NONRET pointer, and clang counts that attribute as
// part of the function type ([[noreturn]] is not), so only this one may be assigned to it.
__attribute__((noreturn)) void on_error(char* msg, ...) {
  va_list ap;
  va_start(ap, msg);
  std::vsnprintf(t_error, sizeof t_error, msg, ap);
  va_end(ap);
  if (t_jump != nullptr) std::longjmp(*t_jump, 1);
  std::fprintf(stderr, "gpudoctor: unguarded libpci error: %s\n", t_error);
  std::abort();
}

void on_warning(char*, ...) {}

/// Runs f (libpci calls only, no C++ objects with destructors); false if libpci failed, with
/// the message in t_error.
template <typename F>
bool guarded(F&& f) {
  std::jmp_buf here;
  std::jmp_buf* const outer = t_jump;
  t_jump = &here;
  if (setjmp(here) != 0) {
    t_jump = outer;
    return false;
  }
  f();
  t_jump = outer;
  return true;
}

constexpr const char* kIdsFiles[] = {"/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids",
                                     "/usr/share/pci.ids"};
constexpr int kNoNumbers = PCI_LOOKUP_NO_NUMBERS | PCI_LOOKUP_NO_HWDB;
constexpr off_t kMaxIdsFile = 64 << 20;  // pci.ids is about 1.3 MB; more is not one

bool is_gpu_class(std::uint32_t class_code) {
  const std::uint32_t base = class_code >> 16;
  const std::uint32_t sub = (class_code >> 8) & 0xff;
  return base == 0x03 || base == 0x12 || (base == 0x0b && sub == 0x40);
}

std::optional<std::string> lookup(pci_access* pacc, int flags, unsigned a, unsigned b = 0,
                                  unsigned c = 0, unsigned d = 0) {
  char buf[256];
  const char* name = nullptr;
  if (!guarded(
          [&] { name = pci_lookup_name(pacc, buf, sizeof buf, flags | kNoNumbers, a, b, c, d); }))
    return std::nullopt;
  if (name == nullptr) return std::nullopt;
  return std::string(name);
}

void fill_names(pci_access* pacc, PciDevice& dev) {
  dev.vendor_name = lookup(pacc, PCI_LOOKUP_VENDOR, dev.vendor_id);
  dev.device_name = lookup(pacc, PCI_LOOKUP_DEVICE, dev.vendor_id, dev.device_id);
  dev.class_name = lookup(pacc, PCI_LOOKUP_CLASS, dev.class_code >> 8);
  if (dev.subsystem_vendor_id && dev.subsystem_device_id) {
    // As lspci prints it: subsystem vendor and board name, or the vendor alone when pci.ids
    // has no name for the board.
    dev.subsystem_name =
        lookup(pacc, PCI_LOOKUP_SUBSYSTEM | PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE, dev.vendor_id,
               dev.device_id, *dev.subsystem_vendor_id, *dev.subsystem_device_id);
    if (!dev.subsystem_name) {
      dev.subsystem_name =
          lookup(pacc, PCI_LOOKUP_SUBSYSTEM | PCI_LOOKUP_VENDOR, *dev.subsystem_vendor_id);
    }
  }
}

PciLink read_link(const Root& root, const std::string& dir, const char* prefix) {
  PciLink link;
  const std::string p(prefix);
  if (auto s = root.read_line(dir + p + "_link_speed")) {
    link.speed_gts = parse_link_speed(*s);
    if (link.speed_gts) link.generation = pcie_generation(*link.speed_gts);
  }
  if (auto w = root.read_line(dir + p + "_link_width")) link.width = parse_link_width(*w);
  return link;
}

template <typename T>
std::optional<T> hex_attr(const Root& root, const std::string& path) {
  auto line = root.read_line(path);
  if (!line) return std::nullopt;
  auto v = parse_hex_attribute(*line);
  if (!v) return std::nullopt;
  return static_cast<T>(*v);
}

/// Everything libpci does not give, from the device's sysfs directory.
void read_attributes(const Root& root, PciDevice& dev) {
  const std::string dir = "/sys/bus/pci/devices/" + dev.address + "/";
  if (auto c = hex_attr<std::uint32_t>(root, dir + "class")) dev.class_code = *c;
  dev.revision = hex_attr<std::uint8_t>(root, dir + "revision");
  dev.subsystem_vendor_id = hex_attr<std::uint16_t>(root, dir + "subsystem_vendor");
  dev.subsystem_device_id = hex_attr<std::uint16_t>(root, dir + "subsystem_device");
  if (auto target = root.link_target(dir + "driver")) {
    dev.driver = std::string(link_basename(*target));
  }
  if (auto m = root.read_line(dir + "modalias"); m && !m->empty()) dev.modalias = *m;
  dev.link_current = read_link(root, dir, "current");
  dev.link_max = read_link(root, dir, "max");
  if (auto n = root.read_line(dir + "numa_node")) dev.numa_node = parse_numa_node(*n);
  if (auto g = root.link_target(dir + "iommu_group")) dev.iommu_group = iommu_group_from_link(*g);
  if (auto b = root.read_line(dir + "boot_vga")) dev.boot_vga = parse_flag(*b);
  if (auto r = root.read_line(dir + "power/runtime_status"); r && !r->empty()) dev.runtime_pm = *r;
}

void match_modules(const Root& root, std::vector<PciDevice>& devices) {
  auto release = root.read_line("/proc/sys/kernel/osrelease");
  if (!release || release->empty()) return;
  auto aliases = root.read("/lib/modules/" + *release + "/modules.alias", 64u << 20);
  if (!aliases) return;
  for (auto& dev : devices) {
    if (dev.modalias) dev.modules = modules_for_modalias(*aliases, *dev.modalias);
  }
}

/// "0000:01:00.0" as the kernel names a function in sysfs (domain, bus, device, function, in
/// hex), normalised to lower case; nullopt for any other name.
std::optional<std::string> parse_pci_address(const std::string& name) {
  unsigned domain = 0;
  unsigned bus = 0;
  unsigned slot = 0;
  unsigned func = 0;
  int used = 0;
  if (std::sscanf(name.c_str(), "%x:%x:%x.%x%n", &domain, &bus, &slot, &func, &used) != 4 ||
      static_cast<std::size_t>(used) != name.size() || domain > 0xffff || bus > 0xff ||
      slot > 0x1f || func > 7) {
    return std::nullopt;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%u", domain, bus, slot, func);
  return std::string(buf);
}

}  // namespace

PciInfo probe_pci(const ProbeContext& ctx, ProbeOutcome& outcome) {
  const Root& root = ctx.root;
  PciInfo info;
  if (!root.is_directory("/sys/bus/pci/devices")) {
    outcome.status = ProbeStatus::missing;
    outcome.detail = "no /sys/bus/pci/devices under " + root.base().string() +
                     ": no PCI bus is visible (sysfs not mounted, or not Linux)";
    return info;
  }
  // The functions are read through Root, not by libpci's own scan: libpci opens whatever a
  // tree holds (a FIFO there would block it for ever) and follows links out of --sysroot.
  // libpci only names them, from a pci.ids that Root has checked is a regular file.
  std::string ids_path;
  for (const char* candidate : kIdsFiles) {
    const auto st = root.stat_of(candidate);
    if (st && S_ISREG(st->st_mode) && st->st_size <= kMaxIdsFile) {
      info.ids_file = candidate;
      ids_path = root.host_path(candidate).string();
      break;
    }
  }
  pci_access* pacc = nullptr;
  if (!ids_path.empty()) {
    const bool ok = guarded([&] {
      pacc = pci_alloc();
      pacc->error = on_error;
      pacc->warning = on_warning;
      pacc->debug = on_warning;
      pci_set_param(pacc, const_cast<char*>("hwdb.disable"), const_cast<char*>("1"));
      pci_set_name_list_path(pacc, const_cast<char*>(ids_path.c_str()), 0);
    });
    if (!ok) {
      outcome.detail = std::string("libpci: ") + t_error;
      pacc = nullptr;
    }
  }

  std::vector<std::string> problems;
  for (const auto& name : root.list("/sys/bus/pci/devices")) {
    const auto address = parse_pci_address(name);
    if (!address) {
      problems.push_back(name + ": not a PCI address");
      continue;
    }
    ++info.devices_scanned;
    const std::string dir = "/sys/bus/pci/devices/" + name + "/";
    const auto vendor = hex_attr<std::uint16_t>(root, dir + "vendor");
    const auto device = hex_attr<std::uint16_t>(root, dir + "device");
    if (!vendor || !device || !root.exists(dir + "class")) {
      problems.push_back(name + ": no readable vendor, device and class attributes");
      continue;
    }
    PciDevice dev;
    dev.address = *address;
    dev.vendor_id = *vendor;
    dev.device_id = *device;
    read_attributes(root, dev);
    if (!is_gpu_class(dev.class_code)) continue;
    if (pacc != nullptr) fill_names(pacc, dev);
    fill_builtin_names(dev);  // what the root's pci.ids lacks (or all, without one)
    info.devices.push_back(std::move(dev));
  }
  if (pacc != nullptr) guarded([&] { pci_cleanup(pacc); });

  match_modules(root, info.devices);
  std::sort(info.devices.begin(), info.devices.end(),
            [](const PciDevice& a, const PciDevice& b) { return a.address < b.address; });
  if (!problems.empty()) {
    if (!outcome.detail.empty()) outcome.detail += "; ";
    outcome.detail += join(problems, "; ");
  }
  if (!info.ids_file) {
    if (!outcome.detail.empty()) outcome.detail += "; ";
    outcome.detail += "no pci.ids under the root: names from the built-in pci.ids " +
                      std::string(builtin_pci_ids_version());
  }
  return info;
}

}  // namespace gpudoctor

#ifdef GPUDOCTOR_ASAN
// A libpci error jumps out of libpci (on_error), abandoning what it had allocated (the name
// list it was reading). A bounded leak, once per failed lookup, that LeakSanitizer
// (GPUDOCTOR_SANITIZE) must not count against gpudoctor.
extern "C" const char* __lsan_default_suppressions() { return "leak:libpci.so\n"; }
#endif
