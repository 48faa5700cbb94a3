// data/messages/*.json into a MessageTable, with data/compat's rules: every entry has a source
// URL and a real example with its thread's URL, its patterns compile, the captures its templates
// and examples use exist, ids are unique. A bad entry names itself and the rest still load.
#include <cctype>
#include <map>
#include <set>

#include "json_dom.hpp"
#include "knowledge/message_pattern.hpp"
#include "knowledge/messages.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

// The paste parts a message can count for: read_messages' lines, the kernel reader's dmesg
// lines, and NVRM messages joined over their "NVRM:" lines.
const std::set<std::string> kFormats = {"messages", "kernel log", "nvrm"};
const std::set<std::string> kApis = {"cuda_runtime", "cuda_driver", "hip", "level_zero", "vulkan",
                                     "opencl", "nvidia_xid"};

bool is_url(const std::string& s) { return starts_with(s, "https://") || starts_with(s, "http://"); }

/// "torch.driver_too_old": lower-case words joined by dots, at least two.
bool is_id(const std::string& s) {
  if (s.find('.') == std::string::npos || s.front() == '.' || s.back() == '.') return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.')) return false;
  }
  return true;
}

/// The {name}s a template uses.
std::vector<std::string> template_names(const std::string& t) {
  std::vector<std::string> out;
  for (std::size_t i = t.find('{'); i != std::string::npos; i = t.find('{', i + 1)) {
    const auto close = t.find('}', i);
    if (close == std::string::npos) break;
    out.push_back(t.substr(i + 1, close - i - 1));
  }
  return out;
}

class Fields {
 public:
  Fields(const Json& j, std::string where, std::vector<std::string>& errors)
      : j_(j), where_(std::move(where)), errors_(errors) {}

  void error(const std::string& m) { errors_.push_back(where_ + ": " + m); }
  bool has(const char* k) const { return j_.is_object() && j_.contains(k) && !j_.at(k).is_null(); }
  const Json& at(const char* k) const { return j_.at(k); }

  std::string str(const char* k) {
    if (!has(k) || !j_.at(k).is_string() || j_.at(k).get<std::string>().empty()) {
      error(std::string("\"") + k + "\" must be a non-empty string");
      return {};
    }
    return j_.at(k).get<std::string>();
  }
  std::optional<std::string> opt_str(const char* k) {
    if (!has(k)) return std::nullopt;
    return str(k);
  }
  std::string url(const char* k) {
    std::string u = str(k);
    if (!u.empty() && !is_url(u)) error(std::string("\"") + k + "\" must be an http(s) URL: " + u);
    return u;
  }
  /// Every key must be one the schema names: a misspelt key would be silently ignored.
  void only(std::initializer_list<const char*> keys) {
    if (!j_.is_object()) {
      error("must be an object");
      return;
    }
    for (const auto& [k, v] : j_.items()) {
      bool known = false;
      for (const char* n : keys) known = known || k == n;
      if (!known) error("unknown key \"" + k + "\"");
    }
  }

 private:
  const Json& j_;
  std::string where_;
  std::vector<std::string>& errors_;
};

void read_patterns(Fields& f, MessageEntry& e) {
  if (!f.has("patterns")) return;
  const Json& ps = f.at("patterns");
  if (!ps.is_array() || ps.empty()) {
    f.error("\"patterns\" must be a non-empty array of strings");
    return;
  }
  std::set<std::string> named;
  for (const auto& p : ps) {
    if (!p.is_string() || p.get<std::string>().empty()) {
      f.error("\"patterns\" must be a non-empty array of strings");
      continue;
    }
    const std::string text = p.get<std::string>();
    e.patterns.push_back(text);
    CompiledPattern cp;
    const auto rewritten = rewrite_named_groups(text, cp.group_names);
    if (!rewritten) {
      f.error("pattern does not compile: " + text);
      continue;
    }
    try {
      auto flags = std::regex::ECMAScript;
      if (e.icase) flags |= std::regex::icase;
      cp.re = std::regex(*rewritten, flags);
    } catch (const std::regex_error& x) {
      f.error("pattern does not compile (" + std::string(x.what()) + "): " + text);
      continue;
    }
    cp.literal = required_literal(text);
    if (e.icase) cp.literal = to_lower(cp.literal);
    for (const auto& n : cp.group_names) {
      if (n.empty()) continue;
      named.insert(n);
      if (e.captures.count(n) == 0) f.error("pattern names a capture \"" + n + "\" not in \"captures\"");
    }
    e.compiled.push_back(std::move(cp));
  }
  for (const auto& [n, kind] : e.captures) {
    if (named.count(n) == 0) f.error("capture \"" + n + "\" is in no pattern");
  }
}

