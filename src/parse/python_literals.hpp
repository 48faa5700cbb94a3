#pragma once
// Reads the literal values out of generated Python modules (torch/version.py, tensorflow's
// build_info.py) without running them: a small tokenizer that understands strings, numbers,
// True/False/None and lists of those. Anything else is skipped.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

struct PyLiteral {
  enum class Kind { string, boolean, none, number, list };
  Kind kind = Kind::none;
  std::string text;                ///< the string's value, or the number as written
  bool flag = false;               ///< for booleans
  std::vector<std::string> items;  ///< for lists: their string (or number) items
};

/// Top-level `name = literal` and `name: Annotation = literal` statements.
std::map<std::string, PyLiteral> python_assignments(std::string_view source);

/// Dictionary entries `'key': literal` and pairs `('key', literal)` anywhere in the source, as
/// in `{'cuda_version': '10.1', …}` and `collections.OrderedDict([('cuda_version', '12.2'), …])`.
std::map<std::string, PyLiteral> python_dict_entries(std::string_view source);

}  // namespace gpudoctor
