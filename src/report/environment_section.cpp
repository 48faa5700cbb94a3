#include "report/environment_section.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "backends.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

// clang-format off
/// Words in a name that mean its value may be a secret, wherever they appear in it.
constexpr std::string_view kSecretWords[] = {
    "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "AUTH", "KEY",
    "PRIVATE", "COOKIE", "SIGNATURE", "JWT", "WEBHOOK", "DSN", "SESSION", "BEARER", "SALT",
    "CONNECTION_STRING"};

/// Short words that mean the same only as a whole part of the name, between '_' or at an end:
/// GITHUB_PAT is a personal access token and MYSQL_PWD a password, PATH and OLDPWD are not.
constexpr std::string_view kSecretParts[] = {"PASS", "PWD", "PW", "PAT"};

/// Names holding such a word that are known not to be secrets: PWD is the working directory
/// (a path, redacted as paths are), the XDG session variables say which display server runs.
constexpr std::string_view kNotSecrets[] = {"PWD", "XDG_SESSION_TYPE", "XDG_SESSION_DESKTOP",
                                            "XDG_SESSION_CLASS", "XDG_SESSION_ID"};
// clang-format on

/// A part that ends in PASS is a password for the tool it names: sshpass -e reads SSHPASS
/// (https://linux.die.net/man/1/sshpass), and scripts name PostgreSQL's and Samba's PGPASS and
/// SMBPASS alike; BYPASS and COMPASS are words, not passwords.
bool password_part(std::string_view part) {
  return part.size() > 4 && part.substr(part.size() - 4) == "PASS" && part != "BYPASS" &&
         part != "COMPASS";
}

std::string upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

}  // namespace

bool gpu_relevant_variable(std::string_view name) { return backend_variable(name); }

bool secret_variable(std::string_view name) {
  const std::string n = upper(name);
  if (std::find(std::begin(kNotSecrets), std::end(kNotSecrets), n) != std::end(kNotSecrets)) {
    return false;
  }
  if (std::any_of(std::begin(kSecretWords), std::end(kSecretWords),
                  [&n](std::string_view w) { return n.find(w) != std::string::npos; })) {
    return true;
  }
  const auto parts = split_words(n, "_");
  return std::any_of(parts.begin(), parts.end(), [](const std::string& part) {
    return std::find(std::begin(kSecretParts), std::end(kSecretParts), part) !=
               std::end(kSecretParts) ||
           password_part(part);
  });
}

EnvironmentSection environment_section(const Environment& env, bool keep_all) {
  EnvironmentSection out;
  for (const auto& [name, value] : env.vars()) {
    if (secret_variable(name)) {
      ++out.secrets_dropped;
    } else if (keep_all || gpu_relevant_variable(name)) {
      out.variables[name] = value;
    } else {
      ++out.left_out;
    }
  }
  return out;
}

}  // namespace gpudoctor
