#pragma once
// What a report never holds, not even with --no-redact: credentials written into URLs or
// before a host without a scheme, and secrets known by their shape (secret_shapes.hpp).
// (Variables whose names look like secrets are left out by environment_section.)
#include <string>
#include <string_view>

#include "json.hpp"

namespace gpudoctor {

/// `text` with the user information of every URL in it ("https://user:token@host/…",
/// "postgres://app:pw@db:5432") replaced by "<credentials>"; `removed` counts them. An ssh
/// "git@" user, which is no secret, stays.
std::string strip_url_credentials(std::string_view text, int& removed);

/// What strip_secrets took out: URL credentials, and the rest (token shapes, credentials
/// written without a scheme).
struct SecretsRemoved {
  int url_credentials = 0;
  int secrets = 0;
};

/// strip_url_credentials, then strip_secret_shapes: what no report may hold.
std::string strip_secrets(std::string_view text, SecretsRemoved& removed);

/// strip_secrets on every string of `doc` (member names too).
SecretsRemoved strip_secrets(Json& doc);

}  // namespace gpudoctor
