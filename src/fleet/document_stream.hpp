#pragma once
// The JSON documents of a stream (`report --brief` of many nodes piped into `summary -`), one
// at a time, as they arrive: memory is the largest document, never the stream (a stream of
// `{}` without end once grew to 18.8 GB before anything was read).
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

class DocumentStream {
 public:
  /// Fills a buffer: how many bytes it wrote, 0 at the end; throws std::runtime_error when the
  /// stream cannot be read.
  using Read = std::function<std::size_t(char*, std::size_t)>;

  DocumentStream(Read read, std::size_t max_document);

  /// The next document's text (valid until the next call), or nullopt at the end of the stream
  /// or where it breaks off (error() then says why: "document 3: unexpected end at byte 6").
  std::optional<std::string_view> next();
  const std::optional<std::string>& error() const { return error_; }

 private:
  /// Reads more; false at the end.
  bool fill();

  Read read_;
  std::size_t max_document_;
  std::string buf_;
  std::size_t at_ = 0;
  bool end_ = false;
  std::size_t documents_ = 0;
  std::optional<std::string> error_;
};

}  // namespace gpudoctor
