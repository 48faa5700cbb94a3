#include "json_writer.hpp"

#include <charconv>
#include <cmath>

namespace gpudoctor {

namespace {

/// Bytes nlohmann writes as they are and escape_hidden_in_json leaves alone.
bool plain_byte(unsigned char c) { return c >= 0x20 && c < 0x7F && c != '"' && c != '\\'; }

}  // namespace

JsonWriter::JsonWriter(Sink sink, int indent)
    : sink_(std::move(sink)), indent_(indent), discard_(!sink_) {
  buf_.reserve(kFlushBytes + 4096);
}

JsonWriter::~JsonWriter() = default;

void JsonWriter::newline_indent(std::size_t depth) {
  buf_ += '\n';
  buf_.append(depth * static_cast<std::size_t>(indent_), ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (levels_.empty()) return;
  Level& level = levels_.back();
  if (!level.empty) buf_ += ',';
  level.empty = false;
  if (indent_ >= 0) newline_indent(levels_.size());
}

void JsonWriter::begin(bool object) {
  before_value();
  buf_ += object ? '{' : '[';
  // An array's elements stand under the array's own name, as the redaction of a DOM sees them.
  levels_.push_back({object, true, !object && filter_ != nullptr ? current_key() : std::string()});
}

void JsonWriter::end() {
  const Level level = levels_.back();
  levels_.pop_back();
  if (!level.empty && indent_ >= 0) newline_indent(levels_.size());
  buf_ += level.object ? '}' : ']';
  maybe_flush();
}

void JsonWriter::key(std::string_view name) {
  Level& level = levels_.back();
  if (!level.empty) buf_ += ',';
  level.empty = false;
  if (indent_ >= 0) newline_indent(levels_.size());
  if (filter_ != nullptr) {
    level.key.assign(name);
    filter_->key(level.key);
    name = level.key;
  }
  write_escaped(name);
  buf_ += indent_ >= 0 ? ": " : ":";
  after_key_ = true;
}

void JsonWriter::null() {
  before_value();
  buf_ += "null";
}

void JsonWriter::boolean(bool value) {
  before_value();
  buf_ += value ? "true" : "false";
}

void JsonWriter::integer(std::int64_t value) {
  before_value();
  if (discard_) return;
  char text[24];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  buf_.append(text, end);
}

void JsonWriter::unsigned_integer(std::uint64_t value) {
  before_value();
  if (discard_) return;
  char text[24];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  buf_.append(text, end);
}

void JsonWriter::number(double value) {
  before_value();
  if (discard_) return;
  if (!std::isfinite(value)) {
    buf_ += "null";  // as nlohmann writes NaN and infinities
    return;
  }
  // nlohmann's own shortest round-trip conversion (Grisu2), so the digits are dump()'s.
  char text[64];
  const char* end = ::nlohmann::detail::to_chars(text, text + sizeof text, value);
  buf_.append(text, static_cast<std::size_t>(end - text));
}

void JsonWriter::string(std::string_view value) {
  before_value();
  if (filter_ != nullptr) {
    scratch_.assign(value);
    filter_->string(current_key(), scratch_);
    value = scratch_;
  }
  write_escaped(value);
  maybe_flush();
}

void JsonWriter::write_escaped(std::string_view s) {
  if (discard_) return;
  // ASCII the way nlohmann escapes it (its short escapes, other C0 controls as \u00xx in
  // lower-case hex) and DEL as escape_hidden_in_json writes it; a string with any byte from
  // 0x80 up (UTF-8, or invalid) goes the way dump_json goes, so both write the same bytes.
  static constexpr char kHex[] = "0123456789abcdef";
  const std::size_t start = buf_.size();
  buf_ += '"';
  std::size_t plain = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (plain_byte(c)) continue;
    if (c >= 0x80) {
      buf_.resize(start);
      buf_ += dump_json(Json(std::string(s)));
      return;
    }
    buf_.append(s.data() + plain, i - plain);
    plain = i + 1;
    switch (c) {
      case '"': buf_ += "\\\""; break;
      case '\\': buf_ += "\\\\"; break;
      case '\b': buf_ += "\\b"; break;
      case '\f': buf_ += "\\f"; break;
      case '\n': buf_ += "\\n"; break;
      case '\r': buf_ += "\\r"; break;
      case '\t': buf_ += "\\t"; break;
      default:  // the other C0 controls and DEL
        buf_ += "\\u00";
        buf_ += kHex[c >> 4];
        buf_ += kHex[c & 0xF];
    }
  }
  buf_.append(s.data() + plain, s.size() - plain);
  buf_ += '"';
}

void JsonWriter::json(const Json& value) {
  switch (value.type()) {
    case Json::value_t::object:
      begin_object();
      for (auto it = value.begin(); it != value.end(); ++it) {
        key(it.key());
        json(it.value());
      }
      end_object();
      return;
    case Json::value_t::array:
      begin_array();
      for (const Json& element : value) json(element);
      end_array();
      return;
    case Json::value_t::string:
      string(value.get_ref<const std::string&>());
      return;
    case Json::value_t::boolean:
      boolean(value.get<bool>());
      return;
    case Json::value_t::number_integer:
      integer(value.get<std::int64_t>());
      return;
    case Json::value_t::number_unsigned:
      unsigned_integer(value.get<std::uint64_t>());
      return;
    case Json::value_t::number_float:
      number(value.get<double>());
      return;
    default:
      // null; nothing gpudoctor builds holds binary or discarded values
      null();
      return;
  }
}

void JsonWriter::raw(std::string_view text) {
  buf_.append(text);
  maybe_flush();
}

bool JsonWriter::flush() {
  if (discard_) {
    buf_.clear();
    return true;
  }
  if (!failed_ && !buf_.empty() && !sink_(buf_)) failed_ = true;
  buf_.clear();
  return !failed_;
}

}  // namespace gpudoctor
