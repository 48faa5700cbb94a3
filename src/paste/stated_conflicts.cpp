// A value the paste states twice with different numbers (two NVIDIA drivers, two torch versions,
// two nvcc releases) is not chosen silently: the readers keep the first they read, and this pass,
// after every reader, records each such pair as the symptom `paste.conflicting_values` so that
// the check of that name shows both values and their lines.
#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include "paste/readers.hpp"
#include "text.hpp"

namespace gpudoctor {

namespace {

struct ConflictKind {
  std::string_view what;                    ///< shown: "the NVIDIA driver"
  std::vector<std::string_view> keys;       ///< fact keys that state it
  std::size_t parts;                        ///< how many numbers count (2: major.minor)
};

const std::vector<ConflictKind>& conflict_kinds() {
  static const std::vector<ConflictKind> kinds = {
      {"the NVIDIA driver's version", {"nvidia.driver"}, 3},
      {"the CUDA version the NVIDIA driver supports", {"nvidia.cuda_max"}, 2},
      {"torch's version", {"torch.version", "package.torch"}, 3},
      {"nvcc's release", {"nvcc.version"}, 2},
      {"TensorFlow's version", {"tensorflow.version", "package.tensorflow"}, 3},
  };
  return kinds;
}

/// "torch 2.1.0+cu121" → {2, 1, 0}; "515.86.01" and "515.86.1" → {515, 86, 1}; the first `parts`
/// numbers of the value's last word, or empty when it has none.
std::vector<long> conflict_version_numbers(std::string_view value, std::size_t parts) {
  const auto words = split_words(trim(value));
  if (words.empty()) return {};
  const std::string v = leading_version(words.back());
  std::vector<long> out;
  for (const auto& piece : split_words(v, ".")) {
    if (out.size() == parts) break;
    const auto n = parse_int(piece);
    if (!n) break;
    out.push_back(static_cast<long>(*n));
  }
  return out;
}

std::size_t conflict_entry_of_line(const PasteSink& sink, int number) {
  const auto& lines = sink.lines();
  const auto it = std::lower_bound(lines.begin(), lines.end(), number,
                                   [](const PasteLine& l, int n) { return l.number < n; });
  return it == lines.end() ? lines.size() : static_cast<std::size_t>(it - lines.begin());
}

}  // namespace

void note_stated_conflicts(PasteSink& sink) {
  // Two collect_env dumps are two environments: their torch versions may differ.
  const bool several_envs = sink.snap.python && sink.snap.python->envs.size() > 1;
  // Recorded after the walk: a symptom adds a fact, which would move the facts walked.
  std::vector<std::pair<std::size_t, std::map<std::string, std::string>>> found;
  for (const auto& kind : conflict_kinds()) {
    if (several_envs && kind.keys.front() == "torch.version") continue;
    const PasteFact* first = nullptr;
    std::vector<long> first_numbers;
    for (const auto& f : sink.facts) {
      if (std::find(kind.keys.begin(), kind.keys.end(), f.key) == kind.keys.end()) continue;
      auto numbers = conflict_version_numbers(f.value, kind.parts);
      if (numbers.empty()) continue;
      if (!first) {
        first = &f;
        first_numbers = std::move(numbers);
        continue;
      }
      // "550.54" and "550.54.14" agree: only the numbers both state are compared.
      const std::size_t n = std::min(numbers.size(), first_numbers.size());
      if (std::equal(numbers.begin(), numbers.begin() + static_cast<long>(n), first_numbers.begin())) {
        continue;
      }
      found.push_back({conflict_entry_of_line(sink, f.line),
                       {{"what", std::string(kind.what)},
                        {"first", first->value},
                        {"first_line", std::to_string(first->line)},
                        {"second", f.value},
                        {"second_line", std::to_string(f.line)}}});
      break;  // one pair a kind: the finding names both values
    }
  }
  for (auto& [at, values] : found) {
    sink.symptom("paste.conflicting_values", "paste", at, std::move(values));
  }
}

}  // namespace gpudoctor