void read_captures(Fields& f, MessageEntry& e) {
  if (!f.has("captures")) return;
  const Json& c = f.at("captures");
  if (!c.is_object()) {
    f.error("\"captures\" must be an object of name: \"text\" | \"version\"");
    return;
  }
  for (const auto& [name, kind] : c.items()) {
    if (kind == "text") {
      e.captures[name] = CaptureKind::kText;
    } else if (kind == "version") {
      e.captures[name] = CaptureKind::kVersion;
    } else {
      f.error("capture \"" + name + "\" must be \"text\" or \"version\"");
    }
  }
}

void read_finding(Fields& f, const std::string& where, std::vector<std::string>& errors, MessageEntry& e) {
  if (!f.has("finding")) return;
  Fields g(f.at("finding"), where + ".finding", errors);
  g.only({"id", "area", "severity", "title", "fix", "source"});
  MessageFinding m;
  m.id = g.str("id");
  if (!m.id.empty() && !is_id(m.id)) g.error("\"id\" must be words joined by dots: " + m.id);
  m.area = g.opt_str("area");
  m.severity = g.str("severity");
  if (!m.severity.empty() && m.severity != "fail" && m.severity != "warn" && m.severity != "info") {
    g.error("\"severity\" must be fail, warn or info (docs/severity.md)");
  }
  m.title = g.str("title");
  m.fix = g.str("fix");
  if (g.has("source")) m.source = g.url("source");
  for (const std::string* t : {&m.title, &m.fix}) {
    for (const auto& n : template_names(*t)) {
      bool code_value = false;
      for (const char* v : kErrorCodeValues) code_value = code_value || (e.error_code && n == v);
      if (e.captures.count(n) == 0 && !code_value) {
        g.error("template names {" + n + "}, which no pattern captures");
      }
    }
  }
  e.finding = std::move(m);
}

void read_examples(Fields& f, const std::string& where, std::vector<std::string>& errors, MessageEntry& e) {
  if (!f.has("examples") || !f.at("examples").is_array() || f.at("examples").empty()) {
    f.error("\"examples\" must list at least one real line with its thread's URL");
    return;
  }
  std::size_t k = 0;
  for (const auto& x : f.at("examples")) {
    Fields g(x, where + ".examples[" + std::to_string(k++) + "]", errors);
    g.only({"text", "url", "values"});
    MessageExample ex;
    ex.text = g.str("text");
    ex.url = g.url("url");
    if (g.has("values")) {
      if (!g.at("values").is_object()) {
        g.error("\"values\" must be an object of capture: value");
      } else {
        for (const auto& [n, v] : g.at("values").items()) {
          bool code_value = false;
          for (const char* v : kErrorCodeValues) code_value = code_value || (e.error_code && n == v);
          if (e.captures.count(n) == 0 && !code_value) {
            g.error("\"values\" names \"" + n + "\", which no pattern captures");
          }
          if (!v.is_string()) {
            g.error("\"values\"." + n + " must be a string");
          } else {
            ex.values[n] = v.get<std::string>();
          }
        }
      }
    }
    e.examples.push_back(std::move(ex));
  }
}

