// The envelope every data/compat file shares ({"schema", "title", "sources", "rows"}), the
// typed row reader, and load_compat's dispatch to the per-matrix readers.
#include <set>

#include "compat/compat_data.hpp"
#include "json_dom.hpp"
#include "compat/compat_reader.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace compat_detail {

void RowReader::error(const std::string& message) {
  errors_.push_back(where_ + ": " + message);
  *ok_ = false;
}

bool RowReader::has(const char* key) const {
  auto it = row_.find(key);
  return it != row_.end() && !it->is_null();
}

std::string RowReader::str(const char* key) {
  auto it = row_.find(key);
  if (it == row_.end() || !it->is_string() || it->get<std::string>().empty()) {
    error(std::string("\"") + key + "\" must be a non-empty string");
    return {};
  }
  return it->get<std::string>();
}

std::optional<std::string> RowReader::opt_str(const char* key) {
  if (!has(key)) return std::nullopt;
  return str(key);
}

int RowReader::count(const char* key, int max) {
  auto it = row_.find(key);
  if (it == row_.end() || !it->is_number_unsigned() || it->get<std::uint64_t>() == 0 ||
      it->get<std::uint64_t>() > static_cast<std::uint64_t>(max)) {
    error(std::string("\"") + key + "\" must be a whole number from 1 to " + std::to_string(max));
    return 0;
  }
  return static_cast<int>(it->get<std::uint64_t>());
}

bool RowReader::boolean(const char* key) {
  auto it = row_.find(key);
  if (it == row_.end() || !it->is_boolean()) {
    error(std::string("\"") + key + "\" must be true or false");
    return false;
  }
  return it->get<bool>();
}

std::optional<Version> RowReader::version_value(const Json& value, const std::string& what) {
  if (!value.is_string()) {
    error("\"" + what + "\" must be a version string");
    return std::nullopt;
  }
  auto v = parse_version(value.get<std::string>());
  if (!v || !v->local.empty() || !v->suffix.empty()) {
    error("\"" + what + "\" is not a plain version: \"" + value.get<std::string>() + "\"");
    return std::nullopt;
  }
  return v;
}

Version RowReader::version(const char* key) {
  auto it = row_.find(key);
  if (it == row_.end()) {
    error(std::string("\"") + key + "\" is missing");
    return {};
  }
  return version_value(*it, key).value_or(Version{});
}

std::optional<Version> RowReader::opt_version(const char* key) {
  if (!has(key)) return std::nullopt;
  return version_value(row_.at(key), key);
}

VersionRange RowReader::range_value(const Json& value, const std::string& what) {
  VersionRange r;
  if (!value.is_object()) {
    error("\"" + what + "\" must be {\"min\", \"max\"}");
    return r;
  }
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (it.key() != "min" && it.key() != "max")
      error("\"" + what + "\" has an unknown key " + it.key());
  }
  if (auto it = value.find("min"); it != value.end() && !it->is_null()) {
    r.min = version_value(*it, what + ".min");
  }
  if (auto it = value.find("max"); it != value.end() && !it->is_null()) {
    r.max = version_value(*it, what + ".max");
  }
  if (r.min && r.max && compare_to_bound(*r.min, *r.max) > 0) {
    error("\"" + what + "\": min " + r.min->text + " is above max " + r.max->text);
  }
  return r;
}

VersionRange RowReader::range(const char* key) {
  auto it = row_.find(key);
  if (it == row_.end()) {
    error(std::string("\"") + key + "\" is missing");
    return {};
  }
  return range_value(*it, key);
}

const Json* RowReader::array(const char* key) {
  auto it = row_.find(key);
  if (it == row_.end() || !it->is_array()) {
    error(std::string("\"") + key + "\" must be an array");
    return nullptr;
  }
  return &*it;
}

std::vector<VersionRange> RowReader::range_list(const char* key) {
  std::vector<VersionRange> out;
  if (const Json* a = array(key)) {
    for (std::size_t i = 0; i < a->size(); ++i) {
      out.push_back(range_value((*a)[i], std::string(key) + "[" + std::to_string(i) + "]"));
    }
  }
  return out;
}

