// The pull reader under `check --from` and `diff`, against two references: nlohmann's parser
// must accept exactly the documents it accepts (past the depth limit, it refuses alone), and a
// report read in chunks of any size must read exactly as one read whole (the chunk size comes
// from the input's length and middle byte, so seeds stay whole documents). Deep and long inputs
// grow from fuzz/dict/json_pull.dict and libFuzzer's -max_len.
#include <algorithm>
#include <cstring>

#include "fuzz_input.hpp"
#include "json.hpp"
#include "json_pull.hpp"
#include "snapshot_io.hpp"

namespace {

using namespace gpudoctor;

bool pull_accepts(std::string_view text, bool& too_deep) {
  try {
    JsonPull in(text);
    in.skip_value();
    in.finish();
    return true;
  } catch (const JsonSyntaxError& e) {
    too_deep = std::strncmp(e.what(), "nested deeper", 13) == 0;
    return false;
  }
}

std::string outcome(const std::variant<Snapshot, std::string>& read) {
  if (const auto* why = std::get_if<std::string>(&read)) return "error: " + *why;
  return dump_json(Json(std::get<Snapshot>(read)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::size_t chunk = 1 + (size * 31 + (size > 0 ? data[size / 2] : 0)) % 64;
  const std::string_view text = fuzz::as_text(data, size);

  bool too_deep = false;
  const bool ours = pull_accepts(text, too_deep);
  // Where nlohmann is laxer than RFC 8259: it skips a UTF-8 byte order mark, and takes a NUL
  // byte outside a string for the end of the input ("{}\0junk" is JSON to it; not to Python).
  const bool bom = text.substr(0, 3) == "\xef\xbb\xbf";
  const bool nul = text.find('\0') != std::string_view::npos;
  if (!too_deep && !bom && !nul) {
    bool theirs = true;
    try {
      (void)Json::parse(text.begin(), text.end());
    } catch (const Json::exception& e) {
      theirs = false;
      // And stricter: a number past a double's range (1e400) is its parse error, while it is
      // grammatical JSON (Python reads inf); the report reader refuses it as a value instead.
      if (std::strstr(e.what(), "number overflow") != nullptr) theirs = ours;
    }
    if (ours != theirs) __builtin_trap();
  }

  const std::string whole = outcome(snapshot_from_json_text(text));
  std::size_t at = 0;
  const std::string pieces = outcome(snapshot_from_json_input([&](char* buf, std::size_t room) {
    const std::size_t n = std::min({chunk, room, text.size() - at});
    std::memcpy(buf, text.data() + at, n);
    at += n;
    return n;
  }));
  if (whole != pieces) __builtin_trap();
  return 0;
}
