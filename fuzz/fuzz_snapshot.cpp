// `check --from FILE`: a recorded report from anyone. Whatever it holds, reading it gives a
// snapshot or a one-line reason; a snapshot that was read must write out and read back the same.
#include "fuzz_input.hpp"
#include "json.hpp"
#include "snapshot_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  auto read = snapshot_from_json_text(fuzz::as_text(data, size));
  const auto* snap = std::get_if<Snapshot>(&read);
  if (snap == nullptr) return 0;
  const std::string written = dump_json(Json(*snap));
  auto again = snapshot_from_json_text(written);
  const auto* back = std::get_if<Snapshot>(&again);
  if (back == nullptr || dump_json(Json(*back)) != written) __builtin_trap();
  return 0;
}
