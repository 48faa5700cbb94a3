// What the kernel says, as people paste it: `lspci -k` / `lspci -v` / `lspci -nnk` blocks of
// the GPUs (which driver is bound), the NVIDIA kernel module's NVRM messages from dmesg or
// journalctl (API mismatch, GPU fallen off the bus, the probe routine not called because
// nouveau holds the GPU, a GPU this release does not support, RmInitAdapter failed, the
// module's version), and modprobe's refusals (Secure Boot, no module for this kernel).
// The NVRM texts are the module's own (kernel-open/nvidia/nv.c, nv-pci.c of
// NVIDIA/open-gpu-kernel-modules); they wrap over several "NVRM:" lines, which are joined.
#include <cctype>

#include "api/pci/gpu_ids.hpp"
#include "knowledge/messages.hpp"
#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_lspci = "lspci";
constexpr const char* kFormat_kernel_log = "kernel log";
/// The data/messages format of NVRM messages joined over their lines.
constexpr const char* kFormat_nvrm = "nvrm";

bool is_hex_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (std::isxdigit(static_cast<unsigned char>(c)) == 0) return false;
  }
  return true;
}

std::uint16_t lspci_hex16(std::string_view s) {
  return static_cast<std::uint16_t>(std::stoul(std::string(s), nullptr, 16));
}

/// "01:00.0" or "0000:01:00.0" at the start of an lspci line: the address, "0000:"-prefixed.
std::optional<std::string> lspci_address(std::string_view t) {
  const auto space = t.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  std::string_view a = t.substr(0, space);
  std::string domain = "0000";
  if (a.size() == 12 && a[4] == ':') {
    domain = std::string(a.substr(0, 4));
    a.remove_prefix(5);
  }
  if (a.size() != 7 || a[2] != ':' || a[5] != '.' || !is_hex_digits(a.substr(0, 2)) || !is_hex_digits(a.substr(3, 2)) ||
      a[6] < '0' || a[6] > '7' || !is_hex_digits(domain)) {
    return std::nullopt;
  }
  return to_lower(domain + ":" + std::string(a));
}

struct LspciGpuClass {
  std::string_view text;
  std::uint32_t code;
};
constexpr LspciGpuClass kLspciGpuClasses[] = {{"VGA compatible controller", 0x030000},
                                    {"3D controller", 0x030200},
                                    {"Display controller", 0x038000},
                                    {"Processing accelerators", 0x120000}};

struct LspciVendor {
  std::string_view text;
  std::uint16_t id;
};
// How lspci names the GPU vendors (pci.ids' vendor lines).
constexpr LspciVendor kLspciVendors[] = {{"NVIDIA Corporation ", 0x10de},
                                     {"Advanced Micro Devices, Inc. [AMD/ATI] ", 0x1002},
                                     {"Advanced Micro Devices, Inc. [AMD] ", 0x1022},
                                     {"Intel Corporation ", 0x8086}};

class Lspci {
 public:
  explicit Lspci(PasteSink& sink) : sink_(sink) {}

  void run() {
    const auto& lines = sink_.lines();
    std::optional<PciDevice> gpu;
    bool told_driver = false;
    // lspci -k names the driver in use (and the matching modules) of every function it has one
    // for: once any block of the paste does, a GPU block naming neither has none bound.
    bool lists_drivers = false;
    std::vector<PciDevice> untold;
    auto close = [&] {
      if (gpu && told_driver) add(std::move(*gpu));
      if (gpu && !told_driver) untold.push_back(std::move(*gpu));
      gpu.reset();
      told_driver = false;
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (sink_.claimed(i)) continue;
      const std::string_view t = trim(lines[i].text);
      if (auto address = lspci_address(t)) {
        close();
        ++scanned_;
        sink_.claim(i, kFormat_lspci);
        gpu = device_line(*address, t.substr(t.find(' ') + 1), i);
        continue;
      }
      const std::string_view raw = lines[i].text;
      if (scanned_ > 0 && !raw.empty() && (raw[0] == '\t' || raw[0] == ' ') &&
          (starts_with(t, "Kernel driver in use:") || starts_with(t, "Kernel modules:"))) {
        lists_drivers = true;
      }
      if (!gpu) continue;
      // A device's details are indented under it (a tab in lspci's own output).
      if (t.empty() || (raw[0] != '\t' && raw[0] != ' ')) {
        close();
        continue;
      }
      const Labelled l = split_label(t);
      if (l.key == "Kernel driver in use") {
        gpu->driver = l.value;
        told_driver = true;
        sink_.fact("pci.driver", l.value, i);
      } else if (l.key == "Kernel modules") {
        gpu->modules = split_words(l.value, ", ");
        told_driver = true;
      } else if (l.key == "Subsystem") {
        gpu->subsystem_name = l.value;
      }
      sink_.claim(i, kFormat_lspci);
    }
    close();
    if (lists_drivers) {
      for (auto& d : untold) add(std::move(d));
    }
    if (sink_.snap.pci) sink_.snap.pci->devices_scanned = scanned_;
  }

