#include "report/redact.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>

#include "text.hpp"

namespace gpudoctor {

namespace {

constexpr std::string_view kHomeMarkers[] = {"/home/", "/Users/", "\\Users\\"};
/// Directories under those markers that are not a person: macOS's shared folder.
constexpr std::string_view kNotUsers[] = {"Shared", "root"};
constexpr std::string_view kComponentEnd = "/\\:;,= \"'";
/// Directory names a user name may collide with ("dev" in /home/dev and in /dev/nvidia0): they
/// are replaced only right after a home-directory marker.
constexpr std::string_view kSystemDirs[] = {
    "bin", "boot", "dev", "etc",  "home",  "include", "lib", "lib64", "local", "media", "mnt",
    "opt", "proc", "run", "sbin", "share", "srv",     "sys", "tmp",   "usr",   "var"};
/// Host names every machine has, which identify none.
constexpr std::string_view kGenericHosts[] = {"localhost", "localhost.localdomain"};
/// Members whose values are gpudoctor's own words ("gpu" as a finding's area), where a host
/// named like one of them must not be looked for.
constexpr std::string_view kVocabularyKeys[] = {"id",     "area",    "severity", "status",
                                                "backend", "kind",   "type"};
constexpr std::size_t kUuidHexDigits = 32;
/// ROCm's unique id: "GPU-" and 16 hex digits (rocm-smi, ROCR_VISIBLE_DEVICES).
constexpr std::size_t kAmdUuidHexDigits = 16;

bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

/// A character that continues a name: a host or user name found inside a longer word is not
/// that name ("dana" in "danaos", "gpu" in "gpu-box").
bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
}

template <std::size_t N>
bool listed(const std::string_view (&list)[N], std::string_view s) {
  return std::find(std::begin(list), std::end(list), s) != std::end(list);
}

/// Stable numbers for the distinct values of one kind, in order of first sight.
class Placeholders {
 public:
  int number_of(const std::string& value) {
    return map_.emplace(value, static_cast<int>(map_.size()) + 1).first->second;
  }
  int count() const { return static_cast<int>(map_.size()); }

