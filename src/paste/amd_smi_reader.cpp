// AMD SMI's command line tool (`amd-smi static`, `list`, `version`, `monitor`, and `--json`),
// whole or as a fragment: a slice of its indented `KEY: value` blocks without the `GPU: N` line,
// the JSON a page cut off or a person trimmed (so not always valid JSON), the version line alone.
// Keys and layout: https://rocm.docs.amd.com/projects/amdsmi/en/latest/how-to/amdsmi-cli-tool.html
#include <cctype>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kFormat_amd_smi = "amd-smi";

/// Keys only amd-smi prints (upper case in its text output, lower case in its JSON): one of them
/// in a block makes the block amd-smi's.
bool amd_smi_own_key(std::string_view key) {
  static const std::string_view own[] = {
      "market_name", "target_graphics_version", "asic_serial", "oam_id", "kfd_id",
      "num_compute_units", "partition_id", "max_pcie_width", "pcie_interface_version",
      "bad_page_threshold", "vram_type", "vram_vendor", "product_name", "fru_id",
  };
  const std::string k = to_lower(key);
  for (auto o : own) {
    if (k == o) return true;
  }
  return false;
}

/// "    MARKET_NAME: AMD Instinct MI350X" → {"market_name", "AMD Instinct MI350X"}; the JSON line
/// `"market_name": "Radeon RX 7900 XTX",` the same; `"subsystem_id": "0x----,` (a quote lost)
/// still reads. Empty key when the line is neither.
struct AmdSmiPair {
  std::string key;
  std::string value;
  bool section = false;  ///< "ASIC:" / `"asic": {`: a section opens
};

AmdSmiPair amd_smi_pair(std::string_view raw) {
  AmdSmiPair p;
  std::string_view t = trim(raw);
  if (t.empty()) return p;
  const bool json = t.front() == '"';
  const auto colon = t.find(':');
  if (colon == std::string_view::npos || colon == 0) return p;
  std::string_view key = t.substr(0, colon);
  if (json) {
    if (key.size() < 2 || key.back() != '"') return p;
    key = key.substr(1, key.size() - 2);
  }
  for (char c : key) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    if (!ok) return {};
  }
  if (!json) {
    // The text form's keys are upper case (GPU, ASIC, MARKET_NAME, …).
    for (char c : key) {
      if (std::islower(static_cast<unsigned char>(c)) != 0) return {};
    }
  }
  std::string_view value = trim(t.substr(colon + 1));
  if (json) {
    if (value == "{" || value == "[") p.section = true;
    while (!value.empty() && (value.back() == ',' || value.back() == '"')) value.remove_suffix(1);
    if (!value.empty() && value.front() == '"') value.remove_prefix(1);
  } else if (value.empty()) {
    p.section = true;
  }
  p.key = to_lower(key);
  p.value = std::string(value);
  return p;
}

bool amd_smi_json_punctuation(std::string_view t) {
  t = trim(t);
  if (t.empty()) return false;
  for (char c : t) {
    if (c != '[' && c != ']' && c != '{' && c != '}' && c != ',' && c != ' ') return false;
  }
  return true;
}

/// "gfx1100" from "gfx1100" or "gfx90a:sramecc+:xnack-".
std::string amd_smi_gfx(std::string_view v) {
  std::string l = to_lower(trim(v));
  if (!starts_with(l, "gfx")) return "";
  std::size_t end = 3;
  while (end < l.size() && std::isalnum(static_cast<unsigned char>(l[end])) != 0) ++end;
  return end > 3 ? l.substr(0, end) : "";
}

/// One `KEY: value` block (or JSON object run): its lines, then whether it is amd-smi's.
void read_amd_smi_block(PasteSink& sink, std::size_t from, std::size_t to) {
  const auto& lines = sink.lines();
  bool own = false;
  for (std::size_t i = from; i < to && !own; ++i) own = amd_smi_own_key(amd_smi_pair(lines[i].text).key);
  if (!own) return;
  int gpu = 0;
  std::string section;
  for (std::size_t i = from; i < to; ++i) {
    const AmdSmiPair p = amd_smi_pair(lines[i].text);
    if (lines[i].fence || trim(lines[i].text).empty()) continue;
    sink.claim(i, kFormat_amd_smi);
    if (p.key.empty()) continue;
    if (p.section) {
      section = p.key;
      continue;
    }
    if (p.key == "gpu") {
      if (const auto n = parse_int(p.value); n && *n >= 0 && *n < 1024) {
        // A second "GPU: 0" (list, then static) is the same GPU again.
        gpu = static_cast<int>(*n);
      }
      continue;
    }
    if (p.key == "market_name" && !no_value(p.value)) {
      KfdNode& n = amd_gpu(sink, gpu);
      if (!n.name) n.name = p.value;
      sink.fact("gpu.name", p.value, i);
    } else if (p.key == "target_graphics_version") {
      const std::string gfx = amd_smi_gfx(p.value);
      if (!gfx.empty()) {
        KfdNode& n = amd_gpu(sink, gpu);
        if (!n.gfx_target) n.gfx_target = gfx;
        sink.fact("gpu.gfx", gfx, i);
      }
    } else if (p.key == "device_id" && section != "board") {
      if (const auto id = parse_uint(p.value); id && *id > 0 && *id <= 0xffff) {
        KfdNode& n = amd_gpu(sink, gpu);
        if (!n.device_id) n.device_id = static_cast<std::uint32_t>(*id);
      }
    } else if (p.key == "num_compute_units") {
      if (const auto cu = parse_int(p.value); cu && *cu > 0 && *cu < 100000) {
        KfdNode& n = amd_gpu(sink, gpu);
        if (!n.compute_units) n.compute_units = static_cast<std::uint32_t>(*cu);
      }
    } else if (p.key == "bdf" && p.value.size() >= 7) {
      KfdNode& n = amd_gpu(sink, gpu);
      if (!n.pci_address) n.pci_address = to_lower(p.value);
    } else if (p.key == "version" && section == "driver" && !no_value(p.value)) {
      RocmInfo& r = sink.rocm();
      if (!r.amdgpu_version) r.amdgpu_version = p.value;
      sink.fact("amdgpu.version", p.value, i);
    } else if (p.key == "os_kernel_version" && !no_value(p.value)) {
      HostInfo& h = sink.host();
      if (!h.kernel_release) h.kernel_release = p.value;
      sink.fact("kernel", p.value, i);
    }
  }
}

