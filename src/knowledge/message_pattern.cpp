// A pattern of data/messages compiled for std::regex (ECMAScript, which has no named groups),
// the literal every match contains (so that most lines are passed over with one find), and the
// matching of one line, or of a line wrapped onto the next.
#include <cctype>

#include "knowledge/message_pattern.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

bool is_meta(char c) {
  return c == '.' || c == '^' || c == '$' || c == '|' || c == '(' || c == ')' || c == '[' ||
         c == ']' || c == '*' || c == '+' || c == '?' || c == '{' || c == '}' || c == '\\';
}

/// Index just past the character class opening at `i` ('[').
std::size_t skip_class(std::string_view p, std::size_t i) {
  ++i;
  if (i < p.size() && p[i] == '^') ++i;
  if (i < p.size() && p[i] == ']') ++i;
  while (i < p.size() && p[i] != ']') i += p[i] == '\\' ? 2 : 1;
  return i + 1;
}

/// Index just past the group opening at `i` ('(').
std::size_t skip_group(std::string_view p, std::size_t i) {
  int depth = 0;
  while (i < p.size()) {
    const char c = p[i];
    if (c == '\\') {
      i += 2;
      continue;
    }
    if (c == '[') {
      i = skip_class(p, i);
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')' && --depth == 0) return i + 1;
    ++i;
  }
  return i;
}

}  // namespace

std::optional<std::string> rewrite_named_groups(std::string_view p, std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '\\') {
      if (i + 1 >= p.size()) return std::nullopt;
      out += c;
      out += p[++i];
      continue;
    }
    if (c == '[') {
      const std::size_t end = skip_class(p, i);
      if (end > p.size()) return std::nullopt;
      out += p.substr(i, end - i);
      i = end - 1;
      continue;
    }
    if (c == '(' && i + 2 < p.size() && p[i + 1] == '?' && p[i + 2] == '<' && i + 3 < p.size() &&
        p[i + 3] != '=' && p[i + 3] != '!') {
      const auto close = p.find('>', i + 3);
      if (close == std::string_view::npos) return std::nullopt;
      const std::string name(p.substr(i + 3, close - i - 3));
      if (name.empty()) return std::nullopt;
      for (char n : name) {
        if (std::isalnum(static_cast<unsigned char>(n)) == 0 && n != '_') return std::nullopt;
      }
      names.push_back(name);
      out += '(';
      i = close;
      continue;
    }
    if (c == '(' && !(i + 1 < p.size() && p[i + 1] == '?')) names.emplace_back();
    out += c;
  }
  return out;
}

std::string required_literal(std::string_view p) {
  std::string best;
  std::string run;
  auto close_run = [&] {
    if (run.size() > best.size()) best = run;
    run.clear();
  };
  for (std::size_t i = 0; i < p.size();) {
    const char c = p[i];
    if (c == '|') return "";  // an alternative at the top: no text is in every match
    if (c == '\\' && i + 1 < p.size()) {
      const char e = p[i + 1];
      if (std::isalnum(static_cast<unsigned char>(e)) != 0) {
        close_run();  // \d, \s, \b, …
      } else {
        run += e;
      }
      i += 2;
      continue;
    }
    if (c == '*' || c == '?' || c == '{') {
      if (!run.empty()) run.pop_back();  // the quantified character may be absent
      close_run();
      if (c == '{') {
        const auto end = p.find('}', i);
        i = end == std::string_view::npos ? p.size() : end + 1;
      } else {
        ++i;
      }
      continue;
    }
    if (c == '(' || c == '[') {
      close_run();
      const std::size_t end = c == '(' ? skip_group(p, i) : skip_class(p, i);
      // A group that must match once ("(?<code>cudaError[A-Z]…)", not "(…)?" or a lookaround)
      // holds a literal of its own: the longest one inside it, when it has no alternative.
      const bool optional = end < p.size() && (p[end] == '?' || p[end] == '*' || p[end] == '{');
      if (c == '(' && !optional && end <= p.size() && end >= i + 2) {
        std::size_t body = i + 1;
        bool lookaround = false;
        if (body < p.size() && p[body] == '?') {
          if (body + 1 < p.size() && p[body + 1] == ':') {
            body += 2;
          } else if (body + 1 < p.size() && p[body + 1] == '<' && body + 2 < p.size() &&
                     p[body + 2] != '=' && p[body + 2] != '!') {
            const auto close = p.find('>', body);
            body = close == std::string_view::npos ? end : close + 1;
          } else {
            lookaround = true;  // (?=…), (?!…), (?<=…), (?<!…): matches no text
          }
        }
        if (!lookaround && body < end - 1) {
          std::string inner = required_literal(p.substr(body, end - 1 - body));
          if (inner.size() > best.size()) best = std::move(inner);
        }
      }
      i = end;
      // A group or class that may be absent does not break the runs around it any further.
      continue;
    }
    if (is_meta(c)) {
      close_run();
      ++i;
      continue;
    }
    run += c;
    ++i;
  }
  close_run();
  return best;
}

namespace {

std::string value_of(const std::ssub_match& m, CaptureKind kind) {
  if (!m.matched) return "";
  const std::string s(trim(m.str()));
  return kind == CaptureKind::kVersion ? leading_number(s) : s;
}

}  // namespace

std::string leading_number(std::string_view s) {
  s = trim(s);
  std::size_t i = 0;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) != 0 || s[i] == '.')) ++i;
  std::string out(s.substr(0, i));
  while (!out.empty() && out.back() == '.') out.pop_back();
  return out;
}

