#include "report/secret_shapes.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace gpudoctor {

namespace {

bool token_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool base64url(char c) { return token_char(c) || c == '-'; }

/// A token issued with a fixed prefix: the prefix, the characters its body is made of, and the
/// fewest of them that make it one (fewer is a word that merely starts so: "sk-learn").
struct Prefixed {
  std::string_view prefix;
  bool (*body)(char);
  std::size_t min_body;
};

// clang-format off
const Prefixed kPrefixed[] = {
    // GitHub: ghp_ personal, gho_ OAuth, ghu_ user-to-server, ghs_ server-to-server, ghr_
    // refresh; [A-Za-z0-9_], 36 after the prefix today, up to 255 announced.
    // https://github.blog/changelog/2021-03-31-authentication-token-format-updates-are-generally-available/
    // https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/about-authentication-to-github#githubs-token-formats
    {"ghp_", token_char, 30}, {"gho_", token_char, 30}, {"ghu_", token_char, 30},
    {"ghs_", token_char, 30}, {"ghr_", token_char, 30},
    // Fine-grained personal access tokens (the same docs page).
    {"github_pat_", token_char, 22},
    // Hugging Face user access tokens, "hf_…": https://huggingface.co/docs/hub/security-tokens
    {"hf_", alnum, 30},
    // Slack: xoxb- bot, xoxp- user, xoxa-/xoxr- and xoxe- app and refresh, xoxs- legacy, xoxc-
    // web client: https://api.slack.com/authentication/token-types
    {"xoxb-", base64url, 10}, {"xoxp-", base64url, 10}, {"xoxa-", base64url, 10},
    {"xoxr-", base64url, 10}, {"xoxe-", base64url, 10}, {"xoxs-", base64url, 10},
    {"xoxc-", base64url, 10}, {"xoxo-", base64url, 10},
    // OpenAI API keys, "sk-…" and "sk-proj-…", sent as a bearer token
    // (https://platform.openai.com/docs/api-reference/authentication): the prefix is what
    // the keys show, not a published format, so a long body is asked for.
    {"sk-", base64url, 20},
};

/// Query parameters of an AWS presigned URL (Signature Version 4) whose values grant access:
/// https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
constexpr std::string_view kSecretParameters[] = {"x-amz-signature=", "x-amz-credential=",
                                                  "x-amz-security-token="};
// clang-format on

bool starts_with_nocase(std::string_view s, std::size_t at, std::string_view lower_prefix) {
  if (s.size() - at < lower_prefix.size()) return false;
  for (std::size_t i = 0; i < lower_prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[at + i])) != lower_prefix[i]) return false;
  }
  return true;
}

std::size_t run(std::string_view s, std::size_t at, bool (*in)(char)) {
  std::size_t end = at;
  while (end < s.size() && in(s[end])) ++end;
  return end;
}

/// An AWS access key id: AKIA (long-lived) or ASIA (temporary, from STS) and 16 upper-case
/// letters and digits, 20 in all:
/// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids
std::size_t aws_key_end(std::string_view s, std::size_t at) {
  if (s.compare(at, 4, "AKIA") != 0 && s.compare(at, 4, "ASIA") != 0) return 0;
  std::size_t end = at + 4;
  while (end < s.size() && (std::isupper(static_cast<unsigned char>(s[end])) != 0 ||
                            std::isdigit(static_cast<unsigned char>(s[end])) != 0)) {
    ++end;
  }
  return end - at == 20 && (end == s.size() || !token_char(s[end])) ? end : 0;
}

/// A JSON Web Token in compact form: BASE64URL(header).BASE64URL(payload).BASE64URL(signature),
/// the header a JSON object, so "eyJ" ('{"' encoded) first (RFC 7519 §3, RFC 7515 §7.1).
std::size_t jwt_end(std::string_view s, std::size_t at) {
  if (s.compare(at, 3, "eyJ") != 0) return 0;
  std::size_t p = at;
  for (int part = 0; part < 3; ++part) {
    const std::size_t end = run(s, p, base64url);
    if (part < 2 && (end - p < 10 || end >= s.size() || s[end] != '.')) return 0;
    p = part < 2 ? end + 1 : end;
  }
  return p;
}