void read_entry(const Json& j, const std::string& file, std::size_t index, MessageLoad& out) {
  const std::string id = j.is_object() && j.contains("id") && j.at("id").is_string()
                             ? j.at("id").get<std::string>()
                             : "?";
  const std::string where = file + ": entries[" + std::to_string(index) + "] (" + id + ")";
  Fields f(j, where, out.errors);
  f.only({"id", "tool", "format", "patterns", "icase", "captures", "cuda_init_error", "read_by",
          "fallback", "error_code", "finding", "source", "examples", "note"});
  if (!j.is_object()) return;
  MessageEntry e;
  e.file = file;
  e.id = f.str("id");
  if (!e.id.empty() && !is_id(e.id)) f.error("\"id\" must be words joined by dots");
  e.tool = f.str("tool");
  if (f.has("format")) {
    e.format = f.str("format");
    if (kFormats.count(e.format) == 0) f.error("\"format\" must be messages, kernel log or nvrm");
  }
  if (f.has("icase")) {
    if (!f.at("icase").is_boolean()) f.error("\"icase\" must be true or false");
    e.icase = f.at("icase").is_boolean() && f.at("icase").get<bool>();
  }
  read_captures(f, e);
  e.read_by = f.opt_str("read_by");
  if (!f.has("patterns") && !e.read_by) {
    f.error("an entry has \"patterns\", or \"read_by\" (the code file that reads it), or both");
  }
  read_patterns(f, e);
  if (f.has("cuda_init_error")) {
    e.cuda_init_error = f.str("cuda_init_error");
    const std::string& c = *e.cuda_init_error;
    const bool capture = c.size() > 2 && c.front() == '{' && c.back() == '}';
    if (capture && e.captures.count(c.substr(1, c.size() - 2)) == 0) {
      f.error("\"cuda_init_error\" names a capture no pattern has: " + c);
    } else if (!capture && !parse_int(c)) {
      f.error("\"cuda_init_error\" must be a CUresult number or {capture}");
    }
  }
  if (f.has("fallback")) {
    if (!f.at("fallback").is_boolean()) f.error("\"fallback\" must be true or false");
    e.fallback = f.at("fallback").is_boolean() && f.at("fallback").get<bool>();
  }
  if (f.has("error_code")) {
    Fields g(f.at("error_code"), where + ".error_code", out.errors);
    g.only({"apis", "capture"});
    ErrorCodeRef r;
    r.capture = g.str("capture");
    if (!r.capture.empty() && e.captures.count(r.capture) == 0) {
      g.error("\"capture\" names a capture no pattern has: " + r.capture);
    }
    if (!g.has("apis") || !g.at("apis").is_array() || g.at("apis").empty()) {
      g.error("\"apis\" must list the APIs whose codes the capture names");
    } else {
      for (const auto& a : g.at("apis")) {
        if (!a.is_string() || kApis.count(a.get<std::string>()) == 0) {
          g.error("unknown API in \"apis\"");
        } else {
          r.apis.push_back(a.get<std::string>());
        }
      }
    }
    e.error_code = std::move(r);
  }
  read_finding(f, where, out.errors, e);
  e.source = f.url("source");
  read_examples(f, where, out.errors, e);
  out.table.entries.push_back(std::move(e));
}

void read_code(const Json& j, const std::string& file, std::size_t index, MessageLoad& out) {
  const std::string where = file + ": codes[" + std::to_string(index) + "]";
  Fields f(j, where, out.errors);
  f.only({"api", "code", "name", "meaning", "cause", "source", "finding", "severity"});
  if (!j.is_object()) return;
  ErrorCode c;
  c.api = f.str("api");
  if (!c.api.empty() && kApis.count(c.api) == 0) f.error("unknown \"api\" " + c.api);
  if (!f.has("code") || !f.at("code").is_number_integer()) {
    f.error("\"code\" must be a whole number");
  } else {
    c.code = f.at("code").get<long long>();
  }
  c.name = f.str("name");
  c.meaning = f.str("meaning");
  c.cause = f.opt_str("cause");
  c.source = f.url("source");
  c.finding = f.opt_str("finding");
  if (c.finding && !is_id(*c.finding)) f.error("\"finding\" must be words joined by dots: " + *c.finding);
  c.severity = f.opt_str("severity");
  if (c.severity && *c.severity != "fail" && *c.severity != "warn" && *c.severity != "info") {
    f.error("\"severity\" must be fail, warn or info (docs/severity.md)");
  }
  if (c.finding.has_value() != c.severity.has_value()) f.error("\"finding\" and \"severity\" go together");
  out.table.codes.push_back(std::move(c));
}

