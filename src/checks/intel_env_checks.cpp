// Intel's chain, the parts a process's environment and installed wheels decide (docs/intel.md):
// the variables that hide or reorder Intel GPUs (ONEAPI_DEVICE_SELECTOR, SYCL_DEVICE_FILTER,
// ZE_AFFINITY_MASK, ZE_FLAT_DEVICE_HIERARCHY), the oneAPI runtime torch +xpu loads (its pinned
// wheels, or a sourced toolkit ahead of them), and the legacy compute runtime Gen8–Gen11 need.
// Knowledge (syntax, values, release facts, sources) is data/compat/intel.json.
#include <algorithm>
#include <regex>

#include "checks/check_util.hpp"
#include "checks/intel_checks.hpp"
#include "checks/intel_identity.hpp"
#include "checks/python_facts.hpp"
#include "compat/version.hpp"
#include "parse/python_metadata.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

bool intel_env_in(const std::vector<std::string>& list, std::string_view word) {
  const std::string w = to_lower(word);
  return std::any_of(list.begin(), list.end(),
                     [&](const std::string& x) { return to_lower(x) == w; });
}

bool intel_env_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// The root devices Level Zero and SYCL list for the machine's Intel GPUs bound to i915/xe, by
/// default (FLAT: one per tile; pci.ids says "(2 Tile)" for a two-tile Max); nullopt when the
/// PCI list was not read.
std::optional<std::size_t> intel_env_device_count(const Snapshot& s) {
  if (!s.pci || s.origin == Origin::paste) return std::nullopt;
  std::size_t n = 0;
  static const std::regex tiles(R"(\((\d) Tile\))");
  for (const PciDevice* p : pci_gpus(s, kPciVendorIntel)) {
    if (!p->driver || (*p->driver != "i915" && *p->driver != "xe")) continue;
    std::smatch m;
    if (p->device_name && std::regex_search(*p->device_name, m, tiles)) {
      n += static_cast<std::size_t>(std::stoul(m[1].str()));
    } else {
      ++n;
    }
  }
  return n;
}

/// One term of ONEAPI_DEVICE_SELECTOR: [!]<backend>:<device>[,<device>…].
struct IntelSelectorTerm {
  bool discard = false;
  std::string backend;
  std::vector<std::string> devices;
};

/// Whether a device of the grammar is a number form: <num>, <num>.<num>, <num>.*, *.*, …
bool intel_env_numeric_device(std::string_view d) {
  const auto parts = split_words(d, ".");
  if (parts.empty() || parts.size() > 3 || d.front() == '.' || d.back() == '.' ||
      d.find("..") != std::string_view::npos) {
    return false;
  }
  if (parts.size() == 1) return intel_env_digits(parts[0]);
  bool star = false;
  for (const auto& p : parts) {
    if (p == "*") {
      star = true;
    } else if (!intel_env_digits(p) || star) {
      return false;
    }
  }
  return true;
}