 private:
  /// "VGA compatible controller [0300]: NVIDIA Corporation GA102 [GeForce RTX 3090] [10de:2204]
  /// (rev a1)": a GPU when its class is one, with its ids from "[vvvv:dddd]" or its name.
  std::optional<PciDevice> device_line(const std::string& address, std::string_view rest,
                                       std::size_t i) {
    const auto colon = rest.find(": ");
    if (colon == std::string_view::npos) return std::nullopt;
    const std::string_view cls = rest.substr(0, colon);
    std::string_view name = rest.substr(colon + 2);
    std::optional<std::uint32_t> code;
    for (const auto& c : kLspciGpuClasses) {
      if (starts_with(cls, c.text)) code = c.code;
    }
    if (!code) return std::nullopt;
    PciDevice d;
    d.address = address;
    d.class_code = *code;
    d.class_name = std::string(cls.substr(0, cls.find(" [")));
    if (const auto rev = name.rfind(" (rev "); rev != std::string_view::npos) {
      const std::string_view r = name.substr(rev + 6, 2);
      if (is_hex_digits(r)) d.revision = static_cast<std::uint8_t>(lspci_hex16(r));
      name = name.substr(0, rev);
    }
    if (const auto prog = name.find(" (prog-if"); prog != std::string_view::npos) {
      name = name.substr(0, prog);
    }
    name = trim(name);
    // -nn: "[10de:2204]" at the end.
    if (name.size() > 11 && name.back() == ']' && name[name.size() - 6] == ':' &&
        name[name.size() - 11] == '[' && is_hex_digits(name.substr(name.size() - 10, 4)) &&
        is_hex_digits(name.substr(name.size() - 5, 4))) {
      d.vendor_id = lspci_hex16(name.substr(name.size() - 10, 4));
      d.device_id = lspci_hex16(name.substr(name.size() - 5, 4));
      name = trim(name.substr(0, name.size() - 11));
    }
    std::optional<std::uint16_t> vendor;
    for (const auto& v : kLspciVendors) {
      if (starts_with(name, v.text)) {
        vendor = v.id;
        d.vendor_name = std::string(trim(v.text));
        name.remove_prefix(v.text.size());
      }
    }
    if (d.vendor_id == 0) {
      if (!vendor) return std::nullopt;
      d.vendor_id = *vendor;
      // lspci prints "Device 1db6" for an id its pci.ids lacks; else the name, whose id the
      // built-in pci.ids knows when exactly one device carries it.
      if (starts_with(name, "Device ") && name.size() == 11 && is_hex_digits(name.substr(7))) {
        d.device_id = lspci_hex16(name.substr(7));
      } else if (auto id = builtin_device_id(*vendor, name)) {
        d.device_id = *id;
      } else {
        return std::nullopt;
      }
    }
    if (!name.empty() && !starts_with(name, "Device ")) d.device_name = std::string(name);
    sink_.fact("gpu.name", std::string(name), i);
    fill_builtin_names(d);
    return d;
  }

  void add(PciDevice d) {
    if (!sink_.snap.pci) sink_.snap.pci = PciInfo{};
    for (const auto& e : sink_.snap.pci->devices) {
      if (e.address == d.address) return;
    }
    sink_.snap.pci->devices.push_back(std::move(d));
  }

  PasteSink& sink_;
  int scanned_ = 0;
};

