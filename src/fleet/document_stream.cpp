#include "fleet/document_stream.hpp"

#include <stdexcept>
#include <variant>

#include "fleet/report_scan.hpp"

namespace gpudoctor {

namespace {

constexpr std::size_t kDocumentChunk = 1 << 16;

bool blank(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace

DocumentStream::DocumentStream(Read read, std::size_t max_document)
    : read_(std::move(read)), max_document_(max_document) {}

bool DocumentStream::fill() {
  if (end_) return false;
  // What was handed out is dropped before more comes: the buffer holds one document or so.
  if (at_ > 0) {
    buf_.erase(0, at_);
    at_ = 0;
  }
  const std::size_t had = buf_.size();
  buf_.resize(had + kDocumentChunk);
  std::size_t n = 0;
  try {
    n = read_(buf_.data() + had, kDocumentChunk);
  } catch (const std::exception& e) {
    error_ = std::string("cannot be read (") + e.what() + ")";
  }
  buf_.resize(had + n);
  if (n == 0) end_ = true;
  return n > 0;
}

std::optional<std::string_view> DocumentStream::next() {
  if (error_) return std::nullopt;
  // A document cut by a read is scanned again only once as much again has come, so that a
  // large one costs a few scans, not one per chunk.
  std::size_t rescan_at = 0;
  for (;;) {
    while (at_ < buf_.size() && blank(buf_[at_])) ++at_;
    const std::size_t have = buf_.size() - at_;
    if (have == 0) {
      if (!fill()) return std::nullopt;
      continue;
    }
    if (!end_ && have < rescan_at) {
      fill();
      continue;
    }
    auto scanned = scan_json(std::string_view(buf_).substr(at_));
    if (auto* top = std::get_if<TopLevel>(&scanned)) {
      ++documents_;
      const std::string_view doc = std::string_view(buf_).substr(at_, top->end);
      at_ += top->end;
      return doc;
    }
    const std::string why = "document " + std::to_string(documents_ + 1) + ": ";
    if (end_) {
      error_ = why + std::get<std::string>(scanned);
      return std::nullopt;
    }
    if (have > max_document_) {
      error_ = why + "larger than " + std::to_string(max_document_ >> 20) + " MiB";
      return std::nullopt;
    }
    rescan_at = 2 * have;
    fill();
  }
}

}  // namespace gpudoctor
