#pragma once
// What the binary readers read from: a size and a read-at-offset callback, so a probe can hand
// them a file of 2 GB without loading it, and a test or fuzzer a string. Every read is checked
// against the size; a short or failed read is an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "text.hpp"

namespace gpudoctor::binary {

struct ByteSource {
  std::uint64_t size = 0;
  /// Fills `out` with `n` bytes at `offset`; false when they cannot all be read.
  std::function<bool(std::uint64_t offset, std::size_t n, unsigned char* out)> read;
};

/// A source over bytes already in memory; `bytes` must outlive it.
inline ByteSource bytes_source(std::string_view bytes) {
  ByteSource s;
  s.size = bytes.size();
  s.read = [bytes](std::uint64_t offset, std::size_t n, unsigned char* out) {
    if (offset > bytes.size() || n > bytes.size() - offset) return false;
    std::memcpy(out, bytes.data() + offset, n);
    return true;
  };
  return s;
}

/// Whether [offset, offset + length) lies inside `limit` bytes, without overflowing.
inline bool fits(std::uint64_t offset, std::uint64_t length, std::uint64_t limit) {
  return offset <= limit && length <= limit - offset;
}

/// `n` bytes at `offset` (n is small: a header), or nullopt when they are not all there.
inline std::optional<std::string> read_bytes(const ByteSource& src, std::uint64_t offset,
                                             std::size_t n) {
  if (!fits(offset, n, src.size)) return std::nullopt;
  std::string out(n, '\0');
  if (n > 0 && !src.read(offset, n, reinterpret_cast<unsigned char*>(out.data()))) {
    return std::nullopt;
  }
  return out;
}

/// Little-endian integer of `N` bytes at `pos` of a header already read (pos + N ≤ size).
template <typename T>
T le(std::string_view bytes, std::size_t pos) {
  T v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    v |= static_cast<T>(static_cast<unsigned char>(bytes[pos + i])) << (8 * i);
  }
  return v;
}

/// Reads small headers through a window of a few KiB, so that headers lying close together (the
/// entries of a fatbinary, a bundle's table) cost one read of the source between them.
class HeaderReader {
 public:
  static constexpr std::size_t kWindow = 4096;
  static constexpr std::size_t kSmallRead = 256;
  explicit HeaderReader(const ByteSource& src) : src_(src) {}

  /// `n` (≤ kWindow) bytes at `offset`, valid until the next call; nullopt when not all there.
  std::optional<std::string_view> at(std::uint64_t offset, std::size_t n);

  /// The first non-zero byte in [from, end), or `end` when there is none, reading at most
  /// `limit` bytes of zeros (the padding between containers); nullopt when the padding is
  /// longer than that or cannot be read.
  std::optional<std::uint64_t> skip_zeros(std::uint64_t from, std::uint64_t end,
                                          std::uint64_t limit);

  /// How many reads reached the source (for the benchmark and tests).
  std::uint64_t reads() const { return reads_; }

 private:
  const ByteSource& src_;
  std::string window_;
  std::uint64_t window_at_ = 0;
  std::uint64_t reads_ = 0;
};

/// Walks containers lying back to back in [offset, offset + size) of the reader's source, with
/// zero padding (at most `max_padding` bytes at a time) allowed between them: `one(at, end)`
/// reads the container at `at`, moves `at` past it and returns false to stop (having noted
/// why). Returns why the walk itself stopped early: a region past the end of the source, or
/// padding too long or unreadable.
std::optional<std::string> walk_containers(
    HeaderReader& reader, std::uint64_t source_size, std::uint64_t offset, std::uint64_t size,
    std::uint64_t max_padding, const std::function<bool(std::uint64_t& at, std::uint64_t end)>& one);

/// "0x1a2b" for error messages.
inline std::string hex(std::uint64_t v) { return "0x" + gpudoctor::hex(v, 1); }

}  // namespace gpudoctor::binary
