#include "fleet/report_scan.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>

#include "diagnose.hpp"
#include "fleet/utf8.hpp"
#include "snapshot_io.hpp"

namespace gpudoctor {

namespace {

constexpr int kMaxDepth = 512;

/// One pass over the bytes of a JSON value: validates and, at the top level, remembers the
/// "kind", "brief" and "snapshot" members. No allocation; the reason, when it fails, is the
/// only string made.
class Scanner {
 public:
  explicit Scanner(std::string_view text)
      : begin_(reinterpret_cast<const unsigned char*>(text.data())),
        p_(begin_),
        end_(begin_ + text.size()) {}

  std::variant<TopLevel, std::string> top() {
    TopLevel t;
    blanks();
    if (p_ < end_ && *p_ == '{') {
      t.is_object = true;
      if (!top_object(t)) return error_;
    } else if (!value(0)) {
      return error_;
    }
    t.end = static_cast<std::size_t>(p_ - begin_);
    return t;
  }

 private:
  bool fail(const char* what) {
    error_ = std::string(what) + " at byte " + std::to_string(p_ - begin_);
    return false;
  }

  void blanks() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool expect(unsigned char c, const char* what) {
    blanks();
    if (p_ >= end_ || *p_ != c) return fail(p_ >= end_ ? "unexpected end" : what);
    ++p_;
    return true;
  }

  /// Past the bytes that need no look: anything but '"', '\\', control characters and bytes of
  /// 0x80 and up. Sixteen at a time where SSE2 is there (every x86-64).
  void plain_run() {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    while (end_ - p_ >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p_));
      // Signed compare: bytes of 0x80 and up are negative, so "< 0x20" catches them too.
      const __m128i special =
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                       _mm_cmplt_epi8(v, space));
      const int mask = _mm_movemask_epi8(special);
      if (mask != 0) {
        p_ += __builtin_ctz(static_cast<unsigned>(mask));
        return;
      }
      p_ += 16;
    }
#endif
    while (p_ < end_ && *p_ >= 0x20 && *p_ < 0x80 && *p_ != '"' && *p_ != '\\') ++p_;
  }

  static bool hex(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  /// A string; p_ at its opening quote. `raw` gets the bytes between the quotes.
  bool string(std::string_view* raw = nullptr) {
    const unsigned char* start = ++p_;
    for (;;) {
      plain_run();
      if (p_ >= end_) return fail("unterminated string");
      const unsigned char c = *p_;
      if (c == '"') break;
      if (c == '\\') {
        if (end_ - p_ < 2) return fail("unterminated string");
        const unsigned char e = p_[1];
        if (e == 'u') {
          if (end_ - p_ < 6 || !hex(p_[2]) || !hex(p_[3]) || !hex(p_[4]) || !hex(p_[5])) {
            return fail("bad \\u escape");
          }
          p_ += 6;
        } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' ||
                   e == 'r' || e == 't') {
          p_ += 2;
        } else {
          return fail("bad escape");
        }
      } else if (c < 0x20) {
        return fail("control character in a string");
      } else {
        const std::size_t n = utf8_sequence(p_, end_);
        if (n == 0) return fail("invalid UTF-8");
        p_ += n;
      }
    }
    if (raw) *raw = std::string_view(reinterpret_cast<const char*>(start), p_ - start);
    ++p_;
    return true;
  }

  static bool digit(unsigned char c) { return c >= '0' && c <= '9'; }

  bool number() {
    if (p_ < end_ && *p_ == '-') ++p_;
    if (p_ >= end_ || !digit(*p_)) return fail("bad number");
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ < end_ && digit(*p_)) ++p_;
    }
    if (p_ < end_ && *p_ == '.') {
      ++p_;
      if (p_ >= end_ || !digit(*p_)) return fail("bad number");
      while (p_ < end_ && digit(*p_)) ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ >= end_ || !digit(*p_)) return fail("bad number");
      while (p_ < end_ && digit(*p_)) ++p_;
    }
    return true;
  }

  bool word(std::string_view w) {
    const std::size_t left = static_cast<std::size_t>(end_ - p_);
    const std::string_view here(reinterpret_cast<const char*>(p_), std::min(left, w.size()));
    if (here != w)
      return fail(left < w.size() && w.substr(0, left) == here ? "unexpected end"
                                                               : "not a JSON value");
    p_ += w.size();
    return true;
  }

  bool value(int depth) {
    blanks();
    if (p_ >= end_) return fail("unexpected end");
    switch (*p_) {
      case '"':
        return string();
      case '{':
        return members(depth + 1, nullptr);
      case '[':
        return elements(depth + 1);
      case 't':
        return word("true");
      case 'f':
        return word("false");
      case 'n':
        return word("null");
      default:
        return number();
    }
  }

  /// At the start of an array or object: past its opening bracket; true (and past `close`)
  /// when it is empty.
  bool opened_empty(unsigned char close) {
    ++p_;
    blanks();
    if (p_ < end_ && *p_ == close) {
      ++p_;
      return true;
    }
    return false;
  }

  /// After an element or member: false with `done` set past `close`, true past a ',', or a
  /// failure.
  bool more(unsigned char close, const char* expected, bool& done) {
    blanks();
    if (p_ >= end_) return fail("unexpected end");
    done = *p_ == close;
    if (!done && *p_ != ',') return fail(expected);
    ++p_;
    return !done;
  }

  bool elements(int depth) {
    if (depth > kMaxDepth) return fail("nested too deep");
    if (opened_empty(']')) return true;
    bool done = false;
    do {
      if (!value(depth)) return false;
    } while (more(']', "expected ',' or ']'", done));
    return done;
  }

  /// An object's members; at the top level (`t` set) the members summary looks for are noted.
  bool members(int depth, TopLevel* t) {
    if (depth > kMaxDepth) return fail("nested too deep");
    if (opened_empty('}')) return true;
    bool done = false;
    do {
      blanks();
      if (p_ >= end_ || *p_ != '"') return fail(p_ >= end_ ? "unexpected end" : "expected a key");
      std::string_view key;
      if (!string(&key) || !expect(':', "expected ':'")) return false;
      blanks();
      const unsigned char* start = p_;
      if (t && key == "kind" && p_ < end_ && *p_ == '"') {
        if (!string(&t->kind)) return false;
      } else if (!value(depth)) {
        return false;
      }
      if (t && key == "brief") {
        t->brief = std::string_view(reinterpret_cast<const char*>(start), p_ - start);
      }
      if (t && key == "snapshot") t->has_snapshot = true;
    } while (more('}', "expected ',' or '}'", done));
    return done;
  }

  bool top_object(TopLevel& t) { return members(1, &t); }

  const unsigned char* begin_;
  const unsigned char* p_;
  const unsigned char* end_;
  std::string error_;
};

