#include "paste/kernel_log.hpp"

#include <deque>

#include "parse/kernel_log.hpp"
#include "paste/read_pasted.hpp"

namespace gpudoctor {

std::vector<Symptom> kernel_log_symptoms(std::string_view log, KernelLogLayout layout,
                                         const std::string& source, std::size_t* lines_read) {
  std::deque<std::string_view> kept;
  std::string_view rest = current_boot(log);
  while (!rest.empty()) {
    const auto nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    if (layout == KernelLogLayout::syslog && !is_kernel_line(line)) continue;
    if (!is_gpu_kernel_line(line)) continue;
    kept.push_back(line);
    if (kept.size() > kKernelLogMaxLines) kept.pop_front();
  }
  if (lines_read != nullptr) *lines_read = kept.size();
  if (kept.empty()) return {};
  std::string text;
  for (const auto line : kept) {
    text.append(line);
    text.push_back('\n');
  }
  PastedReading reading = read_pasted_text(std::move(text));
  std::vector<Symptom> out = std::move(reading.snapshot.symptoms);
  for (auto& s : out) {
    s.values["kernel_log"] = source;
    s.line.reset();  // a line of the filtered text, not of the file
  }
  return out;
}

}  // namespace gpudoctor
