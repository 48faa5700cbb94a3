#include "paste/kernel_log.hpp"

#include <deque>

#include "parse/kernel_log.hpp"
#include "paste/read_pasted.hpp"

namespace gpudoctor {

std::vector<Symptom> log_symptoms(std::string_view log,
                                  const std::function<bool(std::string_view)>& keep,
                                  std::size_t max_lines, const std::string& key,
                                  const std::string& source, std::size_t* lines_read) {
  std::deque<std::string_view> kept;
  while (!log.empty()) {
    const auto nl = log.find('\n');
    const std::string_view line = log.substr(0, nl);
    log = nl == std::string_view::npos ? std::string_view{} : log.substr(nl + 1);
    if (!keep(line)) continue;
    kept.push_back(line);
    if (kept.size() > max_lines) kept.pop_front();
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
    s.values[key] = source;
    s.line.reset();  // a line of the filtered text, not of the file
  }
  return out;
}

std::vector<Symptom> kernel_log_symptoms(std::string_view log, KernelLogLayout layout,
                                         const std::string& source, std::size_t* lines_read) {
  return log_symptoms(
      current_boot(log),
      [layout](std::string_view line) {
        return (layout == KernelLogLayout::kernel || is_kernel_line(line)) &&
               is_gpu_kernel_line(line);
      },
      kKernelLogMaxLines, "kernel_log", source, lines_read);
}

}  // namespace gpudoctor
