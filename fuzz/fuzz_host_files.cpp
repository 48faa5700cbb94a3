// os-release, /proc/cpuinfo, /proc/meminfo, /proc/1/cgroup, mountinfo, the kernel release and
// the DMI names.
#include "fuzz_input.hpp"
#include "parse/host_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpudoctor;
  const std::string_view text = fuzz::as_text(data, size);
  parse_os_release(text);
  parse_cpuinfo(text);
  parse_meminfo(text);
  container_from_cgroup(text);
  container_from_mountinfo(text);
  wsl_from_kernel(text);
  const auto [vendor, product] = fuzz::first_line_and_rest(text);
  virtualization_from_dmi(vendor, product);
  dmi_value(text);
  return 0;
}
