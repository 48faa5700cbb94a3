#include "render/check_text.hpp"

#include <sstream>

#include "backends.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

enum class Mark { ok, warn, fail };

bool is_failure(ProbeStatus s) {
  return s == ProbeStatus::failed || s == ProbeStatus::crashed || s == ProbeStatus::timed_out;
}

std::string mark_text(Mark m, const Style& st) {
  switch (m) {
    case Mark::ok: return st.green("✓");
    case Mark::warn: return st.yellow("!");
    case Mark::fail: return st.red("✗");
  }
  return "?";
}

/// The devices a backend sees, named, with "(software)" where they run on the CPU.
std::vector<std::string> device_names(const std::vector<MergedDevice>& devices,
                                      std::string_view backend, bool* any_hardware) {
  std::vector<std::string> names;
  *any_hardware = false;
  for (const auto& m : devices) {
    bool seen = (backend == kBackendPci && m.pci) ||
                (backend == kBackendOpenCl && !m.opencl.empty()) ||
                (backend == kBackendVulkan && !m.vulkan.empty());
    if (!seen) continue;
    names.push_back(m.name + (m.software ? " (CPU, software)" : ""));
    if (!m.software) *any_hardware = true;
  }
  return names;
}

std::string plural(std::size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

std::string render_check_text(const Snapshot& snap, const std::vector<MergedDevice>& devices,
                              const Style& st) {
  std::ostringstream os;
  int counts[3] = {0, 0, 0};
  for (std::string_view backend : kAllBackends) {
    const ProbeOutcome* own = nullptr;
    std::vector<const ProbeOutcome*> jobs;
    for (const auto& p : snap.probes) {
      if (p.backend != backend) continue;
      if (p.label == p.backend) {
        own = &p;
      } else {
        jobs.push_back(&p);
      }
    }
    if (own == nullptr) continue;  // not asked for

    Mark mark = Mark::ok;
    std::string text;
    bool hardware = false;
    auto names = device_names(devices, backend, &hardware);
    if (backend == kBackendHost && snap.host) {
      const HostInfo& h = *snap.host;
      std::vector<std::string> parts;
      if (h.os_pretty_name) parts.push_back(*h.os_pretty_name);
      if (h.kernel_release) parts.push_back("kernel " + *h.kernel_release);
      if (h.virtualization) parts.push_back("virtual machine (" + *h.virtualization + ")");
      if (h.container) parts.push_back("container (" + *h.container + ")");
      if (h.wsl) parts.push_back("WSL");
      text = join(parts, ", ");
    } else if (own->status == ProbeStatus::ok && names.empty()) {
      mark = Mark::warn;
      text = backend == kBackendPci
                 ? "no GPU on the PCI bus (" + own->detail + ")"
                 : "not found: no device" + (own->detail.empty() ? "" : " (" + own->detail + ")");
    } else if (own->status == ProbeStatus::ok) {
      mark = hardware ? Mark::ok : Mark::warn;
      text = "found " + plural(names.size(), "device") + ": " + join(names, ", ");
      if (!hardware) text += " — no GPU through this API";
    } else if (is_failure(own->status)) {
      mark = Mark::fail;
      text = "failed: " + own->detail;
    } else {
      mark = Mark::warn;
      text = "not found: " + own->detail;
    }
    for (const auto* j : jobs) {
      if (is_failure(j->status)) mark = Mark::fail;
    }
    ++counts[static_cast<int>(mark)];
    std::string label(backend);
    label.resize(8, ' ');
    os << mark_text(mark, st) << " " << st.bold(label) << text << "\n";
    for (const auto* j : jobs) {
      if (!is_failure(j->status)) continue;
      os << "    " << st.red("✗") << " " << j->label << ": " << j->detail << "\n";
    }
  }
  os << "\n"
     << counts[0] << " ok, " << plural(static_cast<std::size_t>(counts[1]), "warning") << ", "
     << counts[2] << " failed.  Details: gpudoctor query\n";
  return os.str();
}

int check_exit_code(const Snapshot& snap) {
  for (const auto& p : snap.probes) {
    if (is_failure(p.status)) return 1;
  }
  return 0;
}

}  // namespace gpudoctor