/// "Bearer TOKEN" of an Authorization header (RFC 6750 §2.1: b64token characters).
std::size_t bearer_token_at(std::string_view s, std::size_t at) {
  if (!starts_with_nocase(s, at, "bearer ")) return 0;
  std::size_t p = at + 7;
  while (p < s.size() && s[p] == ' ') ++p;
  const auto b64token = [](char c) { return alnum(c) || std::strchr("-._~+/=", c) != nullptr; };
  const std::size_t end = run(s, p, b64token);
  return end - p >= 8 ? p : 0;
}

/// Where the user of "user:password@host" written without a scheme (a proxy variable, a
/// pip index) begins, given the '@' at `at`; npos when there is none.
std::size_t credentials_start(std::string_view s, std::size_t at) {
  const auto stop = [](char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0 ||
           std::strchr("\"'<>,;=@/()[]{}", c) != nullptr;
  };
  if (at + 1 >= s.size() || stop(s[at + 1]) || s[at + 1] == ':') return std::string_view::npos;
  // "image:tag@sha256:…" names a container image by its digest.
  if (s.compare(at + 1, 7, "sha256:") == 0 || s.compare(at + 1, 7, "sha512:") == 0) {
    return std::string_view::npos;
  }
  std::size_t start = at;
  while (start > 0 && !stop(s[start - 1])) --start;
  const std::string_view userinfo = s.substr(start, at - start);
  const std::size_t colon = userinfo.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == userinfo.size()) {
    return std::string_view::npos;
  }
  return start;
}

}  // namespace

std::string strip_secret_shapes(std::string_view text, int& removed) {
  std::string out;
  std::size_t copied = 0;
  int here = 0;
  const auto replace = [&](std::size_t from, std::size_t to, std::string_view with) {
    out.append(text.substr(copied, from - copied));
    out += with;
    copied = to;
    ++here;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i < copied) continue;
    const bool boundary = i == 0 || !token_char(text[i - 1]);
    if (boundary) {
      bool found = false;
      for (const auto& p : kPrefixed) {
        if (text.compare(i, p.prefix.size(), p.prefix) != 0) continue;
        const std::size_t body = i + p.prefix.size();
        const std::size_t end = run(text, body, p.body);
        if (end - body < p.min_body) continue;
        replace(body, end, "<secret>");
        found = true;
        break;
      }
      if (!found) {
        if (const std::size_t end = aws_key_end(text, i)) {
          replace(i + 4, end, "<secret>");
          found = true;
        } else if (const std::size_t jwt = jwt_end(text, i)) {
          replace(i, jwt, "<secret>");
          found = true;
        } else if (const std::size_t token = bearer_token_at(text, i)) {
          const std::size_t end = run(
              text, token, [](char c) { return alnum(c) || std::strchr("-._~+/=", c) != nullptr; });
          replace(token, end, "<secret>");
          found = true;
        }
      }
      if (found) {
        i = copied - 1;
        continue;
      }
    }
    for (const auto& name : kSecretParameters) {
      if (!starts_with_nocase(text, i, name)) continue;
      const std::size_t value = i + name.size();
      std::size_t end = value;
      while (end < text.size() && text[end] != '&' && text[end] != '#' && text[end] != '"' &&
             text[end] != '\'' && std::isspace(static_cast<unsigned char>(text[end])) == 0) {
        ++end;
      }
      if (end > value) {
        replace(value, end, "<secret>");
        i = copied - 1;
      }
      break;
    }
    if (i >= copied && text[i] == '@') {
      const std::size_t start = credentials_start(text, i);
      if (start != std::string_view::npos && start >= copied &&
          text.substr(start, i - start).find("<secret>") == std::string_view::npos) {
        replace(start, i, "<credentials>");
      }
    }
  }
  if (here == 0) return std::string(text);
  removed += here;
  out.append(text.substr(copied));
  return out;
}

}  // namespace gpudoctor
