// /proc/<pid>/status, /etc/passwd and /etc/group.
#include "fuzz_input.hpp"
#include "parse/accounts.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  const std::string_view text = fuzz::as_text(data, size);
  parse_proc_status_ids(text);
  parse_passwd(text);
  parse_group_entries(text);
  return 0;
}
