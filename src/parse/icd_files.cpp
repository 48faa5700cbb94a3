#include "parse/icd_files.hpp"

#include "text.hpp"

namespace gpudoctor {

bool is_icd_file_name(std::string_view name) { return name.size() >= 5 && ends_with(name, ".icd"); }

IcdFileEntry parse_icd_file(std::string_view text) {
  IcdFileEntry e;
  if (text.empty()) {
    e.error = "empty .icd file: the loader skips it";
    return e;
  }
  std::string_view line = text.substr(0, text.find('\n'));
  // ocl-icd measures the name with strnlen, so a NUL ends it.
  line = line.substr(0, line.find('\0'));
  e.library = std::string(line);
  if (trim(line).empty()) {
    e.error = "the first line of the .icd file is empty: it should name the ICD library";
    return e;
  }
  for (unsigned char c : line) {
    if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
      e.error = "the .icd file is not text: it should hold one library name";
      return e;
    }
  }
  if (!line.empty() && line.back() == '\r') {
    e.error =
        "the library name ends in a carriage return (CRLF line ending): the loader "
        "passes it to dlopen as written and will not find the library";
  } else if (trim(line) != line) {
    e.error =
        "the library name has leading or trailing blanks: the loader passes it to "
        "dlopen as written and will not find the library";
  }
  return e;
}

}  // namespace gpudoctor