/// A report without a brief record (written before there was one, or `check --json`): the
/// record made from its snapshot and findings, as `report` would have made it.
std::variant<Brief, std::string> brief_from_snapshot(std::string_view text) {
  auto loaded = snapshot_from_json_text(text);
  if (auto* why = std::get_if<std::string>(&loaded)) return *why;
  const Json doc = Json::parse(text, nullptr, false);
  std::optional<Diagnosis> d;
  if (doc.contains("findings") && doc["findings"].is_array()) {
    try {
      d = diagnose_recorded(std::move(std::get<Snapshot>(loaded)),
                            doc["findings"].get<std::vector<Finding>>());
    } catch (const std::exception& e) {
      return std::string("findings: ") + e.what();
    }
  } else {
    d = diagnose(std::move(std::get<Snapshot>(loaded)));
  }
  auto text_of = [&doc](const char* key) {
    return doc.contains(key) && doc[key].is_string() ? doc[key].get<std::string>() : "";
  };
  return make_brief(facts::describe(d->snap, d->devices), d->findings, "",
                    text_of("generated_at"), d->snap.tool_version);
}

}  // namespace

std::variant<TopLevel, std::string> scan_json(std::string_view text) { return Scanner(text).top(); }

Documents split_documents(std::string_view stream) {
  Documents out;
  std::size_t at = 0;
  for (;;) {
    while (at < stream.size() &&
           (stream[at] == ' ' || stream[at] == '\n' || stream[at] == '\r' || stream[at] == '\t')) {
      ++at;
    }
    if (at >= stream.size()) return out;
    auto scanned = scan_json(stream.substr(at));
    if (auto* why = std::get_if<std::string>(&scanned)) {
      out.error = "document " + std::to_string(out.texts.size() + 1) + ": " + *why;
      return out;
    }
    const std::size_t end = std::get<TopLevel>(scanned).end;
    out.texts.push_back(stream.substr(at, end));
    at += end;
  }
}

std::variant<Brief, std::string> read_brief(std::string_view text) {
  auto scanned = scan_json(text);
  if (auto* why = std::get_if<std::string>(&scanned)) return "not JSON: " + *why;
  const TopLevel& t = std::get<TopLevel>(scanned);
  std::size_t rest = t.end;
  while (rest < text.size() &&
         (text[rest] == ' ' || text[rest] == '\n' || text[rest] == '\r' || text[rest] == '\t')) {
    ++rest;
  }
  if (rest != text.size())
    return "not JSON: text after the document at byte " + std::to_string(rest);
  if (!t.is_object) return "not a gpudoctor report (not a JSON object)";
  std::string_view brief = t.brief;
  if (brief.empty() && t.kind == kBriefKind) brief = text;
  if (brief.empty()) {
    if (!t.has_snapshot) return "not a gpudoctor report (no brief record, no snapshot)";
    return brief_from_snapshot(text);
  }
  const Json j = Json::parse(brief, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return "brief: not JSON";
  if (j.contains("schema_version") && j["schema_version"].is_number_integer() &&
      j["schema_version"].get<long long>() > kSchemaVersion) {
    return "written by a newer gpudoctor (schema " +
           std::to_string(j["schema_version"].get<long long>()) + ")";
  }
  return brief_from_json(j);
}

}  // namespace gpudoctor
