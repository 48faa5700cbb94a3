#pragma once
// A file under the root read at offsets (pread), for the binary readers of src/binary: a
// shared library of 2 GB is read a few headers at a time, never whole.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "binary/byte_source.hpp"
#include "core/root.hpp"

namespace gpudoctor {

/// Opens `target_path` under `root` and hands `use` a source reading it; returns why it could
/// not be opened (a one-line message naming the file), or nullopt once `use` has run.
std::optional<std::string> with_file_source(
    const Root& root, std::string_view target_path,
    const std::function<void(const binary::ByteSource&)>& use);

}  // namespace gpudoctor