/// Parses the selector; on a malformed one sets *error to why and returns nothing.
std::vector<IntelSelectorTerm> intel_env_parse_selector(const IntelDeviceSelection& rules,
                                                        std::string_view value,
                                                        std::string* error) {
  std::vector<IntelSelectorTerm> out;
  std::size_t start = 0;
  while (start <= value.size()) {
    const auto end = value.find(';', start);
    std::string_view raw = trim(value.substr(start, end == std::string_view::npos
                                                        ? std::string_view::npos
                                                        : end - start));
    start = end == std::string_view::npos ? value.size() + 1 : end + 1;
    IntelSelectorTerm t;
    if (!raw.empty() && raw.front() == '!') {
      t.discard = true;
      raw.remove_prefix(1);
    }
    const std::string term(raw);
    const auto colons = std::count(term.begin(), term.end(), ':');
    if (term.empty()) {
      *error = "an empty term";
      return {};
    }
    if (colons != 1) {
      *error = "'" + term + "' has " + std::to_string(colons) +
               " colons; a term is <backend>:<devices> (e.g. level_zero:0 or level_zero:gpu)";
      return {};
    }
    const auto colon = term.find(':');
    t.backend = to_lower(term.substr(0, colon));
    if (!intel_env_in(rules.selector_backends, t.backend)) {
      *error = "'" + t.backend + "' is not a backend (" + join(rules.selector_backends, ", ") + ")";
      return {};
    }
    for (const auto& d : split_words(term.substr(colon + 1), ",")) {
      const std::string dev = to_lower(std::string(trim(d)));
      if (!intel_env_in(rules.selector_device_words, dev) && !intel_env_numeric_device(dev)) {
        *error = "'" + dev + "' in '" + term + "' is not a device (" +
                 join(rules.selector_device_words, ", ") + ", or an index such as 0 or 0.1)";
        return {};
      }
      t.devices.push_back(dev);
    }
    if (t.devices.empty()) {
      *error = "'" + term + "' names no device";
      return {};
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::string intel_env_count_words(std::size_t n) {
  return plural(n, "Intel GPU device") +
         (n ? " (indices 0.." + std::to_string(n - 1) + ")" : "");
}

void intel_env_selector(const CheckSpec& self, const Snapshot& s, const IntelDeviceSelection& rules,
                        const std::string& value, std::vector<Finding>& out) {
  if (trim(value).empty()) return;  // set but empty: what the runtime does with it is not documented
  const std::string shown = "ONEAPI_DEVICE_SELECTOR=\"" + value + "\"";
  std::string error;
  const auto terms = intel_env_parse_selector(rules, value, &error);
  if (!error.empty()) {
    Finding f = make_finding(self, Severity::fail,
                             "ONEAPI_DEVICE_SELECTOR is malformed: the SYCL runtime rejects it, so "
                             "SYCL programs (torch XPU, IPEX, llama.cpp's SYCL build) find no device");
    f.evidence.push_back(shown);
    f.evidence.push_back(error);
    f.fix = "set it as <backend>:<devices>, e.g. export ONEAPI_DEVICE_SELECTOR=level_zero:0 (the "
            "first Level Zero GPU) or level_zero:gpu, or unset it";
    f.source = rules.selector_source;
    out.push_back(std::move(f));
    return;
  }
  const auto count = intel_env_device_count(s);
  if (!count || *count == 0) return;  // which Intel GPUs it hides needs the GPUs
  bool any_accept = false;
  bool reaches = false;      // an accept term that can take an Intel GPU
  std::vector<std::string> out_of_range;
  bool in_range_index = false;
  bool discards_all = false;
  for (const auto& t : terms) {
    const bool intel_backend = intel_env_in(rules.intel_gpu_backends, t.backend);
    for (const auto& d : t.devices) {
      const bool gpu_word = intel_env_in(rules.selector_gpu_words, d);
      if (t.discard) {
        discards_all = discards_all || (t.backend == "*" && gpu_word);
        continue;
      }
      if (!intel_backend) continue;
      if (gpu_word) reaches = true;
      if (intel_env_numeric_device(d)) {
        const std::string first = split_words(d, ".")[0];
        if (first == "*") {
          reaches = true;
        } else if (std::stoul(first) < *count) {
          reaches = in_range_index = true;
        } else {
          out_of_range.push_back(t.backend + ":" + d);
        }
      }
    }
    if (!t.discard) any_accept = true;
  }
  if (discards_all || (any_accept && !reaches)) {
    Finding f = make_finding(self, Severity::fail,
                             "ONEAPI_DEVICE_SELECTOR hides every Intel GPU: SYCL programs (torch "
                             "XPU, IPEX, llama.cpp's SYCL build) see none");
    f.evidence.push_back(shown);
    f.evidence.push_back("this machine: " + intel_env_count_words(*count));
    if (!out_of_range.empty()) f.evidence.push_back("no such device: " + join(out_of_range, ", "));
    f.fix = "unset ONEAPI_DEVICE_SELECTOR, or select an Intel GPU: export "
            "ONEAPI_DEVICE_SELECTOR=level_zero:0 (sycl-ls lists the indices)";
    f.source = rules.selector_source;
    out.push_back(std::move(f));
    return;
  }
  if (!out_of_range.empty() && !in_range_index) return;  // a gpu word also selects: harmless
  if (!out_of_range.empty()) {
    Finding f = make_finding(self, Severity::warn,
                             "ONEAPI_DEVICE_SELECTOR names devices this machine does not have (" +
                                 join(out_of_range, ", ") + "): only the others are used");
    f.evidence.push_back(shown);
    f.evidence.push_back("this machine: " + intel_env_count_words(*count));
    f.fix = "check the indices with sycl-ls and correct ONEAPI_DEVICE_SELECTOR";
    f.source = rules.selector_source;
    out.push_back(std::move(f));
  }
}

void intel_env_filter(const CheckSpec& self, const IntelDeviceSelection& rules,
                      const XpuEnvironment& x, std::vector<Finding>& out) {
  if (!x.sycl_device_filter) return;
  const std::string successor = rules.filter_deprecated_by.value_or("ONEAPI_DEVICE_SELECTOR");
  const std::string shown = "SYCL_DEVICE_FILTER=\"" + *x.sycl_device_filter + "\"";
  const std::string deprecated_source = rules.filter_sources.empty() ? "" : rules.filter_sources[0];
  if (x.oneapi_device_selector) {
    Finding f = make_finding(self, Severity::fail,
                             "SYCL_DEVICE_FILTER and " + successor + " are both set: the SYCL "
                             "runtime throws (\"" + successor + " cannot be used in conjunction "
                             "with SYCL_DEVICE_FILTER\") and finds no device");
    f.evidence.push_back(shown);
    f.evidence.push_back(successor + "=\"" + *x.oneapi_device_selector + "\"");
    f.fix = "unset SYCL_DEVICE_FILTER (deprecated; a build or setup script may export it) and keep "
            "only " + successor;
    f.source = rules.filter_sources.size() > 1 ? rules.filter_sources[1] : deprecated_source;
    out.push_back(std::move(f));
    return;
  }
  Finding f = make_finding(self, Severity::info,
                           "SYCL_DEVICE_FILTER is deprecated (intel/llvm, 2022): the SYCL runtime "
                           "warns, and newer releases may ignore it; " + successor +
                           " replaces it");
  f.id = "intel.device_filter_deprecated";
  f.evidence.push_back(shown);
  f.fix = "use " + successor + " instead (SYCL_DEVICE_FILTER=level_zero:gpu:0 becomes " +
          successor + "=level_zero:0) and unset SYCL_DEVICE_FILTER";
  f.source = deprecated_source;
  out.push_back(std::move(f));
}

void intel_env_mask(const CheckSpec& self, const Snapshot& s, const IntelDeviceSelection& rules,
                    const std::string& value, std::vector<Finding>& out) {
  if (trim(value).empty()) return;
  const std::string shown = "ZE_AFFINITY_MASK=\"" + value + "\"";
  std::vector<std::uint64_t> roots;
  for (const auto& e : split_words(value, ",")) {
    const auto parts = split_words(trim(e), ".");
    const bool ok = (parts.size() == 1 || parts.size() == 2) &&
                    std::all_of(parts.begin(), parts.end(),
                                [](const std::string& p) { return intel_env_digits(p); }) &&
                    trim(e).back() != '.';
    if (!ok) {
      Finding f = make_finding(self, Severity::warn,
                               "ZE_AFFINITY_MASK is not a valid mask: Level Zero programs may see "
                               "no GPU, or the SYCL runtime ignores it (recent releases unset an "
                               "invalid mask)");
      f.evidence.push_back(shown);
      f.evidence.push_back("'" + std::string(trim(e)) + "' is not <device>[.<subdevice>]");
      f.fix = "set it as a comma-separated list of <device>[.<subdevice>] (e.g. 0 or 0,1 or 0.1), "
              "or unset it";
      f.source = rules.mask_source;
      out.push_back(std::move(f));
      return;
    }
    roots.push_back(*parse_uint(parts[0]));
  }
  const auto count = intel_env_device_count(s);
  if (!count || *count == 0 || roots.empty()) return;
  const auto valid = std::count_if(roots.begin(), roots.end(),
                                   [&](std::uint64_t r) { return r < *count; });
  if (valid == static_cast<long>(roots.size())) return;
  Finding f = make_finding(self, valid == 0 ? Severity::fail : Severity::warn,
                           valid == 0 ? "ZE_AFFINITY_MASK hides every Intel GPU: Level Zero and "
                                        "SYCL programs (torch XPU, IPEX) see none"
                                      : "ZE_AFFINITY_MASK names devices this machine does not "
                                        "have: only the others are used");
  f.evidence.push_back(shown);
  f.evidence.push_back("this machine: " + intel_env_count_words(*count));
  f.fix = "unset ZE_AFFINITY_MASK, or list devices below " + std::to_string(*count) +
          " (e.g. export ZE_AFFINITY_MASK=0)";
  f.source = rules.mask_source;
  out.push_back(std::move(f));
}

void intel_env_hierarchy(const CheckSpec& self, const IntelDeviceSelection& rules,
                         const std::string& value, std::vector<Finding>& out) {
  if (rules.hierarchy_values.empty()) return;
  if (std::find(rules.hierarchy_values.begin(), rules.hierarchy_values.end(),
                std::string(trim(value))) != rules.hierarchy_values.end()) {
    return;
  }
  Finding f = make_finding(self, Severity::warn,
                           "ZE_FLAT_DEVICE_HIERARCHY=\"" + value + "\" is none of " +
                               join(rules.hierarchy_values, ", ") +
                               ": Level Zero uses its default, and tiles may not be the devices "
                               "a script expects");
  f.evidence.push_back("ZE_FLAT_DEVICE_HIERARCHY=\"" + value + "\"");
  f.fix = "set it to one of " + join(rules.hierarchy_values, ", ") + ", or unset it";
  f.source = rules.hierarchy_source;
  out.push_back(std::move(f));
}

// --- the oneAPI runtime torch +xpu loads ------------------------------------------------------

bool intel_env_xpu_framework(const PythonEnv& env, const PythonPackage& p) {
  (void)env;
  if (p.torch && p.torch->xpu) return true;
  if (!p.version) return false;
  auto v = parse_version(*p.version);
  return v && v->local == "xpu";
}

/// "intel-sycl-rt==2025.0.4; platform_system == \"Linux\"" → name and pinned version.
std::optional<std::pair<std::string, std::string>> intel_env_pin(const std::string& req) {
  static const std::regex pin(R"(^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*\(?\s*==\s*([^\s;,)]+))");
  std::smatch m;
  if (!std::regex_search(req, m, pin)) return std::nullopt;
  const auto semi = req.find(';');
  if (semi != std::string::npos) {
    const std::string marker = to_lower(req.substr(semi));
    if (marker.find("windows") != std::string::npos && marker.find("!=") == std::string::npos &&
        marker.find("linux") == std::string::npos) {
      return std::nullopt;  // a Windows-only pin
    }
  }
  return std::make_pair(normalize_package_name(m[1].str()), m[2].str());
}

/// The oneAPI toolkit directories LD_LIBRARY_PATH puts first, and their release ("2025.1").
std::vector<std::pair<std::string, std::optional<std::string>>> intel_env_toolkit_dirs(
    const IntelXpuWheels& w, const XpuEnvironment& x) {
  std::vector<std::pair<std::string, std::optional<std::string>>> out;
  if (!x.ld_library_path) return out;
  static const std::regex release(R"((20\d\d\.\d+))");
  for (const auto& dir : split_words(*x.ld_library_path, ":")) {
    const bool toolkit = std::any_of(w.toolkit_path_words.begin(), w.toolkit_path_words.end(),
                                     [&](const std::string& word) {
                                       return dir.find(word) != std::string::npos;
                                     });
    if (!toolkit) continue;
    std::smatch m;
    std::optional<std::string> rel;
    if (std::regex_search(dir, m, release)) rel = m[1].str();
    out.emplace_back(dir, rel);
  }
  return out;
}

std::string intel_env_major_minor(const std::string& v) {
  auto p = parse_version(v);
  if (!p || p->parts.size() < 2) return v;
  return std::to_string(p->parts[0]) + "." + std::to_string(p->parts[1]);
}

std::string intel_env_source(const IntelXpuWheels& w, std::size_t i) {
  return i < w.sources.size() ? w.sources[i] : (w.sources.empty() ? "" : w.sources.back());
}

}  // namespace

void check_intel_device_selection(const CheckSpec& self, const CheckInput& in,
                                  std::vector<Finding>& out) {
  if (!in.snap.python) return;
  const XpuEnvironment& x = in.snap.python->xpu_env;
  const IntelDeviceSelection& rules = intel_table().selection;
  intel_env_filter(self, rules, x, out);
  if (x.oneapi_device_selector && !x.sycl_device_filter) {
    intel_env_selector(self, in.snap, rules, *x.oneapi_device_selector, out);
  }
  if (x.ze_affinity_mask) intel_env_mask(self, in.snap, rules, *x.ze_affinity_mask, out);
  if (x.ze_flat_device_hierarchy) {
    intel_env_hierarchy(self, rules, *x.ze_flat_device_hierarchy, out);
  }
  for (auto& f : out) {
    if (f.id == self.id) f.id = "intel.device_selector";  // the deprecation has its own id
  }
}

void check_intel_oneapi_runtime(const CheckSpec& self, const CheckInput& in,
                                std::vector<Finding>& out) {
  if (!in.snap.python) return;
  const IntelXpuWheels& w = intel_table().wheels;
  const XpuEnvironment& x = in.snap.python->xpu_env;
  const auto toolkit = intel_env_toolkit_dirs(w, x);
  for (const auto& env : in.snap.python->envs) {
    for (const std::string& name : w.frameworks) {
      const PythonPackage* fw = find_package(env, name);
      if (!fw || !intel_env_xpu_framework(env, *fw)) continue;
      const std::string label = fw->name + " " + fw->version.value_or("?") + " in " + env_label(env);
      // Its own pins against what is installed beside it.
      std::vector<std::string> wrong;
      std::vector<std::string> evidence;
      for (const auto& req : fw->requires_dist) {
        auto pin = intel_env_pin(req);
        if (!pin) continue;
        const PythonPackage* got = find_package(env, pin->first);
        if (got && got->version && *got->version != pin->second) {
          wrong.push_back(pin->first + " " + *got->version + " (pinned " + pin->second + ")");
          evidence.push_back(got->name + " " + *got->version + " (" + got->metadata_dir + ")");
        } else if (!got && intel_env_in(w.core, pin->first)) {
          wrong.push_back(pin->first + " missing (pinned " + pin->second + ")");
        }
      }
      if (!wrong.empty()) {
        Finding f = make_finding(self, Severity::fail,
                                 label + " was built against other oneAPI runtime wheels than the "
                                 "ones installed: " + join(wrong, ", ") +
                                 "; it fails to import or to find the GPU");
        f.id = "python.xpu_runtime_wheels";
        f.evidence.push_back(label + " (" + fw->metadata_dir + "): its Requires-Dist pins them");
        for (auto& e : evidence) f.evidence.push_back(std::move(e));
        f.fix = "reinstall the wheels torch pins: pip install --force-reinstall torch==" +
                fw->version.value_or("<version>") +
                " --index-url https://download.pytorch.org/whl/xpu (and check with pip check)";
        f.source = intel_env_source(w, 0);
        out.push_back(std::move(f));
      }
      if (toolkit.empty()) continue;
      const PythonPackage* sycl = find_package(env, "intel-sycl-rt");
      std::optional<std::string> mismatch;
      bool same_release = sycl && sycl->version;
      for (const auto& [dir, rel] : toolkit) {
        if (!rel || !sycl || !sycl->version) {
          same_release = false;
        } else if (intel_env_major_minor(*sycl->version) != *rel) {
          same_release = false;
          mismatch = "oneAPI " + *rel + " (" + dir + ") against intel-sycl-rt " + *sycl->version;
        }
      }
      if (same_release) continue;  // the toolkit is the wheels' own release: nothing certain
      std::vector<std::string> dirs;
      for (const auto& t : toolkit) dirs.push_back(t.first);
      Finding f = make_finding(
          self, mismatch ? Severity::fail : Severity::warn,
          mismatch ? "A sourced oneAPI toolkit on LD_LIBRARY_PATH puts its SYCL runtime ahead of "
                     "the one " + label + " was built with: " + *mismatch +
                     "; importing torch fails (\"libur_loader.so.0: version `LIBUR_LOADER_…' "
                     "not found\") or crashes"
                   : "A oneAPI toolkit on LD_LIBRARY_PATH comes ahead of the runtime wheels " +
                     label + " installed: where its release differs, importing torch fails "
                     "(\"libur_loader.so.0: version `LIBUR_LOADER_…' not found\")");
      f.id = "intel.oneapi_shadows_wheels";
      f.evidence.push_back("LD_LIBRARY_PATH: " + join(dirs, ":"));
      if (sycl && sycl->version) {
        f.evidence.push_back("intel-sycl-rt " + *sycl->version + " (" + sycl->metadata_dir + ")");
      } else {
        f.evidence.push_back("the release of torch's own intel-sycl-rt wheel was not read");
      }
      f.fix = "run torch's XPU build without oneAPI's setvars.sh (open a new shell, or remove the "
              "/opt/intel/oneapi directories from LD_LIBRARY_PATH): its wheels carry the runtime; "
              "source setvars.sh only where you build SYCL code";
      f.source = intel_env_source(w, mismatch ? 2 : 1);
      out.push_back(std::move(f));
    }
  }
}

void check_intel_legacy_runtime(const CheckSpec& self, const CheckInput& in,
                                std::vector<Finding>& out) {
  if (!in.snap.opencl || in.snap.origin == Origin::paste) return;
  const IntelLegacyRuntime& legacy = intel_table().legacy;
  if (!legacy.regular_from) return;
  const auto from = parse_version(*legacy.regular_from);
  static const std::regex release(R"((\d{2}\.\d{2}\.\d{4,6}))");
  for (const PciDevice* p : pci_gpus(in.snap, kPciVendorIntel)) {
    if (!p->driver || *p->driver != "i915") continue;
    const IntelIdentity id = identify_intel(*p);
    if (!id.platform || id.platform->runtime != std::optional<std::string>(legacy.mark)) continue;
    std::vector<const OpenClIcd*> intel_icds;
    bool has_legacy = false;
    for (const auto& icd : in.snap.opencl->icds) {
      const std::string lib = to_lower(icd.library);
      if (lib.find("igdrcl") == std::string::npos) continue;
      intel_icds.push_back(&icd);
      const std::string file = icd.file ? to_lower(*icd.file) : "";
      if (lib.find(legacy.mark) != std::string::npos || file.find(legacy.mark) != std::string::npos) {
        has_legacy = true;
      }
    }
    if (intel_icds.empty() || has_legacy) continue;
    std::optional<Version> found;
    std::smatch m;
    for (const OpenClIcd* icd : intel_icds) {
      const std::string where = icd->resolved.value_or(icd->library);
      if (std::regex_search(where, m, release)) found = parse_version(m[1].str());
    }
    if (found && from && compare_to_bound(*found, *from) < 0) continue;  // before the split
    const std::string gpu = pci_label(*p) + ": " + id.platform->platform + " (" +
                            id.platform->generation + "), from " + id.how;
    Finding f = make_finding(
        // Without the release this is a condition, not a finding: Ubuntu 24.04's own
        // intel-opencl-icd (23.43) still drives Gen9, and so does every release before 24.35.
        self, found ? Severity::fail : Severity::info,
        found ? "Intel's compute runtime " + found->text + " supports Gen12 and later only: the " +
                    id.platform->generation + " GPU " + p->address + " needs the " + legacy.mark +
                    " packages (OpenCL and Level Zero find no GPU)"
              : "The " + id.platform->generation + " GPU " + p->address + " is a legacy platform: "
                    "Intel's compute runtime " + *legacy.regular_from + " and later support it "
                    "only in the " + legacy.mark + " packages; no " + legacy.mark + " OpenCL ICD "
                    "is installed and the release of the installed one was not read (before 24.35 "
                    "it still drives this GPU)");
    f.id = "intel.legacy_runtime";
    f.evidence.push_back(gpu);
    for (const OpenClIcd* icd : intel_icds) {
      f.evidence.push_back("Intel OpenCL ICD: " + icd->library +
                           (icd->file ? " (" + *icd->file + ")" : ""));
    }
    f.fix = "install the " + legacy.mark + " packages (" + join(legacy.packages, ", ") +
            ", from compute-runtime's 24.35 release page or your distribution's "
            "intel-compute-runtime-" + legacy.mark + "), which coexist with the regular ones; then "
            "clinfo -l must list the GPU";
    f.source = legacy.source;
    out.push_back(std::move(f));
  }
}

}  // namespace gpudoctor
