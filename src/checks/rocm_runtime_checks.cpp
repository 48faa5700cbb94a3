// ollama's bundled ROCm against the machine's AMD GPUs: its rocBLAS carries code for a list of
// gfx targets (ollama derives its "supported types" from the same files,
// https://github.com/ollama/ollama/blob/main/docs/gpu.md); a GPU whose target is not there, and
// that no HSA_OVERRIDE_GFX_VERSION in the service's unit maps onto one that is, runs on the CPU.
#include <algorithm>

#include "checks/check_list.hpp"
#include "checks/check_util.hpp"
#include "checks/rocm_override.hpp"
#include "checks/rocm_runtime.hpp"
#include "compat/compat_query.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kOllamaMacosDoc =
    "https://github.com/ollama/ollama/blob/fb30760996871fa9460115c753afd2c60d4ab0f7/docs/macos.mdx";

}  // namespace

std::optional<std::string> gfx_of_override(const std::string& value) {
  const auto parts = split_words(value, ".");
  if (parts.size() != 3) return std::nullopt;
  for (const auto& p : parts) {
    if (p.empty() || !std::all_of(p.begin(), p.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::nullopt;
    }
  }
  const int step = std::stoi(parts[2]);
  if (step > 15) return std::nullopt;
  const char hex[] = "0123456789abcdef";
  return "gfx" + parts[0] + parts[1] + std::string(1, hex[step]);
}

std::optional<std::pair<std::string, std::string>> ollama_override(const OllamaInstall& o,
                                                                   const RocmInfo& r,
                                                                   const KfdNode& n) {
  if (!o.unit) return node_override(r, n);
  const std::string per_node = "HSA_OVERRIDE_GFX_VERSION_" + std::to_string(n.node);
  if (auto it = o.unit_env.find(per_node); it != o.unit_env.end()) return *it;
  if (auto it = o.unit_env.find("HSA_OVERRIDE_GFX_VERSION"); it != o.unit_env.end()) return *it;
  return std::nullopt;
}

std::optional<std::string> ollama_nearest_gfx(const std::string& gfx,
                                              const std::vector<std::string>& carried) {
  // Same generation: RDNA's targets share their first six characters ("gfx103" for RDNA 2's
  // gfx103x, "gfx110" for RDNA 3's gfx110x), whose members run each other's code with the
  // override (ollama's docs: the RX 5400's gfx1034 as gfx1030). GCN 5 (gfx9xx) targets differ in
  // their instructions (gfx908's matrix cores are not gfx906's): no override is offered there.
  if (gfx.size() < 7 || !starts_with(gfx, "gfx1")) return std::nullopt;
  const std::string family = gfx.substr(0, 6);
  std::optional<std::string> best;
  for (const auto& c : carried) {
    if (!starts_with(c, family)) continue;
    if (!best || c < *best) best = c;
  }
  return best;
}

std::string override_of_gfx(const std::string& gfx) {
  // gfx1030 → 10.3.0, gfx900 → 9.0.0, gfx90a → 9.0.10
  const std::string digits = gfx.substr(3);
  if (digits.size() < 3) return "";
  const std::string major = digits.substr(0, digits.size() - 2);
  const char minor = digits[digits.size() - 2];
  const char step = digits.back();
  const int s = step >= 'a' ? step - 'a' + 10 : step - '0';
  return major + "." + std::string(1, minor) + "." + std::to_string(s);
}

std::optional<OllamaGfxCode> ollama_gfx_code(const OllamaInstall& o, const CompatData& compat) {
  OllamaGfxCode code;
  if (o.rocblas_read && !o.rocblas_gfx.empty()) {
    code.from_files = true;
    code.gfx = o.rocblas_gfx;
    code.where = o.rocblas_dir.value_or(o.lib_dir.value_or(o.binary));
    return code;
  }
  // A lib/ollama without a ROCm bundle is judged by its backends (readiness: runtime
  // libraries); only an install whose libraries are not there at all is judged by the table.
  if (o.lib_dir || o.rocblas_read) return std::nullopt;
  code.releases = runtime_gfx_targets(compat, "ollama", CompatOs::kLinux);
  for (const auto& row : code.releases) {
    for (const auto& g : row.gfx) {
      if (std::find(code.gfx.begin(), code.gfx.end(), g) == code.gfx.end()) code.gfx.push_back(g);
    }
  }
  if (code.gfx.empty()) return std::nullopt;
  std::sort(code.gfx.begin(), code.gfx.end());
  code.where = o.binary;
  return code;
}

std::string ollama_releases_carrying(const OllamaGfxCode& code, const std::string& gfx) {
  std::vector<std::string> spans;
  std::string first, last;
  auto flush = [&] {
    if (!first.empty()) spans.push_back(first == last ? first : first + "–" + last);
    first.clear();
  };
  for (const auto& row : code.releases) {
    const bool has = std::find(row.gfx.begin(), row.gfx.end(), gfx) != row.gfx.end();
    if (!has) {
      flush();
      continue;
    }
    const std::string lo = row.version.min ? row.version.min->text : "?";
    const std::string hi = row.version.max ? row.version.max->text : "";
    if (first.empty()) first = lo;
    last = hi.empty() ? lo + "+" : hi;
  }
  flush();
  return join(spans, ", ");
}

std::string ollama_runs_as(const std::optional<std::pair<std::string, std::string>>& ov,
                           const KfdNode& n) {
  const std::string own = n.gfx_target.value_or("");
  return ov ? gfx_of_override(ov->second).value_or(own) : own;
}

bool ollama_carries(const OllamaGfxCode& code, const std::string& gfx) {
  return std::find(code.gfx.begin(), code.gfx.end(), gfx) != code.gfx.end();
}

bool ollama_every_release_carries(const OllamaGfxCode& code, const std::string& gfx) {
  if (code.from_files) return ollama_carries(code, gfx);
  return std::all_of(code.releases.begin(), code.releases.end(), [&](const RuntimeGfxTargets& row) {
    return std::find(row.gfx.begin(), row.gfx.end(), gfx) != row.gfx.end();
  });
}

void check_ollama_bundled_gfx(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  const Snapshot& s = in.snap;
  if (!s.runtimes || !s.rocm) return;
  for (const OllamaInstall& o : s.runtimes->ollama) {
    const auto code = ollama_gfx_code(o, in.compat);
    if (!code) continue;
    for (const KfdNode& n : s.rocm->nodes) {
      if (!n.gfx_target) continue;
      const std::string& gfx = *n.gfx_target;
      const auto ov = ollama_override(o, *s.rocm, n);
      const std::string runs_as = ollama_runs_as(ov, n);
      if (ollama_carries(*code, runs_as)) continue;
      const std::string name = n.name && !n.name->empty() ? *n.name + " (" + gfx + ")" : gfx;
      Finding f = make_finding(
          self, Severity::fail,
          std::string(code->from_files ? "ollama's bundled ROCm has" : "no ollama release (ollama's own builds) has") +
              " code for " + name +
              (ov ? " run as " + runs_as + " (" + ov->first + "=" + ov->second + ")" : "") +
              ": ollama runs models on the CPU");
      if (code->from_files) {
        f.evidence.push_back(code->where + ": rocBLAS carries " + join(code->gfx, ", "));
      } else {
        f.evidence.push_back(code->where + ": its release could not be read (no lib/ollama beside "
                             "it); ollama's releases 0.1.18 and later carry ROCm code for " +
                             join(code->gfx, ", ") + " (their build files)");
        for (const auto& row : code->releases) f.evidence.push_back(row.from.url);
      }
      f.evidence.push_back("KFD node " + std::to_string(n.node) + ": " + gfx);
      if (o.unit) {
        f.evidence.push_back(*o.unit + ": " +
                             (ov ? ov->first + "=" + ov->second : "no HSA_OVERRIDE_GFX_VERSION"));
      }
      if (auto near = ollama_nearest_gfx(gfx, code->gfx); near && !ov) {
        // Where ollama runs decides where the variable goes: its service's unit, else the
        // container's environment, else the shell that starts `ollama serve`.
        const std::string var = "HSA_OVERRIDE_GFX_VERSION=" + override_of_gfx(*near);
        const std::string why = " (" + *near + ", the same generation, is " +
                                (code->from_files ? "in the bundle" : "among its targets") + ")";
        if (o.unit) {
          f.fix = "sudo systemctl edit ollama, add Environment=\"" + var + "\"" + why +
                  ", then sudo systemctl restart ollama";
        } else if (s.host && s.host->container) {
          f.fix = "start the container with -e " + var + why;
        } else {
          f.fix = "start ollama with " + var + " in its environment (" + var + " ollama serve)" + why;
        }
      } else {
        f.fix = "use a build of ollama (or of its ROCm libraries) that carries " + gfx +
                ", or ollama's Vulkan backend";
      }
      out.push_back(std::move(f));
    }
  }
}

void check_ollama_intel_mac(const CheckSpec& self, const CheckInput& in, std::vector<Finding>& out) {
  if (!in.snap.macos || in.snap.macos->arm64 != std::optional<bool>(false)) return;
  if (!in.snap.runtimes || in.snap.runtimes->ollama.empty()) return;
  Finding f = make_finding(self, Severity::warn,
                           "ollama runs on the CPU on an Intel Mac: its GPU support (Metal) is "
                           "for Apple silicon only, so this Mac's GPU is not used");
  for (const auto& o : in.snap.runtimes->ollama) f.evidence.push_back("ollama: " + o.binary);
  f.evidence.push_back("CPU: " + in.snap.macos->cpu_brand.value_or("Intel") +
                       " (hw.optional.arm64 is 0)");
  f.fix = "nothing in ollama's setup changes this: its macOS requirements are \"Apple M series "
          "(CPU and GPU support) or x86 (CPU only)\"; a model that fits the CPU's memory still runs";
  f.source = kOllamaMacosDoc;
  out.push_back(std::move(f));
}

}  // namespace gpudoctor
