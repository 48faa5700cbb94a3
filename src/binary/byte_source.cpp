#include "binary/byte_source.hpp"

#include <algorithm>

namespace gpudoctor::binary {

std::optional<std::string_view> HeaderReader::at(std::uint64_t offset, std::size_t n) {
  if (n > kWindow || !fits(offset, n, src_.size)) return std::nullopt;
  const bool cached = offset >= window_at_ && offset - window_at_ <= window_.size() &&
                      n <= window_.size() - (offset - window_at_);
  if (!cached) {
    // A small read serves the headers that follow one another (a container's first entry, a
    // bundle's table); skip_zeros asks for whole windows itself.
    const std::size_t len = static_cast<std::size_t>(
        std::min<std::uint64_t>(std::max<std::size_t>(n, kSmallRead), src_.size - offset));
    window_.assign(len, '\0');
    ++reads_;
    if (!src_.read(offset, len, reinterpret_cast<unsigned char*>(window_.data()))) {
      window_.clear();
      return std::nullopt;
    }
    window_at_ = offset;
  }
  return std::string_view(window_).substr(static_cast<std::size_t>(offset - window_at_), n);
}

std::optional<std::uint64_t> HeaderReader::skip_zeros(std::uint64_t from, std::uint64_t end,
                                                      std::uint64_t limit) {
  std::uint64_t pos = from;
  while (pos < end && pos - from <= limit) {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(kWindow, end - pos));
    auto chunk = at(pos, n);
    if (!chunk) return std::nullopt;
    const std::size_t nz = chunk->find_first_not_of('\0');
    if (nz != std::string_view::npos) return pos + nz;
    pos += n;
  }
  if (pos >= end) return end;
  return std::nullopt;
}

std::optional<std::string> walk_containers(
    HeaderReader& reader, std::uint64_t source_size, std::uint64_t offset, std::uint64_t size,
    std::uint64_t max_padding, const std::function<bool(std::uint64_t& at, std::uint64_t end)>& one) {
  if (!fits(offset, size, source_size)) return "section runs past the end of the file";
  const std::uint64_t end = offset + size;
  std::uint64_t at = offset;
  while (at < end) {
    auto next = reader.skip_zeros(at, end, max_padding);
    if (!next) return "padding at " + hex(at) + " is too long or cannot be read";
    at = *next;
    if (at >= end || !one(at, end)) break;
  }
  return std::nullopt;
}

}  // namespace gpudoctor::binary
