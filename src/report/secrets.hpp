#pragma once
// What a report never holds, not even with --no-redact: credentials written into URLs.
// (Variables whose names look like secrets are left out by environment_section.)
#include <string>
#include <string_view>

#include "json.hpp"

namespace gpudoctor {

/// `text` with the user information of every URL in it ("https://user:token@host/…",
/// "postgres://app:pw@db:5432") replaced by "<credentials>"; `removed` counts them. An ssh
/// "git@" user, which is no secret, stays.
std::string strip_url_credentials(std::string_view text, int& removed);

/// strip_url_credentials on every string of `doc` (member names too); the number removed.
int strip_url_credentials(Json& doc);

}  // namespace gpudoctor
