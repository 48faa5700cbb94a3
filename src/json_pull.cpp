#include "json_pull.hpp"

namespace gpudoctor {

namespace {

constexpr std::size_t kChunk = 256 * 1024;
/// No number gpudoctor writes is longer; a megabyte of digits is an attack on the buffer.
constexpr std::size_t kMaxNumberLength = 512;
constexpr std::uint8_t kSkipObject = 1;
constexpr std::uint8_t kSkipFirst = 2;

bool is_digit(int c) { return c >= '0' && c <= '9'; }

void append_utf8(std::string* out, unsigned cp) {
  if (out == nullptr) return;
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

const char* json_kind_text(JsonKind kind) {
  switch (kind) {
    case JsonKind::object: return "an object";
    case JsonKind::array: return "an array";
    case JsonKind::string: return "a string";
    case JsonKind::number: return "a number";
    case JsonKind::boolean: return "true or false";
    case JsonKind::null: return "null";
  }
  return "?";
}

JsonPull::JsonPull(std::string_view text, JsonLimits limits)
    : limits_(limits), base_(text.data()), p_(text.data()), end_(text.data() + text.size()) {
  if (text.size() > limits_.max_bytes) throw JsonSyntaxError("larger than " + mib(limits_.max_bytes));
}

JsonPull::JsonPull(Refill refill, JsonLimits limits)
    : refill_(std::move(refill)), limits_(limits), buffer_(new char[kChunk]) {
  base_ = p_ = end_ = buffer_.get();
}

void JsonPull::fail(const std::string& why) const {
  throw JsonSyntaxError("not JSON: " + why + " at byte " + std::to_string(offset()));
}

bool JsonPull::fill() {
  if (!refill_) return false;
  consumed_ += static_cast<std::uint64_t>(end_ - base_);
  const std::size_t n = refill_(buffer_.get(), kChunk);
  base_ = p_ = buffer_.get();
  end_ = base_ + n;
  read_total_ += n;
  if (read_total_ > limits_.max_bytes) throw JsonSyntaxError("larger than " + mib(limits_.max_bytes));
  return n > 0;
}

int JsonPull::peek_byte() {
  if (p_ == end_ && !fill()) return -1;
  return static_cast<unsigned char>(*p_);
}

int JsonPull::next_byte() {
  if (p_ == end_ && !fill()) return -1;
  return static_cast<unsigned char>(*p_++);
}

void JsonPull::skip_whitespace() {
  for (;;) {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    if (p_ < end_ || !fill()) return;
  }
}

void JsonPull::expect(char c, const char* what) {
  if (p_ < end_ && *p_ == c) {  // the usual case: no white space before ':' or ','
    ++p_;
    return;
  }
  skip_whitespace();
  if (peek_byte() != static_cast<unsigned char>(c)) {
    fail(peek_byte() < 0 ? std::string("the text ends where ") + what + " belongs"
                         : std::string("expected ") + what);
  }
  ++p_;
}

JsonKind JsonPull::peek() {
  skip_whitespace();
  const int c = peek_byte();
  switch (c) {
    case '{': return JsonKind::object;
    case '[': return JsonKind::array;
    case '"': return JsonKind::string;
    case 't':
    case 'f': return JsonKind::boolean;
    case 'n': return JsonKind::null;
    default: break;
  }
  if (c == '-' || is_digit(c)) return JsonKind::number;
  fail(c < 0 ? "the text ends where a value belongs" : "expected a value");
}

void JsonPull::enter() {
  if (++depth_ > limits_.max_depth) {
    throw JsonSyntaxError("nested deeper than " + std::to_string(limits_.max_depth) +
                          " levels at byte " + std::to_string(offset()));
  }
}

void JsonPull::begin_object() {
  expect('{', "an object");
  enter();
}

void JsonPull::begin_array() {
  expect('[', "an array");
  enter();
}

bool JsonPull::next_in(char close, bool& first) {
  skip_whitespace();
  if (peek_byte() == static_cast<unsigned char>(close)) {
    ++p_;
    --depth_;
    return false;
  }
  if (!first) expect(',', close == '}' ? "',' or '}'" : "',' or ']'");
  first = false;
  return true;
}

bool JsonPull::next_key(bool& first) {
  if (!next_in('}', first)) return false;
  expect('"', "a member name");
  key_.clear();
  string_body(&key_);
  expect(':', "':'");
  return true;
}

bool JsonPull::next_element(bool& first) { return next_in(']', first); }

const std::string& JsonPull::read_string() {
  expect('"', "a string");
  string_.clear();
  string_body(&string_);
  return string_;
}

void JsonPull::string_body(std::string* out) {
  for (;;) {
    const char* start = p_;
    while (p_ < end_) {
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
      ++p_;
    }
    if (out != nullptr) out->append(start, p_);
    if (p_ == end_) {
      if (!fill()) fail("the text ends inside a string");
      continue;
    }
    const auto c = static_cast<unsigned char>(*p_);
    if (c == '"') {
      ++p_;
      return;
    }
    if (c == '\\') {
      ++p_;
      escape(out);
    } else if (c < 0x20) {
      fail("a control character inside a string");
    } else {
      utf8_sequence(out);
    }
  }
}

unsigned JsonPull::hex4() {
  unsigned v = 0;
  for (int i = 0; i < 4; ++i) {
    const int c = next_byte();
    v <<= 4;
    if (is_digit(c)) {
      v |= static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v |= static_cast<unsigned>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      v |= static_cast<unsigned>(c - 'A' + 10);
    } else {
      fail("a \\u escape without four hex digits");
    }
  }
  return v;
}

void JsonPull::escape(std::string* out) {
  const int c = next_byte();
  char plain = 0;
  switch (c) {
    case '"': plain = '"'; break;
    case '\\': plain = '\\'; break;
    case '/': plain = '/'; break;
    case 'b': plain = '\b'; break;
    case 'f': plain = '\f'; break;
    case 'n': plain = '\n'; break;
    case 'r': plain = '\r'; break;
    case 't': plain = '\t'; break;
    case 'u': break;
    default: fail("an unknown escape in a string");
  }
  if (plain != 0) {
    if (out != nullptr) out->push_back(plain);
    return;
  }
  unsigned cp = hex4();
  if (cp >= 0xDC00 && cp <= 0xDFFF) fail("a lone low surrogate in a \\u escape");
  if (cp >= 0xD800 && cp <= 0xDBFF) {
    // UTF-8 cannot hold half a pair; a lone high surrogate is refused as nlohmann refuses it.
    if (next_byte() != '\\' || next_byte() != 'u') fail("a lone high surrogate in a \\u escape");
    const unsigned low = hex4();
    if (low < 0xDC00 || low > 0xDFFF) fail("a lone high surrogate in a \\u escape");
    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
  }
  append_utf8(out, cp);
}

void JsonPull::utf8_sequence(std::string* out) {
  // RFC 3629: the first byte says how many continuation bytes follow and bounds the second,
  // which rules out overlong forms, surrogates and code points past U+10FFFF. A byte that
  // breaks the form (a Latin-1 name a driver gave, a report edited by hand) reads as U+FFFD,
  // as a browser or Python's errors="replace" reads it: one bad byte in a device name does not
  // make a whole report unreadable (issue 29: invalid UTF-8 in every string field). The byte
  // that broke a sequence is read again as the start of the next one.
  static constexpr char kReplacement[] = "\xEF\xBF\xBD";
  const int lead = next_byte();
  int more = 0;
  int lo = 0x80;
  int hi = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    more = 1;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    more = 2;
    if (lead == 0xE0) lo = 0xA0;
    if (lead == 0xED) hi = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    more = 3;
    if (lead == 0xF0) lo = 0x90;
    if (lead == 0xF4) hi = 0x8F;
  } else {
    if (out != nullptr) out->append(kReplacement, 3);
    return;
  }
  char bytes[4] = {static_cast<char>(lead)};
  for (int i = 1; i <= more; ++i) {
    const int c = peek_byte();
    if (c < lo || c > hi) {
      if (out != nullptr) out->append(kReplacement, 3);
      return;
    }
    next_byte();
    bytes[i] = static_cast<char>(c);
    lo = 0x80;
    hi = 0xBF;
  }
  if (out != nullptr) out->append(bytes, static_cast<std::size_t>(more + 1));
}

JsonNumber JsonPull::read_number() {
  skip_whitespace();
  number_.clear();
  bool integer = true;
  auto take = [this]() {
    if (number_.size() >= kMaxNumberLength) fail("a number too long to be one");
    number_.push_back(static_cast<char>(next_byte()));
  };
  auto digits = [&]() {
    if (!is_digit(peek_byte())) fail("a number without digits where they belong");
    while (is_digit(peek_byte())) take();
  };
  if (peek_byte() == '-') take();
  if (peek_byte() == '0') {
    take();
  } else {
    digits();
  }
  if (peek_byte() == '.') {
    integer = false;
    take();
    digits();
  }
  if (peek_byte() == 'e' || peek_byte() == 'E') {
    integer = false;
    take();
    if (peek_byte() == '+' || peek_byte() == '-') take();
    digits();
  }
  return {number_, integer};
}

void JsonPull::literal(const char* word) {
  for (const char* w = word; *w != '\0'; ++w) {
    if (next_byte() != static_cast<unsigned char>(*w)) fail(std::string("expected ") + word);
  }
}

bool JsonPull::read_bool() {
  skip_whitespace();
  if (peek_byte() == 't') {
    literal("true");
    return true;
  }
  literal("false");
  return false;
}

void JsonPull::read_null() {
  skip_whitespace();
  literal("null");
}

void JsonPull::skip_value() {
  // A stack of the containers being skipped, one byte each, instead of recursion.
  skip_stack_.clear();
  for (;;) {
    switch (peek()) {
      case JsonKind::object:
        begin_object();
        skip_stack_.push_back(kSkipObject | kSkipFirst);
        break;
      case JsonKind::array:
        begin_array();
        skip_stack_.push_back(kSkipFirst);
        break;
      case JsonKind::string:
        ++p_;
        string_body(nullptr);
        break;
      case JsonKind::number: read_number(); break;
      case JsonKind::boolean: read_bool(); break;
      case JsonKind::null: read_null(); break;
    }
    for (;;) {
      if (skip_stack_.empty()) return;
      std::uint8_t& top = skip_stack_.back();
      bool first = (top & kSkipFirst) != 0;
      const bool more = (top & kSkipObject) != 0 ? next_key(first) : next_element(first);
      top = static_cast<std::uint8_t>((top & kSkipObject) | (first ? kSkipFirst : 0));
      if (more) break;
      skip_stack_.pop_back();
    }
  }
}

void JsonPull::finish() {
  skip_whitespace();
  if (peek_byte() >= 0) fail("more text after the document");
}

}  // namespace gpudoctor
