#include "report/redact.hpp"

#include <algorithm>
#include <cctype>
#include <set>

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
constexpr std::size_t kUuidHexDigits = 32;

bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

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

/// 32 hex digits in a row starting at s[i], not inside a longer run.
bool bare_uuid_at(const std::string& s, std::size_t i) {
  if (i > 0 && is_hex(s[i - 1])) return false;
  std::size_t p = i;
  while (p < s.size() && is_hex(s[p])) ++p;
  return p - i == kUuidHexDigits;
}

/// s[sep] ends a home-directory marker: what follows is a user's directory.
bool after_home_marker(const std::string& s, std::size_t sep) {
  return std::any_of(std::begin(kHomeMarkers), std::end(kHomeMarkers), [&](std::string_view m) {
    return sep + 1 >= m.size() && s.compare(sep + 1 - m.size(), m.size(), m) == 0;
  });
}

bool system_dir(const std::string& name) {
  return std::find(std::begin(kSystemDirs), std::end(kSystemDirs), name) != std::end(kSystemDirs);
}

bool names_uuid(const std::string& key) { return to_lower(key).find("uuid") != std::string::npos; }

/// The user-name path component after each home-directory marker in `s`.
void collect_home_users(const std::string& s, std::vector<std::string>& names) {
  for (auto marker : kHomeMarkers) {
    for (auto at = s.find(marker); at != std::string::npos; at = s.find(marker, at + 1)) {
      const std::size_t start = at + marker.size();
      const std::string name = s.substr(start, s.find_first_of(kComponentEnd, start) - start);
      const bool public_dir =
          std::find(std::begin(kNotUsers), std::end(kNotUsers), name) != std::end(kNotUsers);
      if (name.empty() || name[0] == '<' || public_dir) continue;
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
}

void collect_strings(const Json& j, std::vector<std::string>& names) {
  if (j.is_string()) collect_home_users(j.get_ref<const std::string&>(), names);
  if (j.is_structured()) {
    for (const auto& child : j) collect_strings(child, names);
  }
}

class Redactor {
 public:
  explicit Redactor(std::vector<std::string> user_names) : user_names_(std::move(user_names)) {}

  void visit(Json& j, const std::string& key) {
    if (j.is_object()) {
      for (auto& [k, v] : j.items()) visit(v, k);
    } else if (j.is_array()) {
      for (auto& v : j) visit(v, key);
    } else if (j.is_string()) {
      j = redact_string(j.get<std::string>(), key);
    }
  }

  RedactionCounts counts() const {
    return {{"host_name", hosts_.count()},
            {"serial_number", serials_.count()},
            {"user_name", users_.count()},
            {"uuid", uuids_.count()}};
  }

 private:
  std::string redact_string(std::string s, const std::string& key) {
    if (key == "source") return s;  // rule URLs come from gpudoctor's own data
    if (key == "hostname") return "<host" + suffix(hosts_.number_of(s)) + ">";
    if (key == "serial") return "<serial" + std::to_string(serials_.number_of(s)) + ">";
    // The account the process runs as (rocm.account.user) is a bare user name. Other strings
    // equal to a user name stay: on a cloud VM the user "ubuntu" runs Ubuntu (os id "ubuntu").
    if (key == "user" && !s.empty()) return "<user" + std::to_string(users_.number_of(s)) + ">";
    return replace_user_components(replace_uuids(std::move(s), names_uuid(key)));
  }

  /// One host per report: "<host>"; "<host2>" only if a report ever holds two.
  static std::string suffix(int n) { return n == 1 ? "" : std::to_string(n); }

  std::string replace_uuids(std::string s, bool bare_too) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::size_t len = 0;
      if (dashed_uuid_at(s, i))
        len = 36;
      else if (bare_too && bare_uuid_at(s, i))
        len = kUuidHexDigits;
      if (len == 0) continue;
      std::string digits;
      for (std::size_t p = i; p < i + len; ++p) {
        if (is_hex(s[p]))
          digits += static_cast<char>(std::tolower(static_cast<unsigned char>(s[p])));
      }
      const auto n = static_cast<std::uint64_t>(uuids_.number_of(digits));
      const std::string placeholder = std::string(kUuidHexDigits - 16, '0') + hex(n, 16);
      for (std::size_t p = i, d = 0; p < i + len; ++p) {
        if (is_hex(s[p])) s[p] = placeholder[d++];
      }
      i += len - 1;
    }
    return s;
  }

  std::string replace_user_components(const std::string& s) {
    std::string out;
    std::size_t i = 0;
    while (i < s.size()) {
      out += s[i];
      if (s[i] != '/' && s[i] != '\\') {
        ++i;
        continue;
      }
      const std::size_t start = i + 1;
      const std::size_t end = std::min(s.find_first_of(kComponentEnd, start), s.size());
      const std::string part = s.substr(start, end - start);
      const bool user =
          std::find(user_names_.begin(), user_names_.end(), part) != user_names_.end();
      if (user && (after_home_marker(s, i) || !system_dir(part))) {
        out += "<user" + std::to_string(users_.number_of(part)) + ">";
        i = end;
      } else {
        ++i;
      }
    }
    return out;
  }

  std::vector<std::string> user_names_;
  Placeholders hosts_;
  Placeholders serials_;
  Placeholders users_;
  Placeholders uuids_;
};

}  // namespace

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

Redacted redact(Json doc, const std::vector<std::string>& user_names) {
  std::vector<std::string> names = user_names;
  collect_strings(doc, names);
  Redactor r(std::move(names));
  r.visit(doc, "");
  return {std::move(doc), r.counts()};
}

}  // namespace gpudoctor