 private:
  std::map<std::string, int> map_;
};

/// "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" starting at s[i], not inside a longer hex run.
bool dashed_uuid_at(const std::string& s, std::size_t i) {
  static constexpr int kGroups[] = {8, 4, 4, 4, 12};
  if (i > 0 && is_hex(s[i - 1])) return false;
  std::size_t p = i;
  for (int g = 0; g < 5; ++g) {
    if (g > 0 && (p >= s.size() || s[p++] != '-')) return false;
    for (int k = 0; k < kGroups[g]; ++k, ++p) {
      if (p >= s.size() || !is_hex(s[p])) return false;
    }
  }
  return p == s.size() || !is_hex(s[p]);
}

/// Exactly `digits` hex digits in a row starting at s[i], not inside a longer run.
bool hex_run_at(const std::string& s, std::size_t i, std::size_t digits) {
  if (i > 0 && is_hex(s[i - 1])) return false;
  std::size_t p = i;
  while (p < s.size() && is_hex(s[p])) ++p;
  return p - i == digits;
}

/// s[sep] ends a home-directory marker: what follows is a user's directory.
bool after_home_marker(const std::string& s, std::size_t sep) {
  return std::any_of(std::begin(kHomeMarkers), std::end(kHomeMarkers), [&](std::string_view m) {
    return sep + 1 >= m.size() && s.compare(sep + 1 - m.size(), m.size(), m) == 0;
  });
}

bool names_uuid(std::string_view key) { return to_lower(key).find("uuid") != std::string::npos; }

/// Replaces each occurrence of `name` in `s` that stands alone (no name character on either
/// side, not already a placeholder) and that `keep_at` does not keep, by `placeholder()`,
/// asked only when there is one. Host names are matched in any case, as DNS matches them.
/// For host names: a '-' or '_' ends a name as well when the name is distinctive (has a digit,
/// or six characters or more), so that a kernel built on the node ("6.1.0-myhost42") or a
/// path named after it ("ckpt_gpu-node-17") hides it, while a short word-like host ("gpu")
/// is not found in every "gpu-burn".
bool host_token_char(char c, const std::string& name) {
  if (c != '-' && c != '_') return name_char(c);
  const bool distinctive = name.size() >= 6 || std::any_of(name.begin(), name.end(), [](char n) {
                             return std::isdigit(static_cast<unsigned char>(n)) != 0;
                           });
  return !distinctive;
}

std::string replace_names(const std::string& s, const std::string& name,
                          const std::function<std::string()>& placeholder,
                          const std::function<bool(std::size_t)>& keep_at,
                          bool any_case = false) {
  const std::string haystack = any_case ? to_lower(s) : std::string();
  const std::string needle = any_case ? to_lower(name) : std::string();
  const std::string& in = any_case ? haystack : s;
  const std::string& what = any_case ? needle : name;
  std::string out;
  std::size_t copied = 0;
  for (std::size_t at = in.find(what); at != std::string::npos; at = in.find(what, at + 1)) {
    const std::size_t end = at + name.size();
    const auto joins = [&](char c) { return any_case ? host_token_char(c, name) : name_char(c); };
    if (at > 0 && (joins(s[at - 1]) || s[at - 1] == '<')) continue;
    if (end < s.size() && joins(s[end])) continue;
    if (keep_at && keep_at(at)) continue;
    out.append(s, copied, at - copied);
    out += placeholder();
    copied = end;
    at = end - 1;
  }
  if (copied == 0) return s;
  out.append(s, copied, std::string::npos);
  return out;
}

/// The user-name path component after each home-directory marker in `s`.
void collect_home_users(const std::string& s, std::vector<std::string>& names) {
  for (auto marker : kHomeMarkers) {
    for (auto at = s.find(marker); at != std::string::npos; at = s.find(marker, at + 1)) {
      const std::size_t start = at + marker.size();
      const std::string name = s.substr(start, s.find_first_of(kComponentEnd, start) - start);
      if (name.empty() || name[0] == '<' || listed(kNotUsers, name)) continue;
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
}

/// What the document tells about whom it must hide: user names in home directories, the
/// machine's host names, and its OS id (a host named after its distribution hides nothing).
struct Subjects {
  std::vector<std::string> users;
  std::vector<std::string> hosts;
  std::string os_id;
};

void collect_string(const std::string& s, std::string_view key, Subjects& out) {
  collect_home_users(s, out.users);
  if (key == "hostname" && !s.empty()) out.hosts.push_back(s);
  if (key == "os_id") out.os_id = s;
}

void collect(const Json& j, const std::string& key, Subjects& out) {
  if (j.is_string()) {
    collect_string(j.get_ref<const std::string&>(), key, out);
  } else if (j.is_object()) {
    for (const auto& [k, v] : j.items()) collect(v, k, out);
  } else if (j.is_array()) {
    for (const auto& v : j) collect(v, key, out);
  }
}

class Redactor {
 public:
  explicit Redactor(Subjects subjects) : users_names_(std::move(subjects.users)) {
    for (const auto& host : subjects.hosts) {
      if (host.size() < 2 || listed(kGenericHosts, to_lower(host)) ||
          to_lower(host) == to_lower(subjects.os_id)) {
        continue;
      }
      const std::string placeholder = host_placeholder(host);
      host_names_.emplace_back(host, placeholder);
      // "node17" stands for "node17.cluster.example.org" in most places that name it.
      const std::string label = host.substr(0, host.find('.'));
      if (label.size() >= 3 && label != host && to_lower(label) != to_lower(subjects.os_id)) {
        host_names_.emplace_back(label, placeholder);
      }
    }
    // Longest first: the full name before its first label.
    std::stable_sort(host_names_.begin(), host_names_.end(),
                     [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  }

  void visit(Json& j, const std::string& key) {
    if (j.is_object()) {
      for (auto& [k, v] : j.items()) visit(v, k);
    } else if (j.is_array()) {
      for (auto& v : j) visit(v, key);
    } else if (j.is_string()) {
      j = redact_string(j.get<std::string>(), key);
    }
  }

  /// `s`, a string that stands under `key`, redacted.
  std::string redact_string(std::string s, std::string_view key) {
    if (key == "source") return s;  // rule URLs come from gpudoctor's own data
    if (key == "hostname") return host_placeholder(s);
    if (key == "serial") return "<serial" + std::to_string(serials_.number_of(s)) + ">";
    // The accounts of host.access (the process's, a workload's, a device group's members)
    // are bare user names. Other strings equal to a user name stay: on a cloud VM the user
    // "ubuntu" runs Ubuntu (os id "ubuntu").
    if ((key == "user" || key == "members") && !s.empty()) return user_placeholder(s);
    if (key == "kernel_version") s = redact_kernel_builder(s);
    s = replace_uuids(std::move(s), names_uuid(key));
    if (!listed(kVocabularyKeys, key)) {
      for (const auto& [host, placeholder] : host_names_) {
        s = replace_names(s, host, [&p = placeholder] { return p; }, {}, true);
      }
    }
    return replace_users(s);
  }

  RedactionCounts counts() const {
    return {{"host_name", hosts_.count()},
            {"serial_number", serials_.count()},
            {"user_name", users_.count()},
            {"uuid", uuids_.count()}};
  }

 private:
  /// One host per report: "<host>"; "<host2>" for another one (a kernel's build host). A
  /// short name of a known host gets that host's placeholder.
  std::string host_placeholder(const std::string& host) {
    for (const auto& [name, placeholder] : host_names_) {
      if (name == host) return placeholder;
    }
    const int n = hosts_.number_of(host);
    return "<host" + (n == 1 ? std::string() : std::to_string(n)) + ">";
  }

  std::string user_placeholder(const std::string& user) {
    return "<user" + std::to_string(users_.number_of(user)) + ">";
  }

  /// /proc/version names who built the kernel and where: "Linux version 6.5.0 (alice@alice-pc)
  /// (gcc …)". On a kernel built at home that is the user and the machine.
  std::string redact_kernel_builder(const std::string& s) {
    const std::size_t open = s.find(" (");
    if (open == std::string::npos) return s;
    const std::size_t close = s.find(')', open);
    const std::size_t at = s.find('@', open);
    if (close == std::string::npos || at == std::string::npos || at > close) return s;
    const std::string user = s.substr(open + 2, at - open - 2);
    const std::string host = s.substr(at + 1, close - at - 1);
    if (user.empty() || host.empty() || user.find(' ') != std::string::npos ||
        host.find(' ') != std::string::npos) {
      return s;
    }
    return s.substr(0, open + 2) + user_placeholder(user) + "@" + host_placeholder(host) +
           s.substr(close);
  }

  std::string replace_uuids(std::string s, bool in_uuid_field) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::size_t len = 0;
      std::size_t digits = kUuidHexDigits;
      if (dashed_uuid_at(s, i)) {
        len = 36;
      } else if (hex_run_at(s, i, kUuidHexDigits)) {
        len = kUuidHexDigits;  // OpenCL's bare UUID, a machine-id
      } else if (hex_run_at(s, i, kAmdUuidHexDigits) &&
                 (in_uuid_field || (i >= 4 && s.compare(i - 4, 4, "GPU-") == 0))) {
        len = digits = kAmdUuidHexDigits;
      }
      if (len == 0) continue;
      std::string found;
      for (std::size_t p = i; p < i + len; ++p) {
        if (is_hex(s[p]))
          found += static_cast<char>(std::tolower(static_cast<unsigned char>(s[p])));
      }
      const auto n = static_cast<std::uint64_t>(uuids_.number_of(found));
      const std::string placeholder = std::string(digits - 16, '0') + hex(n, 16);
      for (std::size_t p = i, d = 0; p < i + len; ++p) {
        if (is_hex(s[p])) s[p] = placeholder[d++];
      }
      i += len - 1;
    }
    return s;
  }

  /// Each user name wherever it stands alone: a path component, "alice@host", "owner=alice";
  /// a name that is also a system directory only right after a home-directory marker.
  std::string replace_users(std::string s) {
    for (const auto& name : users_names_) {
      if (name.size() < 2 || s.find(name) == std::string::npos || s == name) continue;
      const bool system = listed(kSystemDirs, name);
      // Numbered only once the name is really found, in the order the document shows them.
      s = replace_names(
          s, name, [&] { return user_placeholder(name); },
          [&](std::size_t at) { return system && !(at > 0 && after_home_marker(s, at - 1)); });
    }
    return s;
  }

  std::vector<std::string> users_names_;
  std::vector<std::pair<std::string, std::string>> host_names_;
  Placeholders hosts_;
  Placeholders serials_;
  Placeholders users_;
  Placeholders uuids_;
};

/// Pass one of a streamed redaction: what the document tells about whom it must hide.
class CollectFilter : public JsonStringFilter {
 public:
  explicit CollectFilter(Subjects& out) : out_(out) {}
  void string(std::string_view key, std::string& value) override {
    collect_string(value, key, out_);
  }

 private:
  Subjects& out_;
};

class RedactFilter : public JsonStringFilter {
 public:
  explicit RedactFilter(Redactor& r) : r_(r) {}
  void string(std::string_view key, std::string& value) override {
    value = r_.redact_string(std::move(value), key);
  }

 private:
  Redactor& r_;
};

}  // namespace

struct StreamRedaction::State {
  Subjects subjects;
  std::vector<std::string> host_names;
  CollectFilter collect{subjects};
  std::optional<Redactor> redactor;
  std::optional<RedactFilter> redact;
};

StreamRedaction::StreamRedaction(const std::vector<std::string>& user_names,
                                 const std::vector<std::string>& host_names)
    : state_(std::make_unique<State>()) {
  state_->subjects.users = user_names;
  state_->host_names = host_names;
}

StreamRedaction::~StreamRedaction() = default;

JsonStringFilter& StreamRedaction::collector() { return state_->collect; }

JsonStringFilter& StreamRedaction::start_redacting() {
  Subjects subjects = state_->subjects;
  subjects.hosts.insert(subjects.hosts.end(), state_->host_names.begin(),
                        state_->host_names.end());
  state_->redact.reset();
  state_->redactor.emplace(std::move(subjects));
  state_->redact.emplace(*state_->redactor);
  return *state_->redact;
}

RedactionCounts StreamRedaction::counts() const {
  return state_->redactor ? state_->redactor->counts() : RedactionCounts{};
}

std::vector<std::string> user_names_from(const Environment& env) {
  std::vector<std::string> names;
  auto add = [&names](std::string name) {
    if (name.empty() || name == "root") return;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const char* var : {"USER", "LOGNAME", "SUDO_USER"}) add(env.get_nonempty(var).value_or(""));
  if (auto home = env.get_nonempty("HOME")) {
    const auto parts = split_path_list(*home, '/');
    if (!parts.empty()) add(parts.back());
  }
  return names;
}

std::vector<std::string> host_names_from(const Environment& env) {
  std::vector<std::string> names;
  if (auto host = env.get_nonempty("HOSTNAME")) names.push_back(*host);
  return names;
}

Redacted redact(Json doc, const std::vector<std::string>& user_names,
                const std::vector<std::string>& host_names) {
  Subjects subjects;
  subjects.users = user_names;
  collect(doc, "", subjects);
  subjects.hosts.insert(subjects.hosts.end(), host_names.begin(), host_names.end());
  Redactor r(std::move(subjects));
  r.visit(doc, "");
  return {std::move(doc), r.counts()};
}

}  // namespace gpudoctor