/// `amd-smi version`: "AMDSMI Tool: 24.6.2+2b02a07 | AMDSMI Library version: 24.6.2.0 | ROCm
/// version: 6.2.0" (one line, or one field a line in newer releases).
bool read_amd_smi_version(PasteSink& sink, std::size_t i) {
  const std::string& t = sink.lines()[i].text;
  if (t.find("AMDSMI Tool") == std::string::npos && t.find("AMDSMI Library") == std::string::npos &&
      t.find("AMD-SMI Tool") == std::string::npos) {
    return false;
  }
  sink.claim(i, kFormat_amd_smi);
  const auto at = t.find("ROCm version:");
  if (at != std::string::npos) {
    const std::string v = leading_version(trim(std::string_view(t).substr(at + 13)));
    if (!v.empty()) sink.fact("rocm.version", v, i);
  }
  return true;
}

/// `amd-smi monitor`'s header ("GPU  XCP  POWER  PWR_CAP   GPU_T …" or without XCP) and its rows.
bool amd_smi_monitor_header(std::string_view t) {
  const auto w = split_words(trim(t));
  if (w.size() < 4 || w[0] != "GPU") return false;
  int known = 0;
  for (const auto& x : w) {
    if (x == "POWER" || x == "GPU_T" || x == "MEM_T" || x == "GFX_CLK" || x == "GFX%" ||
        x == "MEM%" || x == "XCP" || x == "PWR_CAP" || x == "VRAM_USED") {
      ++known;
    }
  }
  return known >= 3;
}

void read_amd_smi_dumps(PasteSink& sink);

}  // namespace

void read_amd_smi(PasteSink& sink) {
  read_amd_smi_dumps(sink);
  // The prompt that ran amd-smi ("user@host:~$ sudo amd-smi list"), right above its output.
  const auto& lines = sink.lines();
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    const std::string_view t = trim(lines[i].text);
    if (!sink.claimed(i) && sink.owner(i + 1) == kFormat_amd_smi && t.size() < 300 &&
        (t.find("amd-smi ") != std::string_view::npos || ends_with(t, "amd-smi"))) {
      sink.claim(i, kFormat_amd_smi);
    }
  }
}

namespace {

void read_amd_smi_dumps(PasteSink& sink) {
  const auto& lines = sink.lines();
  std::size_t i = 0;
  while (i < lines.size()) {
    if (sink.claimed(i) || lines[i].fence) {
      ++i;
      continue;
    }
    if (read_amd_smi_version(sink, i)) {
      ++i;
      continue;
    }
    if (amd_smi_monitor_header(lines[i].text)) {
      sink.claim(i, kFormat_amd_smi);
      for (++i; i < lines.size() && !sink.claimed(i); ++i) {
        const auto w = split_words(trim(lines[i].text));
        if (w.empty() || !parse_int(w[0])) break;
        sink.claim(i, kFormat_amd_smi);
      }
      continue;
    }
    // A block: consecutive lines that are `KEY: value` pairs, section heads or JSON punctuation;
    // blank lines inside it are kept (amd-smi separates GPUs with one).
    const auto part_of_block = [&](std::size_t k) {
      if (sink.claimed(k) || lines[k].fence) return false;
      return !amd_smi_pair(lines[k].text).key.empty() || amd_smi_json_punctuation(lines[k].text);
    };
    if (!part_of_block(i)) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < lines.size()) {
      if (part_of_block(end)) {
        ++end;
      } else if (trim(lines[end].text).empty() && end + 1 < lines.size() && part_of_block(end + 1)) {
        ++end;
      } else {
        break;
      }
    }
    read_amd_smi_block(sink, i, end);
    // A page that cut the dump mid-key ("        ASIC_SERIA") leaves that key's remnant.
    if (end < lines.size() && end > i && sink.owner(end - 1) == kFormat_amd_smi &&
        !sink.claimed(end)) {
      const std::string_view rest = trim(lines[end].text);
      const bool remnant = !rest.empty() && rest.size() < 40 &&
                           rest.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == std::string_view::npos;
      if (remnant) sink.claim(end, kFormat_amd_smi);
    }
    i = end;
  }
}

}  // namespace

}  // namespace gpudoctor
