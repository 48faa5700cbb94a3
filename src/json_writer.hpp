#pragma once
// Writes JSON as it goes, to a sink, in exactly the bytes dump_json(j, indent) gives for the
// same document (nlohmann's layout, its shortest round-trip doubles, invalid UTF-8 replaced by
// U+FFFD, then DEL, C1 and bidirectional controls as \u escapes): a 45 MB report is written
// without a DOM of it and without the whole text in memory.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "json.hpp"

namespace gpudoctor {

/// Sees every string before it is written, with the name of the member that holds it (of the
/// array that holds it, for an element; "" at the top), and may change it: how a report is
/// redacted while it is written (src/report/report_stream.cpp).
class JsonStringFilter {
 public:
  virtual ~JsonStringFilter() = default;
  virtual void string(std::string_view key, std::string& value) = 0;
  /// A member's name; may change it too.
  virtual void key(std::string& name) { (void)name; }
};

class JsonWriter {
 public:
  /// Receives the text in pieces of about kFlushBytes; false when it could not take them,
  /// after which nothing more is sent (failed() says so).
  using Sink = std::function<bool(std::string_view)>;
  static constexpr std::size_t kFlushBytes = 64 * 1024;

  /// `indent` < 0: all on one line, as dump(-1). With no sink (nullptr) nothing is made or
  /// sent: a walk for the filter alone.
  explicit JsonWriter(Sink sink, int indent = 2);
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;
  ~JsonWriter();

  void begin_object() { begin(true); }
  void end_object() { end(); }
  void begin_array() { begin(false); }
  void end_array() { end(); }
  /// The next member's name, inside an object.
  void key(std::string_view name);

  void null();
  void boolean(bool value);
  void integer(std::int64_t value);
  void unsigned_integer(std::uint64_t value);
  void number(double value);
  void string(std::string_view value);
  /// A whole DOM value (small parts built as Json: a merged device, bench results).
  void json(const Json& value);

  /// Strings and names pass through `filter` from now on (nullptr: none); it must outlive
  /// its use.
  void set_filter(JsonStringFilter* filter) { filter_ = filter; }
  JsonStringFilter* filter() const { return filter_; }

  /// Raw text appended as it is ("\n" after the document).
  void raw(std::string_view text);
  /// Sends what is buffered; false when the sink failed, now or before.
  bool flush();
  bool failed() const { return failed_; }

 private:
  struct Level {
    bool object;
    bool empty;
    std::string key;  ///< an object's member being written; an array's own name
  };
  /// The name the next value stands under, for the filter.
  const std::string& current_key() const { return levels_.empty() ? no_key_ : levels_.back().key; }
  void begin(bool object);
  void end();
  /// Before a value: the separator and indentation an array element needs.
  void before_value();
  void newline_indent(std::size_t depth);
  void write_escaped(std::string_view s);
  void maybe_flush() {
    if (buf_.size() >= kFlushBytes) flush();
  }

  Sink sink_;
  int indent_;
  std::string buf_;
  std::vector<Level> levels_;
  JsonStringFilter* filter_ = nullptr;
  std::string no_key_;
  std::string scratch_;
  bool discard_;
  bool after_key_ = false;
  bool failed_ = false;
};

}  // namespace gpudoctor