void check_unique(MessageLoad& out) {
  std::set<std::string> ids;
  for (const auto& e : out.table.entries) {
    if (!e.id.empty() && !ids.insert(e.id).second) out.errors.push_back(e.file + ": id " + e.id + " is not unique");
  }
  std::set<std::pair<std::string, long long>> codes;
  std::set<std::pair<std::string, std::string>> names;
  for (const auto& c : out.table.codes) {
    if (!codes.insert({c.api, c.code}).second) {
      out.errors.push_back(c.api + " code " + std::to_string(c.code) + " is listed twice");
    }
    if (!names.insert({c.api, c.name}).second) out.errors.push_back(c.api + " name " + c.name + " is listed twice");
  }
}

}  // namespace

MessageLoad load_messages(const std::map<std::string, std::string_view>& files) {
  MessageLoad out;
  for (const auto& [file, text] : files) {
    std::string why;
    const Json doc = parse_json_bounded(text, &why);
    if (doc.is_discarded() || !doc.is_object()) {
      out.errors.push_back(file + ": not a JSON object" + (why.empty() ? "" : ": " + why));
      continue;
    }
    Fields f(doc, file, out.errors);
    f.only({"schema", "title", "note", "entries", "codes"});
    if (!doc.contains("schema") || doc.at("schema") != 1) f.error("\"schema\" must be 1");
    f.str("title");
    const bool entries = f.has("entries") && f.at("entries").is_array();
    const bool codes = f.has("codes") && f.at("codes").is_array();
    if (entries == codes) f.error("a file has an \"entries\" array or a \"codes\" array");
    if (entries) {
      std::size_t i = 0;
      for (const auto& j : doc.at("entries")) read_entry(j, file, i++, out);
    }
    if (codes) {
      std::size_t i = 0;
      for (const auto& j : doc.at("codes")) read_code(j, file, i++, out);
    }
  }
  check_unique(out);
  return out;
}

const MessageTable& builtin_messages() {
  static const MessageTable table = load_messages(embedded_message_files()).table;
  return table;
}

const MessageEntry* message_entry(const MessageTable& table, std::string_view id) {
  for (const auto& e : table.entries) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

std::string error_code_key(std::string_view api, std::string_view name) {
  // One spelling for every way a code's name is written: "cudaErrorInsufficientDriver",
  // "CUDAError InsufficientDriver", "CUDA_ERROR_INSUFFICIENT_DRIVER"; "VK_ERROR_INCOMPATIBLE_DRIVER",
  // Vulkan-Hpp's "ErrorIncompatibleDriver"; "CL_PLATFORM_NOT_FOUND_KHR", "PLATFORM_NOT_FOUND_KHR":
  // letters and digits only, lower case, the API's prefix taken off.
  std::string k;
  for (const char ch : name) {
    if (std::isalnum(static_cast<unsigned char>(ch)) != 0) {
      k += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
  }
  static const std::map<std::string_view, std::vector<std::string_view>> kPrefixes = {
      {"cuda_runtime", {"cudaerror"}},
      {"cuda_driver", {"cudaerror"}},
      {"hip", {"hiperror", "hip_error"}},
      {"level_zero", {"zeresulterror", "zeresult"}},
      {"vulkan", {"vkerror", "error", "vk"}},
      {"opencl", {"cl"}},
  };
  const auto it = kPrefixes.find(api);
  if (it == kPrefixes.end()) return k;
  for (const std::string_view p : it->second) {
    if (k.size() > p.size() + 3 && k.compare(0, p.size(), p) == 0) return k.substr(p.size());
  }
  return k;
}

const ErrorCode* error_code_named(const MessageTable& table, std::string_view api, std::string_view name) {
  for (const auto& c : table.codes) {
    if (c.api == api && c.name == name) return &c;
  }
  // The same name in another spelling (error_code_key).
  const std::string key = error_code_key(api, name);
  if (key.size() < 6) return nullptr;
  for (const auto& c : table.codes) {
    if (c.api == api && error_code_key(api, c.name) == key) return &c;
  }
  return nullptr;
}

const ErrorCode* error_code(const MessageTable& table, std::string_view api, long long code) {
  for (const auto& c : table.codes) {
    if (c.api == api && c.code == code) return &c;
  }
  return nullptr;
}

}  // namespace gpudoctor
