#pragma once
// A pull reader of JSON text (RFC 8259) for documents too large or too untrusted for a DOM:
// the caller asks for the value it expects next, and nothing is built that it did not ask for.
// Nesting is bounded (the depth is counted, never recursed on) and so are the bytes read, so a
// hostile document is an error with its byte offset, never a stack overflow or unbounded memory.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// Deeper than any document gpudoctor writes (a report nests about 8 levels) and shallow
/// enough that every recursive walk of a DOM (copy, dump, compare) stays far from the stack's
/// end.
inline constexpr std::size_t kJsonMaxDepth = 128;

struct JsonLimits {
  std::size_t max_depth = kJsonMaxDepth;
  std::uint64_t max_bytes = std::uint64_t{256} << 20;
};

/// The text is not JSON, or goes past a limit. what(): "not JSON: … at byte N", "nested
/// deeper than 128 levels at byte N", "larger than 256 MiB".
class JsonSyntaxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class JsonKind { object, array, string, number, boolean, null };

/// "an object", "a string", …
const char* json_kind_text(JsonKind kind);

/// A number as written, checked against the grammar; `integer` when it has neither a fraction
/// nor an exponent.
struct JsonNumber {
  std::string_view text;
  bool integer = true;
};

class JsonPull {
 public:
  /// Fills `buf` with up to `size` more bytes and returns how many; 0 at the end of the input.
  /// Throws JsonSyntaxError (or anything else) when the input cannot be read.
  using Refill = std::function<std::size_t(char* buf, std::size_t size)>;

  explicit JsonPull(std::string_view text, JsonLimits limits = {});
  explicit JsonPull(Refill refill, JsonLimits limits = {});

  /// The kind of the value that starts next (whitespace skipped).
  JsonKind peek();
  void begin_object();
  /// Moves to the next member of the object being read: false at its end (the '}' is then
  /// consumed), true with key() set and the ':' consumed. `first` starts true for each object.
  bool next_key(bool& first);
  const std::string& key() const { return key_; }
  void begin_array();
  /// Moves to the next element: false at the end of the array (its ']' consumed).
  bool next_element(bool& first);
  /// The next value, which must be of that kind. The returned references live until the next
  /// call.
  const std::string& read_string();
  JsonNumber read_number();
  bool read_bool();
  void read_null();
  /// Reads past the next value, whatever it is, without keeping it.
  void skip_value();
  /// Only whitespace may follow the document.
  void finish();
  /// Bytes consumed so far.
  std::uint64_t offset() const { return consumed_ + static_cast<std::uint64_t>(p_ - base_); }

 private:
  [[noreturn]] void fail(const std::string& why) const;
  bool fill();
  int peek_byte();
  int next_byte();
  void skip_whitespace();
  void expect(char c, const char* what);
  void enter();
  /// Past the ',' before the next member or element of the container `close` ends; false,
  /// with the container left, at its end.
  bool next_in(char close, bool& first);
  void string_body(std::string* out);
  void escape(std::string* out);
  unsigned hex4();
  void utf8_sequence(std::string* out);
  void literal(const char* word);

  Refill refill_;
  JsonLimits limits_;
  std::unique_ptr<char[]> buffer_;
  const char* base_ = nullptr;  ///< start of the current window
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  std::uint64_t consumed_ = 0;   ///< bytes before base_
  std::uint64_t read_total_ = 0;
  std::size_t depth_ = 0;
  std::string key_;
  std::string string_;
  std::string number_;
  std::vector<std::uint8_t> skip_stack_;
};

}  // namespace gpudoctor