std::vector<std::string> RowReader::str_list(const char* key) {
  std::vector<std::string> out;
  if (const Json* a = array(key)) {
    for (const Json& v : *a) {
      if (!v.is_string() || v.get<std::string>().empty()) {
        error(std::string("\"") + key + "\" must hold non-empty strings");
        continue;
      }
      out.push_back(v.get<std::string>());
    }
  }
  return out;
}

std::vector<Version> RowReader::version_list(const char* key) {
  std::vector<Version> out;
  if (const Json* a = array(key)) {
    for (std::size_t i = 0; i < a->size(); ++i) {
      auto v = version_value((*a)[i], std::string(key) + "[" + std::to_string(i) + "]");
      if (v) out.push_back(*v);
    }
  }
  return out;
}

CompatOs RowReader::os(const char* key) {
  std::string s = str(key);
  if (s == "linux") return CompatOs::kLinux;
  if (s == "windows") return CompatOs::kWindows;
  if (s == "macos") return CompatOs::kMacos;
  if (!s.empty()) error(std::string("\"") + key + "\" must be linux, windows or macos: " + s);
  return CompatOs::kLinux;
}

void for_each_row(const FileContext& file, const Json& rows,
                  const std::function<void(RowReader&, const Provenance&)>& read_row) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Json& row = rows[i];
    std::string where = file.name + ": rows[" + std::to_string(i) + "]";
    if (!row.is_object()) {
      file.errors->push_back(where + ": not an object");
      continue;
    }
    RowReader reader(row, where, *file.errors);
    Provenance p;
    auto src = row.find("source");
    if (src != row.end() && src->is_string()) {
      p.sources.push_back(src->get<std::string>());
    } else if (src != row.end() && src->is_array() && !src->empty()) {
      for (const Json& s : *src) p.sources.push_back(s.is_string() ? s.get<std::string>() : "");
    } else {
      reader.error("\"source\" must be a source id or a list of them");
    }
    for (const std::string& id : p.sources) {
      const CompatSource* found = nullptr;
      for (const CompatSource& s : *file.sources) {
        if (s.id == id) found = &s;
      }
      if (!found) {
        reader.error("unknown source \"" + id + "\"");
      } else if (p.url.empty()) {
        p.url = found->url;
      }
    }
    if (auto url = reader.opt_str("url")) {
      if (!starts_with(*url, "https://")) reader.error("\"url\" must be an https URL");
      p.url = *url;
    }
    p.note = reader.opt_str("note");
    read_row(reader, p);
    if (reader.ok()) ++*file.rows;
  }
}

namespace {

std::vector<CompatSource> read_sources(const std::string& name, const Json& doc,
                                       std::vector<std::string>& errors) {
  std::vector<CompatSource> out;
  auto it = doc.find("sources");
  if (it == doc.end() || !it->is_array() || it->empty()) {
    errors.push_back(name + ": \"sources\" must be a non-empty array");
    return out;
  }
  std::set<std::string> ids;
  for (std::size_t i = 0; i < it->size(); ++i) {
    RowReader r((*it)[i], name + ": sources[" + std::to_string(i) + "]", errors);
    CompatSource s;
    s.id = r.str("id");
    s.url = r.str("url");
    s.title = r.str("title");
    std::string status = r.str("status");
    if (status == "verified") {
      s.status = SourceStatus::kVerified;
    } else if (status == "verified-copy") {
      s.status = SourceStatus::kVerifiedCopy;
    } else if (status == "derived") {
      s.status = SourceStatus::kDerived;
    } else if (!status.empty()) {
      r.error("\"status\" must be verified, verified-copy or derived: " + status);
    }
    if (r.has("read_via")) s.read_via = r.str_list("read_via");
    s.read_note = r.opt_str("read_note");
    s.rule = r.opt_str("rule");
    if (r.has("from")) s.from = r.str_list("from");
    if (!s.url.empty() && !starts_with(s.url, "https://")) r.error("\"url\" must be an https URL");
    for (const std::string& via : s.read_via) {
      if (!starts_with(via, "https://")) r.error("\"read_via\" must hold https URLs");
    }
    if (s.status == SourceStatus::kVerifiedCopy && s.read_via.empty() && !s.read_note) {
      r.error("a verified-copy source names the copy read (read_via or read_note)");
    }
    if (s.status == SourceStatus::kDerived && !s.rule) r.error("a derived source states its rule");
    if (!ids.insert(s.id).second) r.error("duplicate source id \"" + s.id + "\"");
    out.push_back(std::move(s));
  }
  return out;
}

const std::set<std::string>& known_files() {
  static const std::set<std::string> names = {"cuda_driver_minimums.json",
                                              "cuda_minor_version_compat.json",
                                              "driver_branch_max_cuda.json",
                                              "cuda_arch_range.json",
                                              "gpu_compute_capability.json",
                                              "cudnn.json",
                                              "tensorflow.json",
                                              "pytorch.json",
                                              "jax.json",
                                              "tensorflow_metal.json",
                                              "rocm.json",
                                              "gpu_fp32_lanes.json",
                                              "cuda_platforms.json",
                                              "framework_cuda_libs.json",
                                              "vulkan_layers.json",
                                              "intel.json"};
  return names;
}

}  // namespace

}  // namespace compat_detail

