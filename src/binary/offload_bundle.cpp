#include "binary/offload_bundle.hpp"

#include <algorithm>
#include <set>

namespace gpudoctor::binary {

namespace {

constexpr std::string_view kBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
constexpr std::string_view kCompressedMagic = "CCOB";
constexpr std::uint64_t kMaxEntriesPerBundle = 1024;  // one per GPU target and the host
constexpr std::uint64_t kMaxIdLength = 1024;
constexpr std::uint64_t kMaxBundles = 1 << 20;
constexpr std::uint64_t kMaxBundlePadding = 1 << 20;

struct BundleWalk {
  HeaderReader reader;
  BundleScan scan;
  std::set<std::string> targets, others;

  bool stop(std::string why) {
    scan.error = std::move(why);
    return false;
  }

  /// An uncompressed bundle at `at` (region ends at `end`); advances `at` past its last entry.
  bool bundle(std::uint64_t& at, std::uint64_t end) {
    auto head = reader.at(at, kBundleMagic.size() + 8);
    if (!head || end - at < kBundleMagic.size() + 8) return stop("bundle header cut short at " + hex(at));
    const auto count = le<std::uint64_t>(*head, kBundleMagic.size());
    if (count > kMaxEntriesPerBundle) {
      return stop("bundle at " + hex(at) + " claims " + std::to_string(count) + " entries");
    }
    const std::uint64_t room = end - at;  // what the entries' offsets may reach
    std::uint64_t pos = at + kBundleMagic.size() + 8;
    std::uint64_t last = pos - at;
    for (std::uint64_t i = 0; i < count; ++i) {
      auto e = reader.at(pos, 24);
      if (!e || end - pos < 24) return stop("bundle entry cut short at " + hex(pos));
      const auto offset = le<std::uint64_t>(*e, 0);
      const auto size = le<std::uint64_t>(*e, 8);
      const auto id_length = le<std::uint64_t>(*e, 16);
      if (id_length > kMaxIdLength || end - pos - 24 < id_length) {
        return stop("bundle entry at " + hex(pos) + " has an ID of " + std::to_string(id_length) +
                    " bytes");
      }
      if (!fits(offset, size, room)) {
        return stop("bundle entry at " + hex(pos) + " points past the section");
      }
      auto id = reader.at(pos + 24, static_cast<std::size_t>(id_length));
      if (!id) return stop("bundle entry ID at " + hex(pos + 24) + " cannot be read");
      if (auto target = amdgpu_target_id(*id)) {
        targets.insert(*target);
      } else if (id->rfind("host-", 0) != 0) {
        others.insert(std::string(*id));
      }
      pos += 24 + id_length;
      last = std::max({last, pos - at, offset + size});
    }
    ++scan.bundles;
    at += last;
    return true;
  }

  /// A compressed bundle: only its size is read, to reach the next one.
  bool compressed(std::uint64_t& at, std::uint64_t end) {
    auto h = reader.at(at, 16);
    if (!h || end - at < 16) return stop("compressed bundle header cut short at " + hex(at));
    const auto version = le<std::uint16_t>(*h, 4);
    std::uint64_t total = 0;
    if (version == 2) {
      total = le<std::uint32_t>(*h, 8);
    } else if (version == 3) {
      total = le<std::uint64_t>(*h, 8);
    } else {
      ++scan.compressed;
      return stop("compressed bundle version " + std::to_string(version) + " at " + hex(at) +
                  " does not record its size; what follows is not read");
    }
    if (total < 16 || !fits(at, total, end)) {
      return stop("compressed bundle at " + hex(at) + " runs past the section");
    }
    ++scan.compressed;
    at += total;
    return true;
  }
};

}  // namespace

std::optional<std::string> amdgpu_target_id(std::string_view id) {
  // <offload kind>-<arch>-<vendor>-<os>[-<environment>]-<target id>; the target ID itself may
  // hold dashes ("gfx10-3-generic"), so it is everything from its first "gfx" component on.
  const std::size_t arch = id.find('-');
  if (arch == std::string_view::npos || id.substr(arch + 1, 7) != "amdgcn-") return std::nullopt;
  std::size_t pos = arch + 1;
  while (pos != std::string_view::npos) {
    if (id.substr(pos, 3) == "gfx") return std::string(id.substr(pos));
    pos = id.find('-', pos);
    if (pos != std::string_view::npos) ++pos;
  }
  return std::nullopt;
}

std::string_view gfx_processor(std::string_view target_id) {
  return target_id.substr(0, target_id.find(':'));
}

BundleScan scan_offload_bundles(const ByteSource& src, std::uint64_t offset, std::uint64_t size) {
  BundleWalk w{HeaderReader(src), {}, {}, {}};
  auto one = [&w](std::uint64_t& at, std::uint64_t end) {
    if (w.scan.bundles + w.scan.compressed >= kMaxBundles) {
      return w.stop("more than " + std::to_string(kMaxBundles) + " bundles");
    }
    auto magic = w.reader.at(at, std::min<std::uint64_t>(end - at, kBundleMagic.size()));
    if (magic && *magic == kBundleMagic) return w.bundle(at, end);
    if (magic && magic->substr(0, kCompressedMagic.size()) == kCompressedMagic) {
      return w.compressed(at, end);
    }
    return w.stop("no offload bundle at " + hex(at));
  };
  if (auto why = walk_containers(w.reader, src.size, offset, size, kMaxBundlePadding, one)) {
    w.scan.error = std::move(why);
  }
  w.scan.targets.assign(w.targets.begin(), w.targets.end());
  w.scan.other_ids.assign(w.others.begin(), w.others.end());
  return std::move(w.scan);
}

}  // namespace gpudoctor::binary