MatchSubject::MatchSubject(std::string_view line, std::string_view next_line)
    : one(line), next(next_line) {
  if (!next.empty()) {
    space = one + " " + next;
    tight = one + next;
  }
  one_l = to_lower(one);
  next_l = to_lower(next);
  space_l = to_lower(space);
  tight_l = to_lower(tight);
}

namespace {

bool has(const std::string& text, const std::string& lowered, const CompiledPattern& cp, bool icase) {
  return (icase ? lowered : text).find(cp.literal) != std::string::npos;
}

}  // namespace

std::optional<MessageMatch> match_entry(const MessageEntry& e, const MatchSubject& s) {
  for (const auto& cp : e.compiled) {
    std::smatch m;
    bool hit = has(s.one, s.one_l, cp, e.icase) && std::regex_search(s.one, m, cp.re);
    std::size_t used = 1;
    // Wrapped by a terminal (the break falls anywhere, a space lost or not): the match must
    // start on this line and run past its end, and the next line must not hold the message by
    // itself (then it is a message of its own, and this line only shares a word with it).
    for (int glue = 0; !hit && glue < 2 && !s.next.empty(); ++glue) {
      const std::string& j = glue == 0 ? s.space : s.tight;
      if (!has(j, glue == 0 ? s.space_l : s.tight_l, cp, e.icase)) continue;
      if (has(s.next, s.next_l, cp, e.icase) && std::regex_search(s.next, cp.re)) break;
      if (std::regex_search(j, m, cp.re) && static_cast<std::size_t>(m.position(0)) < s.one.size() &&
          static_cast<std::size_t>(m.position(0) + m.length(0)) > s.one.size()) {
        hit = true;
        used = 2;
      }
    }
    if (!hit) continue;
    MessageMatch out;
    out.entry = &e;
    out.lines = used;
    for (const auto& [name, kind] : e.captures) out.values[name] = "";
    for (std::size_t g = 0; g < cp.group_names.size(); ++g) {
      const std::string& name = cp.group_names[g];
      if (name.empty()) continue;
      const auto kind = e.captures.count(name) != 0 ? e.captures.at(name) : CaptureKind::kText;
      const std::string v = value_of(m[g + 1], kind);
      if (!v.empty() || out.values[name].empty()) out.values[name] = v;
    }
    return out;
  }
  return std::nullopt;
}

std::optional<MessageMatch> match_message(const MessageTable& table, std::string_view format,
                                          std::string_view line, std::string_view next) {
  const MatchSubject subject(line, next);
  // Specific entries first, then the fallbacks (generic wordings such as "CUDA error 803").
  for (const bool fallback : {false, true}) {
    for (const auto& e : table.entries) {
      if (e.format != format || e.compiled.empty() || e.fallback != fallback) continue;
      auto m = match_entry(e, subject);
      // An error-code entry whose capture names no known code (a number no table lists) is
      // not this message.
      if (m && e.error_code && !code_of_match(table, e, m->values)) continue;
      if (m) return m;
    }
  }
  return std::nullopt;
}

const ErrorCode* code_of_match(const MessageTable& table, const MessageEntry& entry,
                               const std::map<std::string, std::string>& values) {
  if (!entry.error_code) return nullptr;
  const auto it = values.find(entry.error_code->capture);
  if (it == values.end() || it->second.empty()) return nullptr;
  const std::string& v = it->second;
  auto number = parse_int(v);
  // A negative code printed as an unsigned 32-bit number ("Failed to create Vulkan instance
  // 4294967287" is VkResult -9): read back as the signed value it was.
  if (number && *number > 2147483647LL && *number <= 4294967295LL) *number -= 4294967296LL;
  for (const auto& api : entry.error_code->apis) {
    const ErrorCode* c = number ? error_code(table, api, *number) : error_code_named(table, api, v);
    if (c) return c;
  }
  return nullptr;
}

bool add_code_values(const MessageTable& table, const MessageEntry& entry,
                     std::map<std::string, std::string>& values) {
  const ErrorCode* code = code_of_match(table, entry, values);
  if (code == nullptr) return false;
  values["code_name"] = code->name;
  values["code_number"] = std::to_string(code->code);
  values["meaning"] = code->meaning;
  values["cause"] = code->cause.value_or("no usual cause is documented for this code");
  values["code_api"] = code->api;
  if (code->finding) {
    values["code_finding"] = *code->finding;
    values["code_severity"] = code->severity.value_or("");
  }
  return true;
}

std::string normalise_message_line(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size(); ++i) {
    // ESC [ parameters final-byte: a colour or cursor code a terminal log keeps.
    if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
      std::size_t k = i + 2;
      while (k < line.size() && (line[k] < '@' || line[k] > '~')) ++k;
      i = k;
      continue;
    }
    out += line[i] == '\r' ? ' ' : line[i];
  }
  return std::string(trim(out));
}

std::string fill_template(std::string_view text, const std::map<std::string, std::string>& values) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') {
      const auto close = text.find('}', i);
      if (close != std::string_view::npos) {
        auto it = values.find(std::string(text.substr(i + 1, close - i - 1)));
        if (it != values.end()) {
          out += it->second;
          i = close;
          continue;
        }
      }
    }
    out += text[i];
  }
  return out;
}

}  // namespace gpudoctor