CompatLoad load_compat(const std::map<std::string, std::string_view>& files) {
  using namespace compat_detail;
  CompatLoad out;
  for (const auto& [name, text] : files) {
    if (!known_files().count(name)) {
      out.errors.push_back(name + ": not a known matrix file");
      continue;
    }
    Json doc = parse_json_bounded(text);
    if (doc.is_discarded() || !doc.is_object()) {
      out.errors.push_back(name + ": not a JSON object");
      continue;
    }
    std::string stem = name.substr(0, name.size() - 5);
    auto schema = doc.find("schema");
    if (schema == doc.end() || !schema->is_string() || *schema != stem + "/1") {
      out.errors.push_back(name + ": \"schema\" must be \"" + stem + "/1\"");
      continue;
    }
    auto title = doc.find("title");
    if (title == doc.end() || !title->is_string() || title->get<std::string>().empty()) {
      out.errors.push_back(name + ": \"title\" must be a non-empty string");
    }
    auto rows = doc.find("rows");
    if (rows == doc.end() || !rows->is_array() || rows->empty()) {
      out.errors.push_back(name + ": \"rows\" must be a non-empty array");
      continue;
    }
    auto& sources = out.data.sources[name];
    sources = read_sources(name, doc, out.errors);
    FileContext file{name, &sources, &out.errors, &out.rows};
    load_nvidia_file(file, *rows, out.data);
    load_framework_file(file, *rows, out.data);
    load_cuda_libs_file(file, *rows, out.data);
    load_vulkan_file(file, *rows, out.data);
    // data/compat/intel.json: read by src/checks/intel_identity.cpp; here its rows' sources.
    if (name == "intel.json") for_each_row(file, *rows, [](RowReader& r, const Provenance&) { r.str("platform"); });
  }
  return out;
}

const CompatData& builtin_compat() {
  static const CompatData data = load_compat(embedded_compat_files()).data;
  return data;
}

std::optional<ComputeCapability> parse_sm(std::string_view sm) {
  sm = trim(sm);
  if (starts_with(sm, "sm_") || starts_with(sm, "compute_")) sm.remove_prefix(sm.find('_') + 1);
  std::size_t digits = 0;
  while (digits < sm.size() && sm[digits] >= '0' && sm[digits] <= '9') ++digits;
  if (digits < 2 || digits > 3) return std::nullopt;
  std::string_view suffix = sm.substr(digits);
  if (suffix.size() > 1 || (suffix.size() == 1 && suffix != "a" && suffix != "f"))
    return std::nullopt;
  auto number = parse_uint(sm.substr(0, digits));
  if (!number) return std::nullopt;
  return ComputeCapability{static_cast<int>(*number / 10), static_cast<int>(*number % 10),
                           std::string(suffix)};
}

std::string to_string(const ComputeCapability& cc) {
  return std::to_string(cc.major) + "." + std::to_string(cc.minor) + cc.suffix;
}

int compare_cc(const ComputeCapability& a, const ComputeCapability& b) {
  if (a.major != b.major) return a.major < b.major ? -1 : 1;
  if (a.minor != b.minor) return a.minor < b.minor ? -1 : 1;
  return a.suffix.compare(b.suffix) < 0 ? -1 : (a.suffix == b.suffix ? 0 : 1);
}

}  // namespace gpudoctor
