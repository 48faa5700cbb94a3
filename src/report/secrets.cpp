#include "report/secrets.hpp"

#include <cctype>
#include <vector>

#include "report/secret_shapes.hpp"

namespace gpudoctor {

namespace {

bool scheme_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
}

/// Where the authority after "://" at `at` ends: at a path, query or fragment, at white
/// space or a quote, or at a separator that lists several values (PIP_EXTRA_INDEX_URL).
std::size_t authority_end(std::string_view s, std::size_t from) {
  std::size_t i = from;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '/' || c == '?' || c == '#' || c == ',' || c == ';' || c == '"' || c == '\'' ||
        std::isspace(static_cast<unsigned char>(c)) != 0) {
      break;
    }
    ++i;
  }
  return i;
}

}  // namespace

std::string strip_url_credentials(std::string_view text, int& removed) {
  std::string out;
  std::size_t copied = 0;
  for (std::size_t sep = text.find("://"); sep != std::string_view::npos;
       sep = text.find("://", sep + 3)) {
    // A scheme (RFC 3986: a letter, then letters, digits, + - .) must come right before.
    std::size_t start = sep;
    while (start > 0 && scheme_char(text[start - 1])) --start;
    if (start == sep || std::isalpha(static_cast<unsigned char>(text[start])) == 0) continue;
    const std::size_t host = sep + 3;
    const std::size_t end = authority_end(text, host);
    const std::size_t at = text.substr(host, end - host).rfind('@');
    if (at == std::string_view::npos) continue;
    const std::string_view userinfo = text.substr(host, at);
    if (userinfo.empty() || userinfo == "git" || userinfo == "<credentials>") continue;
    out.append(text.substr(copied, host - copied));
    out += "<credentials>";
    copied = host + at;
    ++removed;
  }
  if (copied == 0) return std::string(text);
  out.append(text.substr(copied));
  return out;
}

std::string strip_secrets(std::string_view text, SecretsRemoved& removed) {
  const std::string clean = text.find("://") != std::string_view::npos
                                ? strip_url_credentials(text, removed.url_credentials)
                                : std::string(text);
  return strip_secret_shapes(clean, removed.secrets);
}

SecretsRemoved strip_secrets(Json& doc) {
  SecretsRemoved removed;
  // An explicit stack rather than recursion; the document is gpudoctor's own, but cheap.
  std::vector<Json*> todo{&doc};
  while (!todo.empty()) {
    Json* j = todo.back();
    todo.pop_back();
    if (j->is_string()) {
      SecretsRemoved here;
      std::string clean = strip_secrets(j->get_ref<const std::string&>(), here);
      if (here.url_credentials + here.secrets > 0) *j = std::move(clean);
      removed.url_credentials += here.url_credentials;
      removed.secrets += here.secrets;
    } else if (j->is_array()) {
      for (auto& v : *j) todo.push_back(&v);
    } else if (j->is_object()) {
      // Names first (a name may hold a URL under --no-redact), then the values they now hold.
      std::vector<std::string> renamed;
      for (auto it = j->begin(); it != j->end(); ++it) {
        SecretsRemoved probe;
        if (strip_secrets(it.key(), probe) != it.key()) renamed.push_back(it.key());
      }
      for (const auto& key : renamed) {
        const std::string clean = strip_secrets(key, removed);
        Json value = std::move((*j)[key]);
        j->erase(key);
        (*j)[clean] = std::move(value);
      }
      for (auto& v : *j) todo.push_back(&v);
    }
  }
  return removed;
}

}  // namespace gpudoctor