/// A run of NVRM lines joined into one message, with the line it starts on.
struct NvrmMessage {
  std::string text;  ///< the words after each "NVRM:", joined by single spaces
  std::size_t line = 0;
};

/// The words after "NVRM:" in a line (journald's "#012" joins several: each part counts).
std::string nvrm_words(std::string_view t) {
  std::string out;
  std::size_t at = 0;
  while ((at = t.find("NVRM:", at)) != std::string_view::npos) {
    at += 5;
    auto end = t.find("#012", at);
    std::string_view part = t.substr(at, end == std::string_view::npos ? t.npos : end - at);
    for (const auto& w : split_words(part)) out += (out.empty() ? "" : " ") + w;
    out += ' ';
    if (end == std::string_view::npos) break;
  }
  return std::string(trim(out));
}

/// What stands before "NVRM:" without its digits and spaces: the lines of one message logged by
/// journalctl ("2024-06-02T12:28:05.866240-04:00 demon kernel: ") differ only in the time.
std::string nvrm_prefix_shape(std::string_view t) {
  std::string out;
  for (char c : t.substr(0, t.find("NVRM:"))) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0 && c != ' ') out += c;
  }
  return out;
}

std::string nvrm_version_after(std::string_view t, std::string_view key) {
  const auto at = t.find(key);
  if (at == std::string_view::npos) return "";
  return leading_version(trim(t.substr(at + key.size())));
}

class KernelLog {
 public:
  explicit KernelLog(PasteSink& sink) : sink_(sink) {}

  void run() {
    collect();
    for (const auto& m : messages_) api_mismatch(m);
    for (const auto& m : messages_) other(m);
    modprobe();
  }

 private:
  void collect() {
    const auto& lines = sink_.lines();
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (sink_.claimed(i)) continue;
      const std::string_view t = trim(lines[i].text);
      if (t.find("NVRM:") == std::string_view::npos) continue;
      sink_.claim(i, kFormat_kernel_log);
      const std::string words = nvrm_words(t);
      // "[   12.014918] NVRM: …" / "Jun 30 11:07:05 host kernel: NVRM: …" opens a message; a
      // bare "NVRM: …" right under an NVRM line continues it.
      const std::string_view before = i > 0 ? trim(lines[i - 1].text) : std::string_view();
      const bool after_nvrm = !messages_.empty() && before.find("NVRM:") != std::string_view::npos;
      // An Xid event is one line of its own, whatever stands above it.
      bool continues = after_nvrm && starts_with(t, "NVRM:") && !starts_with(words, "Xid (");
      // journalctl and dmesg -T put their prefix on every line of one message: a line with the
      // same prefix as the NVRM line above, under one that did not end a sentence, that goes on
      // in lower case ("…, but" / "this kernel module has the version …") continues it.
      if (!continues && after_nvrm && !words.empty() &&
          std::islower(static_cast<unsigned char>(words[0])) != 0 && !before.empty() &&
          before.back() != '.' && before.back() != ')' &&
          nvrm_prefix_shape(before) == nvrm_prefix_shape(t)) {
        continues = true;
      }
      if (continues) {
        messages_.back().text += " " + words;
      } else {
        messages_.push_back({words, i});
      }
    }
  }

  void api_mismatch(const NvrmMessage& m) {
    if (mismatch_ || m.text.find("API mismatch") == std::string::npos) return;
    const std::string client = nvrm_version_after(m.text, "has the version ");
    const std::string module = nvrm_version_after(m.text, "this kernel module has the version ");
    if (client.empty() || module.empty()) return;
    mismatch_ = true;
    NvidiaSystem& n = sink_.nvidia();
    n.kernel.module_version = module;
    LibraryFile lib;
    lib.name = "NVIDIA driver client";
    lib.path = "the userspace driver NVRM names";
    lib.version = client;
    n.libnvidia_ml.push_back(std::move(lib));
    sink_.fact("nvidia.module", module, m.line);
    sink_.fact("nvidia.client", client, m.line);
    sink_.symptom("nvrm.api_mismatch", "dmesg", m.line, {{"client", client}, {"module", module}});
  }

  void other(const NvrmMessage& m) {
    const std::string_view t = m.text;
    // data/messages entries of format "nvrm" first ("GPU has fallen off the bus", Xid 79).
    if (auto d = match_message(builtin_messages(), kFormat_nvrm, t)) {
      // An Xid's number names its meaning and how grave it is (data/messages/xid_codes.json).
      add_code_values(builtin_messages(), *d->entry, d->values);
      once(d->entry->id, m, d->values);
    } else if (auto k = match_message(builtin_messages(), kFormat_kernel_log, t)) {
      // A kernel-log entry's words printed as NVRM lines (the open module's "only ready for use
      // on Data Center GPUs" comes with and without the prefix).
      once(k->entry->id, m, k->values);
    } else if (t.find("probe routine was not called") != std::string::npos &&
               names_nouveau()) {
      once("nvrm.probe_not_called", m);
    } else if (t.find("installed in this system is not supported by") != std::string::npos) {
      const auto pci = t.find("PCI ID: ");
      std::map<std::string, std::string> values;
      if (pci != std::string::npos) values["pci_id"] = t.substr(pci + 8, 9);
      values["driver"] = nvrm_version_after(t, "NVIDIA ");
      once("nvrm.gpu_unsupported", m, values);
    } else if (t.find("RmInitAdapter failed") != std::string::npos && !mismatch_) {
      once("nvrm.init_adapter_failed", m);
    } else if (t.find("Kernel Module") != std::string::npos && starts_with(t, "loading NVIDIA")) {
      // "loading NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 …" / "… Open Kernel
      // Module for x86_64  570.144  Release Build …"
      auto words = split_words(t);
      for (const auto& w : words) {
        if (w.find('.') != std::string::npos && std::isdigit(static_cast<unsigned char>(w[0])) != 0) {
          NvidiaSystem& n = sink_.nvidia();
          if (!n.kernel.module_version) n.kernel.module_version = leading_version(w);
          sink_.fact("nvidia.module", leading_version(w), m.line);
          break;
        }
      }
    }
  }

  /// The module's explanation follows as messages of their own: "This can occur when a driver
  /// such as: nouveau, rivafb, nvidiafb or rivatv was loaded and obtained ownership".
  bool names_nouveau() const {
    for (const auto& m : messages_) {
      if (m.text.find("nouveau") != std::string::npos) return true;
    }
    return false;
  }

  /// One symptom per entry: the first line that says it, or, for an error-code message (an Xid),
  /// the line whose code is gravest (a log with Xid 13 then 48 is read as the 48).
  void once(const std::string& id, const NvrmMessage& m,
            std::map<std::string, std::string> values = {}) {
    auto& all = sink_.snap.symptoms;
    for (auto it = all.begin(); it != all.end(); ++it) {
      if (it->id != id) continue;
      if (gravity(values) <= gravity(it->values)) return;
      all.erase(it);
      break;
    }
    sink_.symptom(id, "dmesg", m.line, std::move(values));
  }

  /// How grave the code a message's values name is: its row's severity (fail > warn > info);
  /// a code without one, or no code, ranks with info.
  static int gravity(const std::map<std::string, std::string>& values) {
    const auto s = values.find("code_severity");
    if (s == values.end()) return 1;
    return s->second == "fail" ? 3 : s->second == "warn" ? 2 : 1;
  }

  /// Single kernel-log lines data/messages describes (format "kernel log"): modprobe's refusals
  /// (Secure Boot, no module built for the running kernel).
  void modprobe() {
    const auto& lines = sink_.lines();
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (sink_.claimed(i)) continue;
      const std::string t = normalise_message_line(lines[i].text);
      if (auto d = match_message(builtin_messages(), kFormat_kernel_log, t)) {
        sink_.claim(i, kFormat_kernel_log);
        add_code_values(builtin_messages(), *d->entry, d->values);
        once(d->entry->id, NvrmMessage{t, i}, d->values);
      }
    }
  }

  PasteSink& sink_;
  std::vector<NvrmMessage> messages_;
  bool mismatch_ = false;
};

}  // namespace

void read_lspci(PasteSink& sink) { Lspci(sink).run(); }

void read_kernel_log(PasteSink& sink) { KernelLog(sink).run(); }

}  // namespace gpudoctor
